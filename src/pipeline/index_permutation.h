// IndexPermutation: a seeded permutation of [0, n) that maps a position to its element in O(1)
// time and memory, for the pipeline's global shuffle (every epoch a uniform-looking order of all
// the records of all the files, whatever their number).
//
// A Fisher-Yates shuffle would be exactly uniform but needs 8 bytes per record (800 MB for 100
// million records) and a whole pass before the first record. Instead a balanced Feistel network
// over the smallest power of four >= n (each half a bit string, six rounds of a keyed 64-bit
// mix) is a bijection of that domain; positions mapping outside [0, n) are mapped again (cycle
// walking), which keeps it a bijection of [0, n) and costs fewer than four rounds on average.
// Six rounds of a good mix are far more than enough for mixing data order (the Luby-Rackoff
// bound for a pseudorandom permutation is four); it is not meant as cryptography.
//
// Thread safety: immutable after construction.
#ifndef TFQ_PIPELINE_INDEX_PERMUTATION_H_
#define TFQ_PIPELINE_INDEX_PERMUTATION_H_

#include <array>
#include <cstdint>

#include "common/random.h"

namespace tfq::pipeline {

class IndexPermutation {
 public:
  IndexPermutation(uint64_t n, uint64_t seed) : n_(n) {
    while (half_bits_ < 32 && (uint64_t{1} << (2 * half_bits_)) < n) ++half_bits_;
    mask_ = (uint64_t{1} << half_bits_) - 1;
    SplitMix64 keys(seed);
    for (uint64_t& key : keys_) key = keys.Next();
  }

  uint64_t size() const { return n_; }

  // The element at position i < size().
  uint64_t operator()(uint64_t i) const {
    if (n_ <= 1) return 0;
    uint64_t x = i;
    do {
      x = Encrypt(x);
    } while (x >= n_);
    return x;
  }

 private:
  static constexpr int kRounds = 6;

  uint64_t Encrypt(uint64_t x) const {
    uint64_t left = x >> half_bits_;
    uint64_t right = x & mask_;
    for (int round = 0; round < kRounds; ++round) {
      const uint64_t mixed = Mix64(right ^ keys_[round]) & mask_;
      const uint64_t next = left ^ mixed;
      left = right;
      right = next;
    }
    return (left << half_bits_) | right;
  }

  uint64_t n_;
  int half_bits_ = 0;
  uint64_t mask_ = 0;
  std::array<uint64_t, kRounds> keys_{};
};

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_INDEX_PERMUTATION_H_
