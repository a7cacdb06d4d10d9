// JSON lines -> TFRecord files of Example (or SequenceExample), in either of tfq's JSON forms
// (docs/json-forms.md), in parallel and in input order on the ordered map
// (convert/ordered_map.h): the calling thread cuts the inputs into chunks of whole lines
// (convert/line_chunker.h), `threads` workers parse, encode and frame each chunk's lines, and
// the calling thread hands the framed records to the sink in input order.
//
// Determinism: the bytes handed to the sink do not depend on `threads` or on timing, and the
// error reported is always the first in input order.
#ifndef TFQ_CONVERT_JSONL_H_
#define TFQ_CONVERT_JSONL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "convert/inputs_outputs.h"
#include "example/json_forms.h"
#include "io/input_stream.h"

namespace tfq {

struct JsonLinesOptions {
  bool sequence = false;              // lines are SequenceExamples
  // Bounds memory per line (--max-row-size): reading a line takes up to about 10 times its
  // length (docs/limits.md), so the default keeps a line under about 160 MB per thread.
  size_t max_line_bytes = size_t{16} << 20;
  int threads = 1;                         // >= 1
  size_t chunk_bytes = size_t{1} << 20;    // lines read per chunk
};

// Reads one JSON object per line (blank lines skipped) from each input in turn, encodes each as
// a serialized Example (or SequenceExample), frames it and passes it to `sink` in input order.
// A line that is not valid JSON or does not fit the message is a kInvalidData error naming the
// stream and line; a line over max_line_bytes is kResourceExhausted. *records counts the records
// handed to the sink, also after an error.
Status JsonLinesToRecords(const std::vector<std::string>& inputs, const StreamOpener& open,
                          const JsonLinesOptions& options, const FramedRecordSink& sink,
                          uint64_t* records);
// The same for one stream already open.
Status JsonLinesToRecords(InputStream* in, const JsonLinesOptions& options,
                          const FramedRecordSink& sink, uint64_t* records);

}  // namespace tfq

#endif  // TFQ_CONVERT_JSONL_H_
