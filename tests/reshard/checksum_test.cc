// RecordHash and RecordChecksum: pinned values (they appear in user-visible summaries), hash
// quality (avalanche, no collisions among near-identical records) and what the sum detects.
#include "reshard/checksum.h"

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "reshard/random.h"

namespace tfq::reshard {
namespace {

std::string Bytes(size_t n, uint64_t seed) {
  SplitMix64 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng.Next());
  return s;
}

TEST_CASE("RecordHash values are pinned") {
  // Printed by `tfq shard/shuffle`; changing them breaks users' logs and scripts.
  CHECK(RecordHash("") == 0xEEC5FF181D549457ull);
  CHECK(RecordHash("a") == 0xC99BD1E09047AE9Dull);
  CHECK(RecordHash(std::string(64, 'x')) == 0x0FD9B943AB665A53ull);
  CHECK(RecordHash(Bytes(1000, 1)) == 0xCFD800FD35CB01ADull);
}

TEST_CASE("every length and every byte position matters") {
  // Lengths 0..300 cover the 64-byte lanes, the 16-byte tail steps and the partial tail; zero
  // padding must not make "ab" and "ab\0" equal.
  std::unordered_set<uint64_t> seen;
  for (size_t n = 0; n <= 300; ++n) CHECK(seen.insert(RecordHash(std::string(n, '\0'))).second);
  const std::string base = Bytes(300, 7);
  for (size_t i = 0; i < base.size(); ++i) {
    std::string changed = base;
    changed[i] ^= 0x01;
    CHECK(seen.insert(RecordHash(changed)).second);
  }
  // Swapping two 64-byte blocks (possible to confuse in a lane design) changes the hash.
  std::string swapped = base.substr(64, 64) + base.substr(0, 64) + base.substr(128);
  CHECK(RecordHash(swapped) != RecordHash(base));
}

TEST_CASE("no collisions among a million small, similar records") {
  std::unordered_set<uint64_t> seen;
  seen.reserve(1 << 21);
  size_t collisions = 0;
  for (uint64_t i = 0; i < 1000000; ++i) {
    std::string s(reinterpret_cast<const char*>(&i), 8);
    collisions += !seen.insert(RecordHash(s)).second;
    collisions += !seen.insert(RecordHash("record-" + std::to_string(i))).second;
  }
  CHECK(collisions == 0);
}

TEST_CASE("avalanche: one flipped input bit flips about half the output bits") {
  // For each of several sizes, flip every input bit of a few random inputs; the mean number of
  // changed output bits must be near 32 and every output bit must change 35..65% of the time.
  for (size_t size : {8, 16, 40, 64, 100, 256}) {
    CAPTURE(size);
    std::vector<int> flips(64, 0);
    uint64_t trials = 0, total = 0;
    for (uint64_t sample = 0; sample < 8; ++sample) {
      std::string s = Bytes(size, 100 + sample);
      const uint64_t h = RecordHash(s);
      for (size_t bit = 0; bit < size * 8; ++bit) {
        s[bit / 8] ^= static_cast<char>(1 << (bit % 8));
        const uint64_t diff = h ^ RecordHash(s);
        s[bit / 8] ^= static_cast<char>(1 << (bit % 8));
        total += std::popcount(diff);
        for (int b = 0; b < 64; ++b) flips[b] += (diff >> b) & 1;
        ++trials;
      }
    }
    const double mean = static_cast<double>(total) / static_cast<double>(trials);
    CHECK(mean > 31.0);
    CHECK(mean < 33.0);
    for (int b = 0; b < 64; ++b) {
      const double p = static_cast<double>(flips[b]) / static_cast<double>(trials);
      CHECK(p > 0.35);
      CHECK(p < 0.65);
    }
  }
}

TEST_CASE("the checksum ignores order and catches loss, duplication and change") {
  std::vector<std::string> records;
  for (int i = 0; i < 100; ++i) records.push_back(Bytes(static_cast<size_t>(i * 7), i));
  RecordChecksum forward, backward;
  for (const auto& r : records) forward.Add(r);
  for (auto it = records.rbegin(); it != records.rend(); ++it) backward.Add(*it);
  CHECK(forward == backward);
  CHECK(forward.count() == 100);

  RecordChecksum lost, doubled, changed, swapped_for_duplicate;
  for (size_t i = 1; i < records.size(); ++i) lost.Add(records[i]);
  for (const auto& r : records) doubled.Add(r);
  doubled.Add(records[5]);
  for (const auto& r : records) changed.Add(r == records[9] ? r + "!" : r);
  // Same count, one record replaced by a copy of another: a sum catches what XOR would not.
  for (size_t i = 0; i < records.size(); ++i) swapped_for_duplicate.Add(records[i == 3 ? 4 : i]);
  CHECK(lost != forward);
  CHECK(doubled != forward);
  CHECK(changed != forward);
  CHECK(swapped_for_duplicate != forward);
  CHECK(swapped_for_duplicate.count() == forward.count());

  RecordChecksum half1, half2;
  for (size_t i = 0; i < records.size(); ++i) (i % 2 ? half1 : half2).Add(records[i]);
  half1.Merge(half2);
  CHECK(half1 == forward);
  CHECK(RecordChecksum().Hex() == "0x0000000000000000");
}

}  // namespace
}  // namespace tfq::reshard
