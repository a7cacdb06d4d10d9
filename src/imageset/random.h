// The seeded file-order shuffle of `tfq convert` for images (--shuffle --seed).
//
// The order is part of tfq's output (which image lands in which shard), so it must never depend
// on the platform, the standard library or the thread count: tfq uses its own generator
// (xoshiro256**, seeded through SplitMix64) and its own unbiased bounded draw instead of
// std::shuffle and std::uniform_int_distribution, whose results differ between libraries.
#ifndef TFQ_IMAGESET_RANDOM_H_
#define TFQ_IMAGESET_RANDOM_H_

#include <cstdint>
#include <vector>

#include "common/random.h"

namespace tfq::imageset {

using Rng = Xoshiro256;  // common/random.h

// A permutation of 0..n-1: Fisher-Yates driven by Rng(seed), i from n-1 down to 1 swapping with
// Below(i + 1). Pinned by tests; changing it changes every dataset tfq writes.
std::vector<uint64_t> ShuffledOrder(uint64_t n, uint64_t seed);

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_RANDOM_H_
