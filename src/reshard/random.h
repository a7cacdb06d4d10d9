// The shuffle keys of `tfq shuffle` (docs/shuffle.md), built on the generators of common/random.h.
#ifndef TFQ_RESHARD_RANDOM_H_
#define TFQ_RESHARD_RANDOM_H_

#include <cstdint>

#include "common/random.h"

namespace tfq::reshard {

using tfq::Mix64;
using tfq::SplitMix64;
using tfq::Xoshiro256;

// The shuffle key of every record: key(i) is the i-th output of a SplitMix64 stream whose
// starting point is derived from the seed. Keys behave as independent uniform 64-bit numbers,
// yet are a bijection of the record index, so no two records of one run ever share a key.
// Sorting records by key is the shuffle (docs/shuffle.md); any record's key is computed in O(1),
// which is what makes the result independent of memory limits and bucket counts.
class ShuffleKeys {
 public:
  explicit ShuffleKeys(uint64_t seed) : start_(Mix64(seed ^ 0x6A09E667F3BCC909)) {}
  uint64_t operator()(uint64_t index) const {
    return Mix64(start_ + (index + 1) * SplitMix64::kGamma);
  }

 private:
  uint64_t start_;
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_RANDOM_H_
