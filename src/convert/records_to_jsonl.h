// TFRecord files of Example (or SequenceExample) -> JSON lines in one of tfq's JSON forms
// (docs/json-forms.md), a line per record, formatted on `threads` threads in input order
// (convert/records_to_text.h). A record that does not parse, or whose keys would collide in JSON,
// is a kInvalidData error naming the input and the record.
#ifndef TFQ_CONVERT_RECORDS_TO_JSONL_H_
#define TFQ_CONVERT_RECORDS_TO_JSONL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "convert/records_to_text.h"
#include "example/json_forms.h"

namespace tfq {

struct RecordsToJsonLinesOptions {
  JsonForm form = JsonForm::kProtoJson;
  bool sequence = false;  // records are SequenceExamples
  int threads = 1;
};

// *records counts the lines handed to `sink`.
Status RecordsToJsonLines(const std::vector<std::string>& inputs, const RecordOpener& open,
                          const RecordsToJsonLinesOptions& options, const TextSink& sink,
                          uint64_t* records);

}  // namespace tfq

#endif  // TFQ_CONVERT_RECORDS_TO_JSONL_H_
