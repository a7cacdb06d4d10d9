// Decoding of one Feature message and validation of its list: the part of the lazy decoder
// shared by FeaturesView (map values) and SequenceExampleView (FeatureList steps). Internal to
// src/example.
#ifndef TFQ_EXAMPLE_FEATURE_PARSE_H_
#define TFQ_EXAMPLE_FEATURE_PARSE_H_

#include <string_view>

#include "common/status.h"
#include "example/example_view.h"

namespace tfq::internal {

// Decodes a serialized Feature at offset `base` of the outer buffer. The kind is that of the
// last list field on the wire; consecutive occurrences of that same kind are merged (their
// list bytes concatenated into a buffer from *merged), as protobuf merges a oneof message field
// set twice. With ListValidation::kAll the list is validated so that ForEach* on the result
// cannot fail; with kOnUse only the Feature's own framing is checked.
Status ParseFeature(std::string_view feature, size_t base, MergeBuffers* merged, FeatureView* out,
                    ListValidation validation = ListValidation::kAll);

// Checks that `list` is a well-formed list message of `kind`: the detailed error for a list
// that a ForEach* loop found malformed (FeatureViews can be built by hand).
Status ValidateList(FeatureKind kind, std::string_view list, size_t base);

}  // namespace tfq::internal

#endif  // TFQ_EXAMPLE_FEATURE_PARSE_H_
