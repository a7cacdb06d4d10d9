// LineReader: splits an InputStream into lines without copying (JSON lines, manifests).
#ifndef TFQ_CONVERT_LINE_READER_H_
#define TFQ_CONVERT_LINE_READER_H_

#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "io/input_stream.h"

namespace tfq {

class LineReader {
 public:
  // `max_line_bytes` bounds memory: a longer line is a kResourceExhausted error naming the line.
  LineReader(InputStream* in, size_t max_line_bytes) : in_(in), max_line_(max_line_bytes) {}

  // Sets *line to the next line without its "\n" or "\r\n", valid until the next call. A final
  // line without a newline counts. Returns false at the end of input or on error (see status()).
  bool Next(std::string_view* line);

  // Steps over lines holding only spaces, tabs and CRs, a buffer at a time rather than a line at
  // a time (a gzip bomb of newlines is a billion lines), keeping line_number() right. Returns
  // false on error (see status()); the next Next() reads the first other line.
  bool SkipBlankLines();

  const Status& status() const { return status_; }
  uint64_t line_number() const { return line_number_; }  // 1-based number of the line last read

 private:
  InputStream* in_;
  size_t max_line_;
  size_t pending_ = 0;
  uint64_t line_number_ = 0;
  Status status_;
};

}  // namespace tfq

#endif  // TFQ_CONVERT_LINE_READER_H_
