#include "imageset/random.h"

#include <utility>

namespace tfq::imageset {

std::vector<uint64_t> ShuffledOrder(uint64_t n, uint64_t seed) {
  std::vector<uint64_t> order(n);
  for (uint64_t i = 0; i < n; ++i) order[i] = i;
  Rng rng(seed);
  for (uint64_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.Below(i)]);
  return order;
}

}  // namespace tfq::imageset
