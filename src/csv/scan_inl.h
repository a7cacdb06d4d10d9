// Internal to src/csv: classification of 64 input bytes at a time into bit masks (bit i is byte i)
// with baseline instructions: the block_scan.h variant for CPUs without AVX2.
//
// Why bit masks: a CSV field is usually a few bytes long, so a byte-at-a-time state machine pays a
// hard-to-predict branch per byte. Comparing 64 bytes against the four special bytes with SIMD and
// then walking only the set bits (delimiters and record ends outside quotes) costs a few
// instructions per 64 bytes plus a few per field. Whether a byte is inside quotes is the parity of
// the quotes before it (a doubled quote toggles twice), computed for 64 bytes at once with a prefix
// XOR (simdjson's idea). SSE2 is part of x86-64; other machines use the portable loop.
#ifndef TFQ_CSV_SCAN_INL_H_
#define TFQ_CSV_SCAN_INL_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "csv/block_scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tfq::csv::internal {

struct ByteClasses {
  uint64_t quote = 0;
  uint64_t delim = 0;
  uint64_t lf = 0;
  uint64_t cr = 0;
};

inline ByteClasses ClassifyBlockPortable(const char* p, char delim, char quote) {
  ByteClasses m;
  for (size_t i = 0; i < kBlockBytes; ++i) {
    const uint64_t bit = uint64_t{1} << i;
    if (p[i] == quote) m.quote |= bit;
    if (p[i] == delim) m.delim |= bit;
    if (p[i] == '\n') m.lf |= bit;
    if (p[i] == '\r') m.cr |= bit;
  }
  return m;
}

#if defined(__SSE2__)
inline uint64_t MatchMask16(__m128i bytes, __m128i needle, int shift) {
  const auto bits = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, needle)));
  return uint64_t{bits} << shift;
}

inline ByteClasses ClassifyBlockSse2(const char* p, char delim, char quote) {
  const __m128i vq = _mm_set1_epi8(quote);
  const __m128i vd = _mm_set1_epi8(delim);
  const __m128i vlf = _mm_set1_epi8('\n');
  const __m128i vcr = _mm_set1_epi8('\r');
  ByteClasses m;
  for (int i = 0; i < 4; ++i) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    m.quote |= MatchMask16(x, vq, 16 * i);
    m.delim |= MatchMask16(x, vd, 16 * i);
    m.lf |= MatchMask16(x, vlf, 16 * i);
    m.cr |= MatchMask16(x, vcr, 16 * i);
  }
  return m;
}
#endif

// Classifies the 64 bytes at p. Callers reading without quoting clear the quote mask.
inline ByteClasses ClassifyBlock(const char* p, char delim, char quote) {
#if defined(__SSE2__)
  return ClassifyBlockSse2(p, delim, quote);
#else
  return ClassifyBlockPortable(p, delim, quote);
#endif
}

// Classifies the `len` bytes at p (len <= 64); bits at and above `len` are zero, whatever the
// delimiter, so the tail of a buffer needs no padding bytes that could be mistaken for data.
inline ByteClasses ClassifyTail(const char* p, size_t len, char delim, char quote) {
  if (len == kBlockBytes) return ClassifyBlock(p, delim, quote);
  char buf[kBlockBytes] = {};
  std::memcpy(buf, p, len);
  ByteClasses m = ClassifyBlock(buf, delim, quote);
  const uint64_t valid = (uint64_t{1} << len) - 1;
  m.quote &= valid;
  m.delim &= valid;
  m.lf &= valid;
  m.cr &= valid;
  return m;
}

// Bit i of the result is the XOR of bits 0..i of x: 1 where an odd number of quotes has been
// seen, i.e. inside a quoted field (the opening quote included, the closing quote excluded).
inline uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// All ones if the top bit of x is set, else zero: carries "still inside quotes" into the next
// block.
inline uint64_t TopBitToMask(uint64_t x) { return uint64_t{0} - (x >> 63); }

}  // namespace tfq::csv::internal

#endif  // TFQ_CSV_SCAN_INL_H_
