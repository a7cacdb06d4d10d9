// JSON lines <-> serialized records, in either of tfq's JSON forms (docs/json-forms.md).
#ifndef TFQ_CONVERT_JSONL_H_
#define TFQ_CONVERT_JSONL_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "example/json_forms.h"
#include "io/input_stream.h"

namespace tfq {

struct JsonLinesOptions {
  bool sequence = false;              // lines are SequenceExamples
  // Bounds memory per line (--max-row-size): parsing a line into a tree and then an Example
  // takes up to about 42 times its length (a line of "" strings; 21 times for small integers),
  // so the default keeps a line under about 700 MB (docs/limits.md).
  size_t max_line_bytes = size_t{16} << 20;
};

using RecordSink = std::function<Status(std::string_view record)>;

// Reads one JSON object per line (blank lines skipped), encodes each as a serialized Example
// (or SequenceExample) and passes it to `sink` in input order. A line that is not valid JSON or
// does not fit the message is a kInvalidData error naming the stream and line.
// *lines_read counts the records produced.
Status JsonLinesToRecords(InputStream* in, const JsonLinesOptions& options, const RecordSink& sink,
                          uint64_t* records);

}  // namespace tfq

#endif  // TFQ_CONVERT_JSONL_H_
