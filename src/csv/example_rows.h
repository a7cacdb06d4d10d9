// Rows -> tf.Example: the one file of src/csv that needs the Example encoder (library
// tfq_csv_example), so that the rest of the CSV core builds and is tested without it.
//
// Each output column becomes one feature keyed by the column name, in schema order: an Int64List,
// a FloatList or a BytesList of the converted values. A missing value without default becomes an
// empty list of the column's kind (what tf.io.decode_csv's record_defaults cannot express, and
// what tf.io.parse_example reads as a missing feature only for VarLen features; see docs/csv.md).
#ifndef TFQ_CSV_EXAMPLE_ROWS_H_
#define TFQ_CSV_EXAMPLE_ROWS_H_

#include <string>
#include <string_view>
#include <vector>

#include "csv/converter.h"
#include "example/example.h"

namespace tfq::csv {

// Reuse one per thread: nothing allocates once its buffers have grown.
class RowExampleEncoder {
 public:
  // Appends the serialized tf.Example of the row `converter` converted last to *out.
  void Encode(const RowConverter& converter, std::string* out);

 private:
  ExampleEncoder encoder_;
  std::vector<std::string_view> bytes_;
};

}  // namespace tfq::csv

#endif  // TFQ_CSV_EXAMPLE_ROWS_H_
