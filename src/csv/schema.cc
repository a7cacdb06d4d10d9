#include "csv/schema.h"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "csv/values.h"

namespace tfq::csv {

std::string_view ColumnKindName(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::kInt64: return "int64";
    case ColumnKind::kFloat: return "float";
    case ColumnKind::kBytes: return "bytes";
  }
  return "bytes";
}

Result<ColumnKind> ParseColumnKind(std::string_view name) {
  if (name == "int64") return ColumnKind::kInt64;
  if (name == "float") return ColumnKind::kFloat;
  if (name == "bytes") return ColumnKind::kBytes;
  return Status::InvalidArgument("unknown column kind \"" + std::string(name) +
                                 "\" (expected int64, float or bytes)");
}

const ColumnSpec* Schema::Find(std::string_view name) const {
  for (const ColumnSpec& c : columns) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

Status ValidateSchema(const Schema& schema, std::string_view source) {
  std::unordered_set<std::string_view> seen;
  for (const ColumnSpec& c : schema.columns) {
    const std::string where = std::string(source) + ": column \"" + c.name + "\"";
    if (c.name.empty()) return Status::InvalidArgument(std::string(source) + ": a column has no name");
    if (!seen.insert(c.name).second) return Status::InvalidArgument(where + " is listed twice");
    const char sep = c.list_separator;
    if (sep == '\n' || sep == '\r' || sep == '"') {
      return Status::InvalidArgument(where + ": the list separator cannot be a line break or '\"'");
    }
    if (!c.default_value) continue;
    Status bad;
    auto check = [&](std::string_view v) {
      if (!bad.ok()) return;
      int64_t i = 0;
      float f = 0;
      if ((c.kind == ColumnKind::kInt64 && !ParseInt64(v, &i)) ||
          (c.kind == ColumnKind::kFloat && ParseFloat(v, &f) != FloatParse::kOk)) {
        bad = Status::InvalidArgument(where + ": the default \"" + std::string(v) + "\" is not " +
                                      (c.kind == ColumnKind::kInt64 ? "an int64" : "a float"));
      }
    };
    if (sep != 0) {
      ForEachListElement(*c.default_value, sep, check);
    } else {
      check(*c.default_value);
    }
    TFQ_RETURN_IF_ERROR(bad);
  }
  return Status::OK();
}

Result<Schema> SelectColumns(const Schema& schema, std::span<const std::string> select,
                             std::span<const std::string> exclude) {
  for (auto list : {select, exclude}) {
    for (const std::string& name : list) {
      if (!schema.Find(name)) {
        return Status::InvalidArgument("no column named \"" + name + "\" to " +
                                       (list.data() == select.data() ? "select" : "exclude"));
      }
    }
  }
  Schema out;
  for (const ColumnSpec& c : schema.columns) {
    const bool selected =
        select.empty() || std::find(select.begin(), select.end(), c.name) != select.end();
    const bool excluded = std::find(exclude.begin(), exclude.end(), c.name) != exclude.end();
    if (selected && !excluded) out.columns.push_back(c);
  }
  return out;
}

std::string HeaderColumnName(std::string_view field, size_t index) {
  return field.empty() ? "column_" + std::to_string(index + 1) : std::string(field);
}

Result<std::vector<std::string>> ColumnNamesFromHeader(std::span<const std::string_view> header,
                                                       std::string_view source) {
  std::vector<std::string> names;
  std::unordered_set<std::string_view> seen;
  for (size_t i = 0; i < header.size(); ++i) names.push_back(HeaderColumnName(header[i], i));
  for (size_t i = 0; i < names.size(); ++i) {
    if (!seen.insert(names[i]).second) {
      return Status::InvalidData(std::string(source) + ": line 1 (header), column " +
                                 std::to_string(i + 1) + ": the column name \"" + names[i] +
                                 "\" appears twice; rename one with --columns");
    }
  }
  return names;
}

Result<ColumnSpec> ParseColumnFlag(std::string_view flag, bool list) {
  const std::string usage = list ? "NAME:KIND:SEPARATOR" : "NAME:KIND";
  ColumnSpec spec;
  std::string_view rest = flag;
  if (list) {
    if (rest.size() < 2 || rest[rest.size() - 2] != ':') {
      return Status::InvalidArgument("list column \"" + std::string(flag) + "\": expected " +
                                     usage + " with a one-byte separator");
    }
    spec.list_separator = rest.back();
    rest.remove_suffix(2);
  }
  const size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    return Status::InvalidArgument("column \"" + std::string(flag) + "\": expected " + usage);
  }
  Result<ColumnKind> kind = ParseColumnKind(rest.substr(colon + 1));
  if (!kind.ok()) {
    return Status::InvalidArgument("column \"" + std::string(flag) + "\": " + kind.status().message());
  }
  spec.name = std::string(rest.substr(0, colon));
  spec.kind = *kind;
  Schema one{{spec}};
  TFQ_RETURN_IF_ERROR(ValidateSchema(one, "column flag"));
  return spec;
}

}  // namespace tfq::csv
