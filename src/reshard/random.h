// Seeded random numbers for shuffling, identical on every platform and standard library.
//
// std::mt19937 itself is portable but std::uniform_int_distribution is not (libstdc++ and libc++
// map the same bits to different numbers), and "same seed, same bytes out" is a promise of tfq.
// So the generators and the bounded draw are written here, from their published definitions:
// SplitMix64 (Steele, Lea and Flood, 2014) and xoshiro256** (Blackman and Vigna, 2018), with
// Lemire's multiply-and-reject method (2019) for unbiased numbers below a bound.
//
// Thread safety: generators are plain values; one thread uses each.
#ifndef TFQ_RESHARD_RANDOM_H_
#define TFQ_RESHARD_RANDOM_H_

#include <cstdint>

namespace tfq::reshard {

// SplitMix64's output function: a bijection of 64-bit values with full avalanche.
inline uint64_t Mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9;
  x ^= x >> 27;
  x *= 0x94D049BB133111EB;
  return x ^ (x >> 31);
}

// Adds the golden-ratio increment to its state and mixes it: a fast generator whose outputs over
// 2^64 calls are all distinct. Used to seed Xoshiro256 and to derive shuffle keys.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    state_ += kGamma;
    return Mix64(state_);
  }
  static constexpr uint64_t kGamma = 0x9E3779B97F4A7C15;

 private:
  uint64_t state_;
};

// xoshiro256**: 256 bits of state, period 2^256 - 1, passes BigCrush; seeded from SplitMix64 so
// that nearby seeds (1, 2, 3) start far apart.
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed);
  uint64_t Next();
  // Uniform in [0, bound) without modulo bias; bound must be > 0.
  uint64_t Below(uint64_t bound);

 private:
  uint64_t s_[4];
};

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
