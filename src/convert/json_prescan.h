// A cheap pre-scan of a JSON line for what the parser would accept but tfq must refuse.
//
// Depth: nlohmann::json recurses when it copies, compares or prints a value, and a line of a
// million '[' builds a million nested arrays; tf.Example JSON never nests deeper than 8 levels
// (a proto-json SequenceExample: featureLists.featureList.k.feature[].int64List.value[]).
// Big integers: an integer literal beyond 64 bits reaches the parse tree as a double, and would
// silently become a float feature; only the text still tells that it was written as an integer.
// One linear pass over the bytes, no allocation, before the parser sees the line.
#ifndef TFQ_CONVERT_JSON_PRESCAN_H_
#define TFQ_CONVERT_JSON_PRESCAN_H_

#include <cstddef>
#include <string_view>

namespace tfq {

// Deeper than any tf.Example/SequenceExample JSON, in either form; far from stack trouble.
constexpr size_t kMaxJsonDepth = 64;

struct JsonPrescan {
  size_t depth = 0;  // deepest nesting of '[' and '{' seen (the scan stops once past the limit)
  // The first integer literal (no '.', no exponent) outside int64/uint64, as text; empty if none.
  std::string_view big_integer;
  size_t big_integer_offset = 0;
};

// Brackets and digits inside strings are ignored. Does not validate: the parser does that next.
JsonPrescan PrescanJson(std::string_view text, size_t stop_above_depth = kMaxJsonDepth);

}  // namespace tfq

#endif  // TFQ_CONVERT_JSON_PRESCAN_H_
