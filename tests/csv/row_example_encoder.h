// The straightforward way to turn a converted row into a tf.Example: RowConverter's typed values
// through ExampleEncoder. The tests compare RowExampleWriter's fused path against it, and the
// perftest measures what fusing saves; tfq itself only uses RowExampleWriter.
#ifndef TFQ_TESTS_CSV_ROW_EXAMPLE_ENCODER_H_
#define TFQ_TESTS_CSV_ROW_EXAMPLE_ENCODER_H_

#include <string>
#include <string_view>
#include <vector>

#include "csv/converter.h"
#include "example/example.h"

namespace tfq::csv {

// Encodes the typed values of a RowConverter. Reuse one per thread: nothing allocates once its
// buffers have grown.
class RowExampleEncoder {
 public:
  // Appends the serialized tf.Example of the row `converter` converted last to *out.
  void Encode(const RowConverter& converter, std::string* out);

 private:
  ExampleEncoder encoder_;
  std::vector<std::string_view> bytes_;
};

}  // namespace tfq::csv

#endif  // TFQ_TESTS_CSV_ROW_EXAMPLE_ENCODER_H_
