#include "inspect/payload.h"

namespace tfq::inspect {
namespace {

constexpr std::string_view kNotAnExample =
    "not a tf.train.Example or SequenceExample: the bytes hold neither field 1 (features, "
    "context) nor field 2 (feature_lists); --records --format raw prints payloads as base64, "
    "--raw checks the framing only";

}  // namespace

Status PayloadParser::Parse(std::string_view record) {
  found_sequence_ = false;
  if (!sequence_) {
    TFQ_RETURN_IF_ERROR(example_.Parse(record));
    if (!example_.has_sequence_feature_lists()) {
      if (!record.empty() && !example_.has_features()) return Status::InvalidData(std::string(kNotAnExample));
      return Status::OK();
    }
    sequence_ = found_sequence_ = true;
  }
  TFQ_RETURN_IF_ERROR(sequence_example_.Parse(record));
  if (!record.empty() && !sequence_example_.has_context() && !sequence_example_.has_feature_lists()) {
    return Status::InvalidData(std::string(kNotAnExample));
  }
  return Status::OK();
}

}  // namespace tfq::inspect
