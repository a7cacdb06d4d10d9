// The shuffle buffer (tf.data's algorithm), its determinism per seed, and repeat with reshuffling.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "pipeline/random.h"
#include "pipeline/shuffle_buffer.h"
#include "pipeline_test_util.h"

namespace tfq::pipeline {
namespace {

using testing::DrainStream;
using testing::Id;
using testing::OpenStream;
using testing::WriteRawFiles;

// Runs the buffer over 0..n-1 the way RecordStream does: fill, then take-and-replace, then drain.
std::vector<int> ShuffleInts(int n, size_t capacity, uint64_t seed) {
  ShuffleBuffer<int> buffer(capacity);
  buffer.Reset(seed);
  std::vector<int> out;
  int next = 0;
  while (!buffer.full() && next < n) buffer.Add(next++);
  while (!buffer.empty()) {
    int value = 0;
    int replacement = next;
    const bool replaced = next < n;
    if (replaced) ++next;
    buffer.Take(&value, replaced ? &replacement : nullptr);
    out.push_back(value);
  }
  return out;
}

}  // namespace

TEST_CASE("the shuffle buffer emits a permutation, the same for the same seed") {
  for (size_t capacity : {1, 2, 10, 100, 1000}) {
    const std::vector<int> a = ShuffleInts(300, capacity, 42);
    std::vector<int> sorted = a;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 300; ++i) REQUIRE(sorted[i] == i);
    CHECK(a == ShuffleInts(300, capacity, 42));
    if (capacity > 1) CHECK(a != ShuffleInts(300, capacity, 43));
  }
  std::vector<int> identity(300);
  for (int i = 0; i < 300; ++i) identity[i] = i;
  CHECK(ShuffleInts(300, 1, 5) == identity);  // a buffer of one cannot reorder
}

TEST_CASE("an element leaves the buffer no earlier than buffer_size places before its input position") {
  const size_t capacity = 16;
  const std::vector<int> out = ShuffleInts(500, capacity, 9);
  for (size_t i = 0; i < out.size(); ++i) {
    CHECK(static_cast<size_t>(out[i]) <= i + capacity - 1);
  }
}

TEST_CASE("a buffer as large as the input gives uniformly distributed positions") {
  // Where element 0 lands over many seeds: chi-square with 7 degrees of freedom against 24.3, its
  // 0.999 quantile (the seeds are fixed, so the outcome is too).
  const int n = 8, trials = 8000;
  std::vector<int> counts(n, 0);
  for (int t = 0; t < trials; ++t) {
    const std::vector<int> out = ShuffleInts(n, n, 1000 + t);
    counts[std::find(out.begin(), out.end(), 0) - out.begin()]++;
  }
  double chi2 = 0;
  const double expected = static_cast<double>(trials) / n;
  for (int c : counts) chi2 += (c - expected) * (c - expected) / expected;
  CHECK(chi2 < 24.3);
}

TEST_CASE("Rng::Uniform stays in range and hits every value") {
  Rng rng(1);
  std::set<uint64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t v = rng.Uniform(7);
    REQUIRE(v < 7);
    seen.insert(v);
  }
  CHECK(seen.size() == 7);
  CHECK(rng.Uniform(1) == 0);
}

TEST_CASE("the record stream's shuffle is a permutation, deterministic per seed") {
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), {40, 25, 35});
  auto run = [&](uint64_t seed, size_t threads) {
    ReadOptions o;
    o.inputs = paths;
    o.cycle_length = 3;
    o.reader_threads = threads;
    o.shuffle_buffer_size = 20;
    o.seed = seed;
    auto stream = OpenStream(o);
    return DrainStream(stream.get());
  };
  const std::vector<Id> a = run(1, 1);
  CHECK(a.size() == 100);
  CHECK(std::set<Id>(a.begin(), a.end()).size() == 100);
  CHECK(a == run(1, 3));  // thread count does not matter
  CHECK(a != run(2, 1));
}

TEST_CASE("repeat: every epoch is a permutation of the input, reshuffled unless asked not to") {
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), {10, 10});
  auto run = [&](bool reshuffle) {
    ReadOptions o;
    o.inputs = paths;
    o.cycle_length = 2;
    o.shuffle_buffer_size = 64;
    o.seed = 3;
    o.epochs = 3;
    o.reshuffle_each_epoch = reshuffle;
    auto stream = OpenStream(o);
    std::vector<std::vector<Id>> epochs(3);
    Record record;
    while (stream->Next(&record)) {
      REQUIRE(record.source.epoch < 3);
      epochs[record.source.epoch].emplace_back(record.source.file, record.source.index);
    }
    CHECK(stream->status().ok());
    return epochs;
  };
  const auto reshuffled = run(true);
  for (const auto& epoch : reshuffled) {
    CHECK(epoch.size() == 20);
    CHECK(std::set<Id>(epoch.begin(), epoch.end()).size() == 20);
  }
  CHECK(reshuffled[0] != reshuffled[1]);
  CHECK(reshuffled[1] != reshuffled[2]);
  const auto fixed = run(false);
  CHECK(fixed[0] == fixed[1]);
  CHECK(fixed[1] == fixed[2]);
}

TEST_CASE("epochs: 0 yields nothing, an empty input with repeat forever ends") {
  const std::string dir = tfq::testing::MakeTempDir();
  const auto paths = WriteRawFiles(dir, {3});
  ReadOptions o;
  o.inputs = paths;
  o.epochs = 0;
  CHECK(DrainStream(OpenStream(o).get()).empty());
  const auto empty = WriteRawFiles(tfq::testing::MakeTempDir(), {0});
  o.inputs = empty;
  o.epochs = kRepeatForever;
  auto stream = OpenStream(o);
  CHECK(DrainStream(stream.get()).empty());
  CHECK(stream->status().ok());
}

TEST_CASE("repeat without shuffle replays the interleave order") {
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), {3, 2});
  ReadOptions o;
  o.inputs = paths;
  o.cycle_length = 2;
  o.epochs = 2;
  auto stream = OpenStream(o);
  const std::vector<Id> once = testing::ReferenceInterleave({3, 2}, 2, 1);
  std::vector<Id> twice = once;
  twice.insert(twice.end(), once.begin(), once.end());
  CHECK(DrainStream(stream.get()) == twice);
}

}  // namespace tfq::pipeline
