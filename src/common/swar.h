// SWAR (SIMD within a register): a 64-bit word loaded from text as eight byte lanes, for the
// scanners that look for the first of a few bytes (a quote, a backslash, a control character).
//
// Each test sets the high bit of every lane that matches. Borrows run only upward, from a lane
// that matches, so the lowest flag is always exact (a lane above a match may be flagged falsely):
// FirstFlagged of an OR of several tests is the first byte that matches any of them, on a
// little-endian load (the only kind tfq is built for).
#ifndef TFQ_COMMON_SWAR_H_
#define TFQ_COMMON_SWAR_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tfq::swar {

static_assert(std::endian::native == std::endian::little, "the lowest lane is the first byte");

inline constexpr uint64_t kOnes = 0x0101010101010101u;
inline constexpr uint64_t kHighs = 0x8080808080808080u;

inline uint64_t Load(const char* p) {
  uint64_t word;
  std::memcpy(&word, p, 8);
  return word;
}

// Lanes equal to `c`.
constexpr uint64_t Equal(uint64_t word, char c) {
  const uint64_t x = word ^ (kOnes * static_cast<uint8_t>(c));
  return (x - kOnes) & ~x & kHighs;
}

// Lanes below `n` (n <= 128).
constexpr uint64_t Below(uint64_t word, uint8_t n) { return (word - kOnes * n) & ~word & kHighs; }

// The index of the first flagged lane; `flags` must not be 0.
inline size_t FirstFlagged(uint64_t flags) { return static_cast<size_t>(std::countr_zero(flags)) / 8; }

// The lanes before lane `i` (i < 8), as a mask.
constexpr uint64_t LanesBefore(size_t i) { return (uint64_t{1} << (8 * i)) - 1; }

}  // namespace tfq::swar

#endif  // TFQ_COMMON_SWAR_H_
