// LineChunker: cuts an InputStream into chunks of whole lines (JSON lines), for the ordered map
// (convert/ordered_map.h): workers split a chunk into lines, the reader only finds its last
// newline and counts the lines, so that line numbers in errors stay exact.
#ifndef TFQ_CONVERT_LINE_CHUNKER_H_
#define TFQ_CONVERT_LINE_CHUNKER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/input_stream.h"

namespace tfq {

// Lines made only of these bytes are blank; readers skip them.
bool IsBlankLine(std::string_view line);

// A line that is too long: `len` bytes (without its "\n") over `max_line_bytes`. Blank lines
// under 64 KiB are skipped unread, whatever the limit, as LineReader::SkipBlankLines does.
bool LineTooLong(std::string_view line, size_t max_line_bytes);

// The kResourceExhausted error for line `line_number` of `name` longer than `max_line_bytes`.
Status LineTooLongError(const std::string& name, uint64_t line_number, size_t max_line_bytes);

class LineChunker {
 public:
  // Chunks of about `chunk_bytes` (more when one line is longer); a line longer than
  // `max_line_bytes` that does not fit a chunk is an error here, one that does is the worker's
  // to report (LineTooLong), in line order either way.
  LineChunker(InputStream* in, size_t chunk_bytes, size_t max_line_bytes)
      : in_(in), chunk_(chunk_bytes), max_line_(max_line_bytes) {}

  // Fills *bytes with whole lines, newlines included (the input's final line may lack one), and
  // *first_line with the 1-based number of its first line. Sets *done at the end of the input.
  Status Next(std::string* bytes, uint64_t* first_line, bool* done);

 private:
  InputStream* in_;
  const size_t chunk_;
  const size_t max_line_;
  uint64_t next_line_ = 1;
};

}  // namespace tfq

#endif  // TFQ_CONVERT_LINE_CHUNKER_H_
