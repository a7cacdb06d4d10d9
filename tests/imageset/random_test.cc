#include "imageset/random.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace tfq::imageset {
namespace {

TEST_CASE("shuffle: a permutation, the same for the same seed, different for another") {
  const auto a = ShuffledOrder(1000, 12345), b = ShuffledOrder(1000, 12345), c = ShuffledOrder(1000, 1);
  CHECK(a == b);
  CHECK(a != c);
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (uint64_t i = 0; i < 1000; ++i) CHECK(sorted[i] == i);
  CHECK(ShuffledOrder(0, 5).empty());
  CHECK(ShuffledOrder(1, 5) == std::vector<uint64_t>{0});
}

// The order is part of tfq's output: which image lands in which shard. Pinned.
TEST_CASE("shuffle: pinned order for the default seed") {
  CHECK(ShuffledOrder(10, 12345) == std::vector<uint64_t>{8, 2, 5, 4, 6, 3, 0, 9, 1, 7});
}

TEST_CASE("rng: Below stays in range and covers it") {
  Rng rng(42);
  int seen[7] = {};
  for (int i = 0; i < 7000; ++i) {
    const uint64_t v = rng.Below(7);
    REQUIRE(v < 7);
    ++seen[v];
  }
  for (int s : seen) CHECK(s > 800);
  CHECK(rng.Below(1) == 0);
}

}  // namespace
}  // namespace tfq::imageset
