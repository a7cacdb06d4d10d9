// The generators: pinned streams (the shuffle's output depends on them), unbiased bounded draws,
// distinct shuffle keys.
#include "reshard/random.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "shuffle_stats.h"

namespace tfq::reshard {
namespace {

TEST_CASE("SplitMix64 matches its published definition") {
  // The reference sequence for seed 0 (as in the paper's reference code).
  SplitMix64 rng(0);
  CHECK(rng.Next() == 0xE220A8397B1DCDAFull);
  CHECK(rng.Next() == 0x6E789E6AA1B965F4ull);
  CHECK(rng.Next() == 0x06C45D188009454Full);
}

TEST_CASE("Xoshiro256 streams are pinned") {
  Xoshiro256 a(42), b(42), c(43);
  const uint64_t first = a.Next();
  CHECK(first == b.Next());
  CHECK(first != c.Next());
  Xoshiro256 pinned(1);
  CHECK(pinned.Next() == 0xB3F2AF6D0FC710C5ull);
  CHECK(pinned.Next() == 0x853B559647364CEAull);
}

TEST_CASE("Below stays in range, including bounds where rejection matters") {
  Xoshiro256 rng(7);
  for (uint64_t bound : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{1000},
                         (uint64_t{1} << 63) + 1, ~uint64_t{0}}) {
    int outside = 0;
    for (int i = 0; i < 10000; ++i) outside += rng.Below(bound) >= bound;
    CHECK(outside == 0);
  }
  // With bound 3 * 2^62, a multiply without rejection maps two 64-bit words to every third
  // value and one to the others: residues mod 3 would come out 1/2, 1/4, 1/4.
  Xoshiro256 r2(8);
  std::vector<double> residues(3, 0);
  for (int i = 0; i < 300000; ++i) residues[r2.Below(uint64_t{3} << 62) % 3] += 1;
  CHECK(testing::ChiSquareUniform(residues) < testing::ChiSquareCritical(2));
}

TEST_CASE("Below is uniform: chi-square over small bounds") {
  for (uint64_t bound : {uint64_t{2}, uint64_t{6}, uint64_t{7}, uint64_t{10}}) {
    CAPTURE(bound);
    Xoshiro256 rng(bound);
    std::vector<double> counts(bound, 0);
    const int draws = 200000;
    for (int i = 0; i < draws; ++i) counts[rng.Below(bound)] += 1;
    const double chi2 = testing::ChiSquareUniform(counts);
    CHECK(chi2 < testing::ChiSquareCritical(static_cast<double>(bound - 1)));
  }
}

TEST_CASE("shuffle keys are distinct, seed-dependent and O(1) per record") {
  ShuffleKeys keys(5), same(5), other(6);
  std::unordered_set<uint64_t> seen;
  size_t repeated = 0, differing = 0;
  for (uint64_t i = 0; i < 200000; ++i) {
    repeated += !seen.insert(keys(i)).second;
    differing += keys(i) != same(i);
  }
  CHECK(repeated == 0);
  CHECK(differing == 0);
  int equal = 0;
  for (uint64_t i = 0; i < 1000; ++i) equal += keys(i) == other(i);
  CHECK(equal == 0);
}

}  // namespace
}  // namespace tfq::reshard
