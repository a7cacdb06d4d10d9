#include "convert/records_to_csv.h"

#include <charconv>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include "common/base64.h"
#include "common/json_text.h"
#include "example/example_view.h"
#include "example/json_forms.h"

namespace tfq {
namespace {

class CsvWriter {
 public:
  CsvWriter(const RecordsToCsvOptions& options, size_t num_columns)
      : options_(options), num_columns_(num_columns) {}

  // Appends `field` (unquoted text) as one CSV field, quoting it where needed.
  void AppendField(std::string_view field, std::string* out) const {
    bool quote = num_columns_ == 1 && field.empty();
    for (char c : field) {
      if (c == options_.delimiter || c == '"' || c == '\r' || c == '\n') {
        quote = true;
        break;
      }
    }
    if (!quote) {
      out->append(field);
      return;
    }
    out->push_back('"');
    for (char c : field) {
      if (c == '"') out->push_back('"');
      out->push_back(c);
    }
    out->push_back('"');
  }

  // The unquoted text of one feature's values, into *text.
  Status FormatFeature(const FeatureView& f, std::string* text) {
    text->clear();
    const char sep = options_.list_separator;
    switch (f.kind()) {
      case FeatureKind::kNone:
        return Status::OK();
      case FeatureKind::kInt64:
        return f.ForEachInt64([&](int64_t v) {
          if (!text->empty()) text->push_back(sep);
          char buf[24];
          text->append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
        });
      case FeatureKind::kFloat:
        return f.ForEachFloat([&](float v) {
          if (!text->empty()) text->push_back(sep);
          AppendFloatLiteral(v, text);  // "1.0": a float column must read back as float
        });
      case FeatureKind::kBytes: {
        bytes_.clear();
        TFQ_RETURN_IF_ERROR(f.AppendBytes(&bytes_));
        for (size_t i = 0; i < bytes_.size(); ++i) {
          const std::string_view v = bytes_[i];
          if (i > 0) text->push_back(sep);
          if (options_.bytes == CsvBytesFormat::kBase64) {
            AppendBase64(v, text);
          } else if (IsValidUtf8(v)) {
            if (bytes_.size() > 1 && v.find(sep) != std::string_view::npos) {
              return Status::InvalidData(std::string("value ") + std::to_string(i) +
                                         " of the list holds the list separator '" + sep +
                                         "' (choose another with --list-separator)");
            }
            text->append(v);
          } else {
            text->append("base64:");
            AppendBase64(v, text);
          }
        }
        return Status::OK();
      }
    }
    return Status::OK();
  }

 private:
  const RecordsToCsvOptions& options_;
  const size_t num_columns_;
  std::vector<std::string_view> bytes_;
};

// One row per record: the columns' values, in order, through one CsvWriter per worker.
class CsvRowFormatter : public RecordFormatter {
 public:
  CsvRowFormatter(const RecordsToCsvOptions& options, const std::vector<std::string>& columns)
      : options_(options), columns_(columns), writer_(options, columns.size()) {}

  Status Append(std::string_view record, std::string* out) override {
    TFQ_RETURN_IF_ERROR(example_.Parse(record));
    for (size_t c = 0; c < columns_.size(); ++c) {
      if (c > 0) out->push_back(options_.delimiter);
      const FeatureView* f = example_.features().Find(columns_[c]);
      text_.clear();
      if (f != nullptr) {
        TFQ_RETURN_IF_ERROR(writer_.FormatFeature(*f, &text_).WithPrefix("feature \"" + columns_[c] + "\""));
      }
      writer_.AppendField(text_, out);
    }
    if (!columns_.empty()) out->push_back('\n');
    return Status::OK();
  }

 private:
  const RecordsToCsvOptions& options_;
  const std::vector<std::string>& columns_;
  CsvWriter writer_;
  ExampleView example_;
  std::string text_;
};

// The union of the features of every record, in order of first appearance.
Status CollectColumns(const std::vector<std::string>& inputs, const RecordOpener& open, size_t max_columns,
                      std::vector<std::string>* columns) {
  std::unordered_map<std::string, size_t> seen;
  ExampleView example;
  for (const std::string& path : inputs) {
    TFQ_ASSIGN_OR_RETURN(std::unique_ptr<tfrecord::RecordReader> reader, open(path));
    std::string_view record;
    while (reader->Read(&record)) {
      TFQ_RETURN_IF_ERROR(example.Parse(record).WithPrefix(
          path + ": record " + std::to_string(reader->record_index())));
      for (const auto& entry : example.features().entries()) {
        if (!seen.emplace(std::string(entry.key), columns->size()).second) continue;
        if (columns->size() == max_columns) {
          return Status::ResourceExhausted(
              path + ": record " + std::to_string(reader->record_index()) + ": the features of the records " +
              "make more than " + std::to_string(max_columns) + " columns (the limit; one per distinct feature " +
              "name); name the columns to export with --select a,b,... or raise --max-columns");
        }
        columns->emplace_back(entry.key);
      }
    }
    TFQ_RETURN_IF_ERROR(reader->status());
  }
  return Status::OK();
}

}  // namespace

Result<CsvBytesFormat> ParseCsvBytesFormat(std::string_view name) {
  if (name == "auto") return CsvBytesFormat::kAuto;
  if (name == "base64") return CsvBytesFormat::kBase64;
  return Status::InvalidArgument("--bytes must be auto or base64, not \"" + std::string(name) + "\"");
}

Status RecordsToCsv(const std::vector<std::string>& inputs, const RecordOpener& open,
                    const RecordsToCsvOptions& options, const TextSink& sink, uint64_t* records) {
  std::vector<std::string> columns = options.columns;
  if (columns.empty()) TFQ_RETURN_IF_ERROR(CollectColumns(inputs, open, options.max_columns, &columns));
  const CsvWriter writer(options, columns.size());
  std::string header;
  for (size_t c = 0; c < columns.size(); ++c) {
    if (c > 0) header.push_back(options.delimiter);
    writer.AppendField(columns[c], &header);
  }
  if (!columns.empty()) header.push_back('\n');
  TFQ_RETURN_IF_ERROR(sink(header, 0));
  return RecordsToText(
      inputs, open, options.threads,
      [&] { return std::make_unique<CsvRowFormatter>(options, columns); },
      [&](std::string_view text, uint64_t rows) {
        TFQ_RETURN_IF_ERROR(sink(text, rows));
        *records += rows;
        return Status::OK();
      });
}

}  // namespace tfq
