// Seeded random numbers for shuffling, identical on every platform and standard library.
//
// std::mt19937 itself is portable but std::uniform_int_distribution is not (libstdc++ and libc++
// map the same bits to different numbers), and "same seed, same bytes out" is a promise of tfq.
// So the generators and the bounded draw are written here, from their published definitions:
// SplitMix64 (Steele, Lea and Flood, 2014) and xoshiro256** (Blackman and Vigna, 2018), with
// Lemire's multiply-and-reject method (2019) for unbiased numbers below a bound.
//
// Every seeded choice in tfq (shuffles, file orders, generated benchmark data) draws from here,
// so outputs are pinned by these definitions alone.
//
// Thread safety: generators are plain values; one thread uses each.
#ifndef TFQ_COMMON_RANDOM_H_
#define TFQ_COMMON_RANDOM_H_

#include <cstdint>

namespace tfq {

// Uniform in [0, bound) from any generator with Next() -> uint64_t, bound > 0: Lemire's method.
// The high word of x * bound is uniform except that some values get one extra x among 2^64;
// rejecting the low words below 2^64 mod bound removes exactly those. The division runs only
// when the low word is small, i.e. rarely.
template <typename Generator>
uint64_t UniformBelow(Generator& gen, uint64_t bound) {
  unsigned __int128 m = static_cast<unsigned __int128>(gen.Next()) * bound;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < bound) {
    const uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
    while (low < threshold) {
      m = static_cast<unsigned __int128>(gen.Next()) * bound;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

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
  // Uniform in [0, bound) without modulo bias; bound must be > 0.
  uint64_t Below(uint64_t bound) { return UniformBelow(*this, bound); }
  static constexpr uint64_t kGamma = 0x9E3779B97F4A7C15;
  // The whole state: SplitMix64(state()) continues with the same numbers.
  uint64_t state() const { return state_; }

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
  uint64_t Below(uint64_t bound) { return UniformBelow(*this, bound); }

 private:
  uint64_t s_[4];
};

}  // namespace tfq

#endif  // TFQ_COMMON_RANDOM_H_
