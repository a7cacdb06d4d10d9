// The global shuffle: a permutation, deterministic, statistically uniform, the same through
// buckets as in memory, and within its memory bound. Broken variants are shown to fail the same
// statistics, so the thresholds have teeth.
#include "reshard/bucket_shuffle.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "common/test_env.h"
#include "reshard/random.h"
#include "reshard_test_util.h"
#include "shuffle_stats.h"

namespace tfq::reshard {
namespace {

using Order = std::vector<uint32_t>;
using testing::PeakGrowthInChild;
using testing::kSanitized;

std::string Payload(uint32_t i, size_t size) {
  std::string s(std::max<size_t>(size, 4), static_cast<char>('a' + i % 26));
  std::memcpy(s.data(), &i, 4);
  return s;
}

struct RunInfo {
  bool spilled = false;
  uint64_t splits = 0;
};

// Shuffles records 0..n-1 (payload: the index, padded to `size` bytes) with the real
// BucketShuffle and returns the order they come out in. `estimate` feeds the bucket count
// (0 = exact); a wrong one exercises the re-splitting of oversized buckets.
Order Shuffle(uint32_t n, uint64_t seed, uint64_t memory, size_t size = 4, RunInfo* info = nullptr,
              uint64_t estimate = 0) {
  static const std::string dir = tfq::testing::MakeTempDir();
  BucketShuffleOptions options;
  options.memory = memory;
  options.tmp_dir = dir;
  const uint64_t exact = uint64_t{n} * RecordArena::Cost(std::max<size_t>(size, 4));
  options.estimate_total_cost = [=] { return estimate ? estimate : exact; };
  auto shuffle = BucketShuffle::Create(options);
  REQUIRE(shuffle.ok());
  const ShuffleKeys keys(seed);
  for (uint32_t i = 0; i < n; ++i) REQUIRE((*shuffle)->Add(keys(i), Payload(i, size)).ok());
  Order order;
  REQUIRE((*shuffle)
              ->Drain([&](std::string_view p) {
                uint32_t i;
                std::memcpy(&i, p.data(), 4);
                if (p != Payload(i, size)) return Status::Internal("payload damaged");
                order.push_back(i);
                return Status::OK();
              })
              .ok());
  if (info) *info = {(*shuffle)->spilled(), (*shuffle)->splits()};
  return order;
}

bool IsPermutation(Order order) {
  std::sort(order.begin(), order.end());
  for (uint32_t i = 0; i < order.size(); ++i) {
    if (order[i] != i) return false;
  }
  return true;
}

// ---- Deliberately broken shuffles, for the statistics to catch ----

// The classic mistake: swap each position with any position (n^n paths onto n! outcomes).
Order NaiveSwapShuffle(uint32_t n, uint64_t seed) {
  Order a(n);
  std::iota(a.begin(), a.end(), 0);
  Xoshiro256 rng(seed);
  for (uint32_t i = 0; i < n; ++i) std::swap(a[i], a[rng.Below(n)]);
  return a;
}

// Random buckets concatenated, but each bucket left in input order.
Order UnshuffledBuckets(uint32_t n, uint64_t seed, uint32_t buckets) {
  std::vector<Order> b(buckets);
  Xoshiro256 rng(seed);
  for (uint32_t i = 0; i < n; ++i) b[rng.Below(buckets)].push_back(i);
  Order out;
  for (const auto& bucket : b) out.insert(out.end(), bucket.begin(), bucket.end());
  return out;
}

// Sorting by keys with too few bits: ties keep input order.
Order CoarseKeys(uint32_t n, uint64_t seed) {
  const ShuffleKeys keys(seed);
  Order a(n);
  std::iota(a.begin(), a.end(), 0);
  std::stable_sort(a.begin(), a.end(), [&](uint32_t x, uint32_t y) { return (keys(x) >> 61) < (keys(y) >> 61); });
  return a;
}

// Chi-square of where each item lands (n x n table) over `trials` seeds.
template <typename F>
double PositionStatistic(uint32_t n, int trials, F&& shuffle) {
  std::vector<double> counts(size_t{n} * n, 0);
  for (int t = 0; t < trials; ++t) {
    const Order order = shuffle(static_cast<uint64_t>(t));
    for (uint32_t p = 0; p < n; ++p) counts[size_t{order[p]} * n + p] += 1;
  }
  return testing::PositionChiSquare(counts);
}

// Chi-square over all n! permutations (n small) over `trials` seeds.
template <typename F>
double PermutationStatistic(uint32_t n, int trials, F&& shuffle) {
  Order id(n);
  std::iota(id.begin(), id.end(), 0);
  std::vector<Order> all;
  do all.push_back(id); while (std::next_permutation(id.begin(), id.end()));
  std::vector<double> counts(all.size(), 0);
  for (int t = 0; t < trials; ++t) {
    const Order order = shuffle(static_cast<uint64_t>(t));
    counts[std::lower_bound(all.begin(), all.end(), order) - all.begin()] += 1;
  }
  return testing::ChiSquareUniform(counts);
}

TEST_CASE("the output is a permutation, deterministic for a seed") {
  for (uint32_t n : {0u, 1u, 2u, 17u, 1000u}) {
    CAPTURE(n);
    const Order a = Shuffle(n, 42, 1 << 20);
    CHECK(a.size() == n);
    CHECK(IsPermutation(a));
    CHECK(Shuffle(n, 42, 1 << 20) == a);
    if (n >= 17) CHECK(Shuffle(n, 43, 1 << 20) != a);
  }
}

TEST_CASE("buckets give exactly the in-memory order, whatever the memory") {
  for (uint64_t seed : {1, 2, 3}) {
    const Order in_memory = Shuffle(5000, seed, 4 << 20, 40);
    for (uint64_t memory : {64u << 10, 16u << 10, 4u << 10}) {
      CAPTURE(memory);
      RunInfo info;
      CHECK(Shuffle(5000, seed, memory, 40, &info) == in_memory);
      CHECK(info.spilled);
    }
  }
}

TEST_CASE("an input several times the memory goes through buckets, re-split when too big") {
  // 20 000 records of 100 bytes cost ~2.6 MB against 256 KiB of memory.
  RunInfo info;
  const Order exact = Shuffle(20000, 9, 256 << 10, 100, &info);
  CHECK(info.spilled);
  CHECK(info.splits == 0);
  CHECK(IsPermutation(exact));
  // A hopeless size estimate (as for standard input) gives too few buckets; they are split
  // again and the result does not change.
  RunInfo resplit;
  CHECK(Shuffle(20000, 9, 256 << 10, 100, &resplit, /*estimate=*/1) == exact);
  CHECK(resplit.splits > 0);
  CHECK(Shuffle(20000, 9, 64 << 20, 100) == exact);
}

TEST_CASE("a record larger than the memory is refused") {
  BucketShuffleOptions options;
  options.memory = 4096;
  options.tmp_dir = tfq::testing::MakeTempDir();
  auto shuffle = BucketShuffle::Create(options);
  REQUIRE(shuffle.ok());
  Status s = (*shuffle)->Add(1, std::string(5000, 'x'));
  CHECK(s.code() == StatusCode::kResourceExhausted);
}

TEST_CASE("uniform: every permutation of 4 records equally likely, in memory and via buckets") {
  const double limit = testing::ChiSquareCritical(23);
  const int trials = 24000;  // 1000 expected per permutation
  const double in_memory = PermutationStatistic(4, trials, [](uint64_t s) { return Shuffle(4, s, 1 << 16); });
  // 80 bytes of memory hold two 4-byte records: four records always go through buckets, often
  // re-split. (Fewer trials: each one creates a temporary file.)
  const double buckets = PermutationStatistic(4, trials / 3, [](uint64_t s) { return Shuffle(4, s, 80); });
  // The same statistic catches broken shuffles.
  const double naive = PermutationStatistic(4, trials, [](uint64_t s) { return NaiveSwapShuffle(4, s); });
  const double unshuffled = PermutationStatistic(4, trials, [](uint64_t s) { return UnshuffledBuckets(4, s, 2); });
  const double coarse = PermutationStatistic(4, trials, [](uint64_t s) { return CoarseKeys(4, s); });
  MESSAGE("chi-square, df 23, limit " << limit << ": in memory " << in_memory << ", buckets " << buckets
          << "; broken: naive swap " << naive << ", unshuffled buckets " << unshuffled
          << ", 3-bit keys " << coarse);
  CHECK(in_memory < limit);
  CHECK(buckets < limit);
  CHECK(naive > limit);
  CHECK(unshuffled > limit);
  CHECK(coarse > limit);
}

TEST_CASE("uniform: each of 12 records lands in each position equally often") {
  const double limit = testing::ChiSquareCritical(11 * 11);
  const int trials = 12000;  // 1000 expected per cell
  const double in_memory = PositionStatistic(12, trials, [](uint64_t s) { return Shuffle(12, s, 1 << 16); });
  const double buckets = PositionStatistic(12, trials / 2, [](uint64_t s) { return Shuffle(12, s, 160); });
  const double naive = PositionStatistic(12, trials, [](uint64_t s) { return NaiveSwapShuffle(12, s); });
  const double unshuffled = PositionStatistic(12, trials, [](uint64_t s) { return UnshuffledBuckets(12, s, 3); });
  const double coarse = PositionStatistic(12, trials, [](uint64_t s) { return CoarseKeys(12, s); });
  MESSAGE("chi-square, df 121, limit " << limit << ": in memory " << in_memory << ", buckets " << buckets
          << "; broken: naive swap " << naive << ", unshuffled buckets " << unshuffled
          << ", 3-bit keys " << coarse);
  CHECK(in_memory < limit);
  CHECK(buckets < limit);
  CHECK(naive > limit);
  CHECK(unshuffled > limit);
  CHECK(coarse > limit);
}

TEST_CASE("nearby seeds give unrelated orders") {
  // Seeds 1, 2, 3... are what people use: no pair may share a long common run of positions.
  const Order a = Shuffle(1000, 1, 1 << 20), b = Shuffle(1000, 2, 1 << 20);
  int same = 0;
  for (size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
  CHECK(same < 10);
}

TEST_CASE("peak memory stays within the budget on an input 8 times larger" *
          doctest::skip(kSanitized)) {
  constexpr uint64_t kMemory = 8 << 20;
  const std::string dir = tfq::testing::MakeTempDir();
  const uint64_t growth = PeakGrowthInChild([&] {
    BucketShuffleOptions options;
    options.memory = kMemory;
    options.tmp_dir = dir;
    uint64_t emitted = 0;
    auto shuffle = BucketShuffle::Create(options);
    std::string record(4096, 'r');  // generated on the fly: 16384 x 4 KiB = 64 MiB
    bool ok = shuffle.ok();
    const ShuffleKeys keys(3);
    for (uint32_t i = 0; ok && i < 16384; ++i) {
      std::memcpy(record.data(), &i, 4);
      ok = (*shuffle)->Add(keys(i), record).ok();
    }
    ok = ok && (*shuffle)->spilled() &&
         (*shuffle)->Drain([&](std::string_view) { ++emitted; return Status::OK(); }).ok();
    return ok && emitted == 16384;
  });
  CAPTURE(growth);
  CHECK(growth != ~uint64_t{0});
  CHECK(growth <= kMemory + (1 << 20));  // the arena, plus chunk lists and stack
}

}  // namespace
}  // namespace tfq::reshard
