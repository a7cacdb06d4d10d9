// Whether an integer survives conversion to float32 unchanged: one rule for every reader that
// lets integers join a float list or column (CSV inference in csv/values.cc, the flat JSON form
// in example/json_read_flat.cc), so that no digit is ever lost silently.
#ifndef TFQ_COMMON_FLOAT32_EXACT_H_
#define TFQ_COMMON_FLOAT32_EXACT_H_

#include <cstdint>

namespace tfq {

inline bool Float32HoldsExactly(int64_t v) {
  const float f = static_cast<float>(v);
  constexpr float kTwo63 = 9223372036854775808.0f;
  return f < kTwo63 && f >= -kTwo63 && static_cast<int64_t>(f) == v;
}

}  // namespace tfq

#endif  // TFQ_COMMON_FLOAT32_EXACT_H_
