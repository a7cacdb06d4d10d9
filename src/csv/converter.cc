#include "csv/converter.h"

#include <string>
#include <string_view>
#include <unordered_map>

namespace tfq::csv {
namespace {

std::string Quoted(std::string_view text) {
  constexpr size_t kMax = 40;  // keep messages one line long
  std::string s = "\"";
  s += text.substr(0, kMax);
  s += text.size() > kMax ? "...\"" : "\"";
  return s;
}

}  // namespace

Result<RowConverter> RowConverter::Make(const Schema& schema,
                                        std::span<const std::string> file_columns, NaMatcher na) {
  TFQ_RETURN_IF_ERROR(ValidateSchema(schema, "schema"));
  RowConverter conv;
  conv.na_ = std::move(na);
  // By name through a map: a header of a million columns must not cost a million squared.
  std::unordered_map<std::string_view, size_t> field_of;
  field_of.reserve(file_columns.size());
  for (size_t i = 0; i < file_columns.size(); ++i) field_of[file_columns[i]] = i;  // last wins
  for (const ColumnSpec& spec : schema.columns) {
    Column c;
    c.spec = spec;
    auto found = field_of.find(spec.name);
    c.field = found == field_of.end() ? file_columns.size() : found->second;
    if (c.field == file_columns.size()) {
      return Status::InvalidArgument("the schema names a column \"" + spec.name +
                                     "\" that the CSV header does not have");
    }
    if (spec.default_value) {
      c.has_default = true;
      auto add = [&](std::string_view v) {  // valid: ValidateSchema checked every element
        int64_t i = 0;
        float f = 0;
        if (spec.kind == ColumnKind::kInt64 && ParseInt64(v, &i)) c.default_int64s.push_back(i);
        if (spec.kind == ColumnKind::kFloat && ParseFloat(v, &f) == FloatParse::kOk) {
          c.default_floats.push_back(f);
        }
        if (spec.kind == ColumnKind::kBytes) c.default_bytes.emplace_back(v);
      };
      if (spec.list_separator) {
        ForEachListElement(*spec.default_value, spec.list_separator, add);
      } else {
        add(*spec.default_value);
      }
    }
    conv.columns_.push_back(std::move(c));
  }
  return conv;
}

inline bool RowConverter::AppendValue(const Column& c, std::string_view text) {
  switch (c.spec.kind) {
    case ColumnKind::kInt64: {
      int64_t v;
      if (!ParseInt64(text, &v)) return false;
      int64s_.push_back(v);
      return true;
    }
    case ColumnKind::kFloat: {
      float v;
      if (ParseFloat(text, &v) != FloatParse::kOk) return false;
      floats_.push_back(v);
      return true;
    }
    case ColumnKind::kBytes:
      bytes_.push_back(text);
      return true;
  }
  return false;
}

Status RowConverter::Convert(const RowBatch& batch, size_t row) {
  int64s_.clear();
  floats_.clear();
  bytes_.clear();
  const std::span<const std::string_view> fields = batch.row(row);
  for (Column& c : columns_) {
    const std::string_view text = c.field < fields.size() ? fields[c.field] : std::string_view();
    const size_t before = c.spec.kind == ColumnKind::kInt64   ? int64s_.size()
                          : c.spec.kind == ColumnKind::kFloat ? floats_.size()
                                                              : bytes_.size();
    if (na_.IsMissing(text)) {
      if (c.has_default) {
        int64s_.insert(int64s_.end(), c.default_int64s.begin(), c.default_int64s.end());
        floats_.insert(floats_.end(), c.default_floats.begin(), c.default_floats.end());
        for (const std::string& s : c.default_bytes) bytes_.push_back(s);
      } else if (c.spec.required) {
        return Status::InvalidData(batch.Where(row, c.field, c.spec.name) + ": " +
                                   (text.empty() ? std::string("empty")
                                                 : Quoted(text) + " (an NA value)") +
                                   " in a required column");
      }
    } else if (c.spec.list_separator == 0) {
      if (!AppendValue(c, text)) return ValueError(batch, row, c, text, false);
    } else {
      bool ok = true;
      std::string_view bad;
      ForEachListElement(text, c.spec.list_separator, [&](std::string_view e) {
        if (ok && !AppendValue(c, e)) {
          ok = false;
          bad = e;
        }
      });
      if (!ok) return ValueError(batch, row, c, bad, true);
    }
    c.begin = static_cast<uint32_t>(before);
    c.end = static_cast<uint32_t>(c.spec.kind == ColumnKind::kInt64   ? int64s_.size()
                                  : c.spec.kind == ColumnKind::kFloat ? floats_.size()
                                                                      : bytes_.size());
  }
  return Status::OK();
}

Status RowConverter::ValueError(const RowBatch& batch, size_t row, const Column& c,
                                std::string_view text, bool list_element) const {
  float f = 0;
  const bool out_of_range =
      c.spec.kind == ColumnKind::kFloat && ParseFloat(text, &f) == FloatParse::kOutOfRange;
  std::string msg = batch.Where(row, c.field, c.spec.name) + ": " +
                    (list_element ? "list element " : "") + Quoted(text);
  if (out_of_range) {
    msg += " is beyond the float32 range";
  } else {
    msg += c.spec.kind == ColumnKind::kInt64 ? " is not an int64" : " is not a float";
  }
  return Status::InvalidData(std::move(msg));
}

}  // namespace tfq::csv
