// RowConverter: one parsed CSV row -> typed values per schema column, applying the missing-value
// policy of tf.io.decode_csv's record_defaults: an empty or NA field takes the column's default
// where one is given, is an error where the column is required, and is otherwise an empty list of
// the column's kind. List columns are split on their separator; in a numeric list every element
// must parse (an empty element is an error), in a bytes list an empty element is an empty string.
//
// Lifetime: the values of the last converted row are valid until the next Convert, and bytes
// values are views into the RowBatch's fields (or the converter's parsed defaults), so the batch
// and its chunk must stay alive too. Thread safety: none; one converter per thread (Make one per
// thread from the same schema, or copy one).
#ifndef TFQ_CSV_CONVERTER_H_
#define TFQ_CSV_CONVERTER_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "csv/row_batch.h"
#include "csv/schema.h"
#include "csv/values.h"

namespace tfq::csv {

class RowConverter {
 public:
  // Converts the columns of `schema` (already selected), each of which must be one of
  // `file_columns` (the header's names, in file order). Defaults are parsed once here.
  static Result<RowConverter> Make(const Schema& schema, std::span<const std::string> file_columns,
                                   NaMatcher na);

  // Converts row `row` of `batch`. Errors (kInvalidData) name the place and the value:
  //   data.csv: line 9 (row 8), column 2 "zip": "1x" is not an int64
  Status Convert(const RowBatch& batch, size_t row);

  size_t num_columns() const { return columns_.size(); }
  const ColumnSpec& spec(size_t col) const { return columns_[col].spec; }
  // The values of output column `col` in the last converted row; only the span matching the
  // column's kind can be non-empty. Empty for a missing value without a default.
  std::span<const int64_t> int64s(size_t col) const { return Range(int64s_, col, ColumnKind::kInt64); }
  std::span<const float> floats(size_t col) const { return Range(floats_, col, ColumnKind::kFloat); }
  std::span<const std::string_view> bytes(size_t col) const {
    return Range(bytes_, col, ColumnKind::kBytes);
  }

  // What a fused writer (example_rows.h) needs to convert the same way: the source field of
  // output column `col`, the NA strings, and the column's default converted (empty spans and
  // has_default() false without one).
  size_t field(size_t col) const { return columns_[col].field; }
  const NaMatcher& na() const { return na_; }
  bool has_default(size_t col) const { return columns_[col].has_default; }
  std::span<const int64_t> default_int64s(size_t col) const { return columns_[col].default_int64s; }
  std::span<const float> default_floats(size_t col) const { return columns_[col].default_floats; }
  std::span<const std::string> default_bytes(size_t col) const { return columns_[col].default_bytes; }

 private:
  struct Column {
    ColumnSpec spec;
    size_t field = 0;  // index of the source field in a row
    bool has_default = false;
    std::vector<int64_t> default_int64s;
    std::vector<float> default_floats;
    std::vector<std::string> default_bytes;
    uint32_t begin = 0;  // this row's values: [begin, end) of the vector of the column's kind
    uint32_t end = 0;
  };

  template <typename T>
  std::span<const T> Range(const std::vector<T>& values, size_t col, ColumnKind kind) const {
    const Column& c = columns_[col];
    if (c.spec.kind != kind) return {};
    return {values.data() + c.begin, values.data() + c.end};
  }
  bool AppendValue(const Column& c, std::string_view text);
  Status ValueError(const RowBatch& batch, size_t row, const Column& c, std::string_view text,
                    bool list_element) const;

  std::vector<Column> columns_;
  NaMatcher na_;
  std::vector<int64_t> int64s_;
  std::vector<float> floats_;
  std::vector<std::string_view> bytes_;
};

}  // namespace tfq::csv

#endif  // TFQ_CSV_CONVERTER_H_
