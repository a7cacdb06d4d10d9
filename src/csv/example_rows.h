// Rows -> tf.Example: the one file of src/csv that needs the Example encoder (library
// tfq_csv_example), so that the rest of the CSV core builds and is tested without it.
//
// Each output column becomes one feature keyed by the column name, in schema order: an Int64List,
// a FloatList or a BytesList of the converted values. A missing value without default becomes an
// empty list of the column's kind (what tf.io.decode_csv's record_defaults cannot express, and
// what tf.io.parse_example reads as a missing feature only for VarLen features; see docs/csv.md).
#ifndef TFQ_CSV_EXAMPLE_ROWS_H_
#define TFQ_CSV_EXAMPLE_ROWS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/byte_buffer.h"
#include "common/status.h"
#include "csv/converter.h"
#include "csv/row_batch.h"
#include "example/example.h"
#include "example/keyed_encoder.h"

namespace tfq::csv {

// Converts and encodes in one pass: each field of a parsed row is parsed straight into the
// Example's bytes (KeyedExampleEncoder), with no typed values in between. The bytes and the
// errors are exactly those of RowConverter::Convert followed by encoding its typed values with
// ExampleEncoder (tests/csv/row_example_encoder.h, the oracle the tests compare against; an
// error re-runs the converter on the row for its message). The hot path of `tfq convert`.
//
// Thread safety: none; one writer per thread (copies are independent).
class RowExampleWriter {
 public:
  // Converts as `converter` does (its schema, source fields, NA strings, defaults).
  explicit RowExampleWriter(const RowConverter& converter);

  // Appends the tf.Example of row `row` of `batch` to *out. On error *out is unchanged.
  Status Append(const RowBatch& batch, size_t row, ByteBuffer* out);

 private:
  enum class Mode : uint8_t { kInt64, kFloat, kBytes, kInt64List, kFloatList, kBytesList };
  struct Column {
    uint32_t field = 0;  // source field in a row
    Mode mode = Mode::kBytes;
    char separator = 0;
    bool missing_is_error = false;  // required, without a default
    uint32_t missing = 0;  // the whole entry for a missing value, in missing_
    uint32_t missing_size = 0;
  };
  Status Error(const RowBatch& batch, size_t row);

  RowConverter converter_;  // the error path
  KeyedExampleEncoder encoder_;
  NaMatcher na_;
  bool has_na_ = false;  // NA strings besides the empty field
  std::vector<Column> columns_;
  size_t fields_needed_ = 0;  // 1 + the largest source field; a row has that many (else padded)
  std::vector<std::string_view> short_row_;
  // Room for a row: row_room_ (every column's framing and slack) + room_per_byte_ (the largest
  // per-byte bound of a column's values) * RowBatch::RowBytes (the row's fields lie within it).
  size_t row_room_ = 0;
  size_t room_per_byte_ = 0;
  std::string missing_;  // precomputed entries, padded for KeyedExampleEncoder's copies
  std::vector<int64_t> int64s_;  // list elements of the current field
  std::vector<float> floats_;
  std::vector<std::string_view> bytes_;
};

}  // namespace tfq::csv

#endif  // TFQ_CSV_EXAMPLE_ROWS_H_
