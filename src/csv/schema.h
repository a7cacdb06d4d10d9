// The schema of a CSV table as tfq converts it: per column a kind (int64, float, bytes), an
// optional list separator, and the missing-value policy (default, required), with the JSON form
// that --schema reads and --print-schema writes (docs/csv.md).
#ifndef TFQ_CSV_SCHEMA_H_
#define TFQ_CSV_SCHEMA_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace tfq::csv {

// The tf.Example list a column becomes: Int64List, FloatList (float32) or BytesList.
enum class ColumnKind : uint8_t { kInt64, kFloat, kBytes };
std::string_view ColumnKindName(ColumnKind kind);  // "int64", "float", "bytes"
Result<ColumnKind> ParseColumnKind(std::string_view name);

struct ColumnSpec {
  ColumnSpec() = default;
  ColumnSpec(std::string name, ColumnKind kind, char list_separator = 0,
             std::optional<std::string> default_value = std::nullopt, bool required = false)
      : name(std::move(name)), kind(kind), list_separator(list_separator),
        default_value(std::move(default_value)), required(required) {}

  std::string name;
  ColumnKind kind = ColumnKind::kBytes;
  // Non-zero: a list column; each field is split on this byte into values of `kind`.
  char list_separator = 0;
  // Used for an empty or NA field, written as the field would be (list elements joined by the
  // separator). Without it, such a field becomes an empty list, unless `required`.
  std::optional<std::string> default_value;
  bool required = false;  // an empty or NA field is an error (a default takes precedence)

  bool operator==(const ColumnSpec&) const = default;
};

struct Schema {
  std::vector<ColumnSpec> columns;

  const ColumnSpec* Find(std::string_view name) const;
  bool operator==(const Schema&) const = default;
};

// Names unique and non-empty; separators not CR, LF or '"'; defaults valid for their kind.
// Errors (kInvalidArgument) are prefixed with `source`.
Status ValidateSchema(const Schema& schema, std::string_view source);

// Reads the JSON form: {"columns": [{"name": ..., "kind": ..., "list_separator": ...,
// "default": ..., "required": ...}, ...]}, or the shorthand {"columns": {"name": "kind" or
// {"kind": ..., ...}, ...}}. Unknown keys are errors (they are usually typos).
Result<Schema> SchemaFromJson(std::string_view json, std::string_view source);
// Writes the array form, one column per line, keys in the order above, optional keys only when
// set; SchemaFromJson reads it back equal.
std::string SchemaToJson(const Schema& schema);

// Keeps the columns named in `select` (all when empty) that are not in `exclude`, in schema
// order. A name in either list that is not in the schema is a kInvalidArgument error.
Result<Schema> SelectColumns(const Schema& schema, std::span<const std::string> select,
                             std::span<const std::string> exclude);

// The name of column `index` (0-based) whose header field is `field`: the field, or "column_<N>"
// (N 1-based, as pandas writes an unnamed index column) when it is empty or there is no header.
std::string HeaderColumnName(std::string_view field, size_t index);

// Column names from a header record, each HeaderColumnName; a duplicate name is a kInvalidData
// error (feature keys must be unique).
Result<std::vector<std::string>> ColumnNamesFromHeader(std::span<const std::string_view> header,
                                                       std::string_view source);

// Parses a command-line column flag: "name:kind" (list == false) or "name:kind:SEP" with a
// one-byte separator (list == true), e.g. "tags:bytes:;".
Result<ColumnSpec> ParseColumnFlag(std::string_view flag, bool list);

}  // namespace tfq::csv

#endif  // TFQ_CSV_SCHEMA_H_
