// A cheap pre-scan of a JSON line for what the parser would accept but tfq must refuse.
//
// Depth: nlohmann::json recurses when it copies, compares or prints a value, and a line of a
// million '[' builds a million nested arrays; tf.Example JSON never nests deeper than 8 levels
// (a proto-json SequenceExample: featureLists.featureList.k.feature[].int64List.value[]).
// Big integers: an integer literal beyond 64 bits reaches the parse tree as a double, and would
// silently become a float feature; only the text still tells that it was written as an integer.
// One linear pass over the bytes, no allocation, before nlohmann's parser sees the line (the
// direct parser of json_tape.h checks both in its own pass: kJsonLineGuard).
#ifndef TFQ_CONVERT_JSON_PRESCAN_H_
#define TFQ_CONVERT_JSON_PRESCAN_H_

#include <cstddef>
#include <string_view>

#include "common/status.h"
#include "example/json_tape.h"

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

// The pre-scan as a parse guard's check: kInvalidData for nesting past kMaxJsonDepth ("JSON nested
// deeper than 64 levels ...") or a big integer ("the integer N at byte B does not fit in 64 bits
// ..."), else OK.
Status CheckJsonLine(std::string_view line);

// The guard of every JSON line tfq reads: the direct parser takes lines within kMaxJsonDepth,
// which have no big integers (it leaves those too), so the pre-scan runs only on the lines it
// leaves, before nlohmann's parser sees them.
inline constexpr JsonParseGuard kJsonLineGuard{static_cast<int>(kMaxJsonDepth), &CheckJsonLine};

}  // namespace tfq

#endif  // TFQ_CONVERT_JSON_PRESCAN_H_
