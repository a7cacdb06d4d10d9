// Reading --manifest files: CSV/TSV through the CSV core (src/csv), JSON lines through nlohmann.
// Both give the same thing: entries with a path, a label value and the extra columns' text.
#include <sys/stat.h>

#include <cerrno>
#include <map>

#include <nlohmann/json.hpp>

#include "common/json_output.h"
#include "convert/line_reader.h"
#include "csv/chunker.h"
#include "csv/parser.h"
#include "imageset/dataset.h"
#include "io/file_streams.h"

namespace tfq::imageset {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string Resolve(const std::string& root, std::string_view path) {
  if (!path.empty() && path.front() == '/') return std::string(path);
  return root + "/" + std::string(path);
}

Status ReadCsvManifest(const std::string& path, const std::string& root, char delimiter, Dataset* out,
                       std::vector<std::string>* labels) {
  TFQ_ASSIGN_OR_RETURN(auto in, OpenInputFile(path));
  csv::ParseOptions popts;
  popts.delimiter = delimiter;
  csv::Chunker chunker(in.get(), popts);
  csv::ChunkParser parser(popts);
  csv::Chunk chunk;
  chunk.source = path;
  csv::RowBatch batch;
  size_t path_col = SIZE_MAX, label_col = SIZE_MAX;
  std::vector<size_t> extra_cols;
  bool columns_known = false;
  for (bool done = false;;) {
    TFQ_RETURN_IF_ERROR(chunker.Next(&chunk, &done));
    if (done) break;
    TFQ_RETURN_IF_ERROR(parser.Parse(chunk, &batch));
    if (!columns_known && !parser.column_names().empty()) {
      const auto& names = parser.column_names();
      for (size_t c = 0; c < names.size(); ++c) {
        if (names[c] == "path") {
          path_col = c;
        } else if (names[c] == "label") {
          label_col = c;
        } else {
          extra_cols.push_back(c);
          out->extra_columns.push_back({names[c], FeatureKind::kBytes});
        }
      }
      if (path_col == SIZE_MAX) {
        return Status::InvalidData(path + ": the header must name a \"path\" column (and a \"label\" one for "
                                   "a labelled set)");
      }
      out->labelled = label_col != SIZE_MAX;
      columns_known = true;
    }
    for (size_t r = 0; r < batch.num_rows(); ++r) {
      const auto row = batch.row(r);
      if (row[path_col].empty()) return Status::InvalidData(batch.Where(r, path_col, "path") + ": empty path");
      ImageEntry e;
      e.path = Resolve(root, row[path_col]);
      if (out->labelled) {
        e.class_text = std::string(row[label_col]);
        labels->push_back(e.class_text);
      }
      for (size_t c : extra_cols) e.extras.emplace_back(row[c]);
      out->entries.push_back(std::move(e));
    }
  }
  InferExtraKinds(std::vector<bool>(out->extra_columns.size(), false), out);
  return Status::OK();
}

// A JSON scalar as the text the CSV inference sees; *is_string for JSON strings.
Status ScalarText(const nlohmann::json& v, std::string* text, bool* is_string) {
  *is_string = false;
  if (v.is_string()) {
    *text = v.get<std::string>();
    *is_string = true;
  } else if (v.is_number_integer()) {
    *text = ToJsonText(v);
  } else if (v.is_number_float()) {
    *text = ToJsonText(v);
  } else if (v.is_null()) {
    text->clear();
  } else if (v.is_boolean()) {
    *text = v.get<bool>() ? "1" : "0";
  } else {
    return Status::InvalidData("a list or object where a single value was expected");
  }
  return Status::OK();
}

Status ReadJsonLinesManifest(const std::string& path, const std::string& root, Dataset* out,
                             std::vector<std::string>* labels) {
  TFQ_ASSIGN_OR_RETURN(auto in, OpenInputFile(path));
  LineReader reader(in.get(), 16 << 20);
  std::map<std::string, size_t> column_of;
  std::vector<bool> was_string;
  std::string_view line;
  while (reader.Next(&line)) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = path + ": line " + std::to_string(reader.line_number());
    nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return Status::InvalidData(where + ": not a JSON object");
    ImageEntry e;
    bool has_path = false, has_label = false;
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string text;
      bool is_string;
      TFQ_RETURN_IF_ERROR(ScalarText(it.value(), &text, &is_string).WithPrefix(where + ": \"" + it.key() + "\""));
      if (it.key() == "path") {
        if (!is_string || text.empty()) return Status::InvalidData(where + ": \"path\" must be a non-empty string");
        e.path = Resolve(root, text);
        has_path = true;
      } else if (it.key() == "label") {
        e.class_text = text;
        has_label = true;
      } else {
        auto [col, added] = column_of.emplace(it.key(), out->extra_columns.size());
        if (added) {
          out->extra_columns.push_back({it.key(), FeatureKind::kBytes});
          was_string.push_back(false);
          for (ImageEntry& prev : out->entries) prev.extras.emplace_back();
        }
        if (is_string) was_string[col->second] = true;
        e.extras.resize(out->extra_columns.size());
        e.extras[col->second] = std::move(text);
      }
    }
    if (!has_path) return Status::InvalidData(where + ": needs \"path\"");
    // The first line decides whether the set is labelled; every line must agree.
    if (out->entries.empty()) out->labelled = has_label;
    if (has_label != out->labelled) {
      return Status::InvalidData(where + (has_label ? ": has a \"label\", but the first line has none"
                                                    : ": needs \"label\", as the first line has one"));
    }
    e.extras.resize(out->extra_columns.size());
    if (has_label) labels->push_back(e.class_text);
    out->entries.push_back(std::move(e));
  }
  TFQ_RETURN_IF_ERROR(reader.status());
  InferExtraKinds(was_string, out);
  return Status::OK();
}

}  // namespace

Status ReadManifest(const std::string& path, const std::string& root, Dataset* out,
                    std::vector<std::string>* label_values) {
  Status s;
  if (EndsWith(path, ".jsonl") || EndsWith(path, ".json") || EndsWith(path, ".ndjson")) {
    s = ReadJsonLinesManifest(path, root, out, label_values);
  } else if (EndsWith(path, ".csv") || EndsWith(path, ".tsv")) {
    s = ReadCsvManifest(path, root, EndsWith(path, ".tsv") ? '\t' : ',', out, label_values);
  } else {
    return Status::InvalidArgument(path + ": a manifest must be .csv, .tsv or .jsonl");
  }
  TFQ_RETURN_IF_ERROR(s);
  // Sizes for --shard-size and the progress bar; a missing file is left to fail at conversion,
  // where it is counted like any other bad input.
  for (ImageEntry& e : out->entries) {
    struct stat st;
    if (stat(e.path.c_str(), &st) == 0) e.bytes = static_cast<uint64_t>(st.st_size);
  }
  return Status::OK();
}

}  // namespace tfq::imageset
