// What `tfq inspect` takes a record's payload to be, and parsing it as that.
//
// Without --sequence a file may still hold SequenceExamples: one parses as an Example (its
// context as the features) with an unknown field 2, its feature_lists, which an Example reader
// would silently drop. PayloadParser notices that field and from then on reads every record as
// a SequenceExample (an Example reads the same way: its features become the context, and it has
// no feature lists), telling the caller once so that it can say so. A non-empty record with
// neither `features`/`context` (field 1) nor `feature_lists` (field 2) is not an Example at all,
// even when its bytes happen to parse as unknown fields: kInvalidData.
//
// Views from example() and sequence_example() live until the next Parse, as the views' own.
// Thread safety: none.
#ifndef TFQ_INSPECT_PAYLOAD_H_
#define TFQ_INSPECT_PAYLOAD_H_

#include <string_view>

#include "common/status.h"
#include "example/example_view.h"

namespace tfq::inspect {

class PayloadParser {
 public:
  // `sequence`: every record is a tf.train.SequenceExample (--sequence).
  explicit PayloadParser(bool sequence) : sequence_(sequence) {}

  // Parses one record: kCorruption where its bytes are malformed, kInvalidData where they are
  // not an Example (see above); messages give the byte offset within the record.
  Status Parse(std::string_view record);

  // Records are being read as SequenceExamples: the last Parse filled sequence_example(), and
  // summaries should be of SequenceExamples.
  bool sequence() const { return sequence_; }
  // The last Parse found the first SequenceExample of a run begun as Examples.
  bool found_sequence() const { return found_sequence_; }

  const ExampleView& example() const { return example_; }
  const SequenceExampleView& sequence_example() const { return sequence_example_; }

 private:
  bool sequence_;
  bool found_sequence_ = false;
  ExampleView example_;
  SequenceExampleView sequence_example_;
};

}  // namespace tfq::inspect

#endif  // TFQ_INSPECT_PAYLOAD_H_
