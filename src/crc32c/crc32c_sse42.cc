// CRC32C with the SSE4.2 crc32 instruction, for x86-64 CPUs that have it (and PCLMULQDQ).
//
// One crc32 instruction folds 8 bytes but has a latency of ~3 cycles, and a CPU can issue one or
// more per cycle, so a single dependency chain leaves most of the hardware idle. For large inputs
// we therefore split a block into kStreams equal stripes, run one independent CRC per stripe,
// and combine them: CRC registers are linear, so the register after the whole block is each
// stripe's register multiplied by x^(8 * bytes that follow it), XORed together. That
// multiplication is one carry-less multiply (PCLMULQDQ) by a precomputed constant, reduced mod P
// by one more crc32 instruction. Loads are left unaligned: on the Zen 5 we measured, aligning the
// stripes made no difference.
//
// This file is compiled with -msse4.2 -mpclmul, so everything here except ExtendSse42 has internal
// linkage: no inline function compiled with those flags may be picked by the linker for callers
// in other files. Only crc32c.cc calls ExtendSse42, after checking CPUID.
#if defined(__x86_64__)

#include <nmmintrin.h>  // _mm_crc32_*
#include <wmmintrin.h>  // _mm_clmulepi64_si128

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "crc32c/crc32c_internal.h"

namespace tfq::crc32c::internal {
namespace {

// Six streams keep a CPU that issues two crc32 per cycle busy (AMD Zen 5 here: 3, 4, 6 and 8
// streams measured 31, 40, 57 and 57 GB/s); a CPU that issues one per cycle is saturated by three
// and loses nothing.
constexpr size_t kStreams = 6;
// Stripe length of a full block, in 8-byte words. Long enough that combining (a few
// multiplies, off the critical path anyway) is noise, short enough for a small constant table.
constexpr size_t kMaxWords = 256;
constexpr size_t kBlockBytes = kStreams * kMaxWords * 8;
// Below this many bytes one chain beats paying for the combine (measured: at 96 bytes the
// striped path already takes ~7 ns against ~10 ns for one chain).
constexpr size_t kMinMultiStreamBytes = 96;

// kShift.k[w - 1][j - 1] carries a register over j stripes of w words, i.e. multiplies it by
// x^(64wj) mod P. It is stored as x^(64wj - 33) because Reduce(Multiply(a, x^(m - 33))) is
// a * x^m: in reflected bit order a carry-less product comes out multiplied by x, and the crc32
// instruction multiplies what it reduces by x^32.
struct ShiftTable {
  uint32_t k[kMaxWords][kStreams];
};
consteval ShiftTable MakeShiftTable() {
  ShiftTable t{};
  for (size_t j = 1; j <= kStreams; ++j) {
    uint32_t k = XPowMod(64 * j - 33);      // w = 1
    const uint32_t step = XPowMod(64 * j);  // one more word in each of j stripes
    for (size_t w = 1; w <= kMaxWords; ++w) {
      t.k[w - 1][j - 1] = k;
      k = MultiplyMod(k, step);
    }
  }
  return t;
}
constexpr ShiftTable kShift = MakeShiftTable();

inline uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);  // x86 is little-endian and allows unaligned loads
  return v;
}

// The 64-bit carry-less product of a register and a shift constant. Products for different
// stripes are XORed before reduction: reduction mod P is linear, so one crc32 reduces them all.
inline uint64_t Multiply(uint32_t reg, uint32_t k) {
  __m128i product = _mm_clmulepi64_si128(_mm_cvtsi32_si128(static_cast<int>(reg)),
                                         _mm_cvtsi32_si128(static_cast<int>(k)), 0x00);
  return static_cast<uint64_t>(_mm_cvtsi128_si64(product));
}
inline uint32_t Reduce(uint64_t product) {
  return static_cast<uint32_t>(_mm_crc32_u64(0, product));
}

// Advances register `acc` over kStreams stripes of `words` 8-byte words at p. Each stripe gets its
// own zero-started register; `acc` is carried over the block with the stripes rather than fed
// into the first one, so the previous block's combine never delays this block's crc32 chains.
[[gnu::always_inline]] inline uint32_t Block(uint32_t acc, const uint8_t* p, size_t words) {
  const size_t stride = words * 8;
  uint64_t c[kStreams] = {};
  for (size_t i = 0; i < stride; i += 8) {
    // Unrolled even at -O2 so that c[] lives in registers, not memory.
#pragma GCC unroll 16
    for (size_t s = 0; s < kStreams; ++s) c[s] = _mm_crc32_u64(c[s], Load64(p + s * stride + i));
  }
  const uint32_t* k = kShift.k[words - 1];
  uint64_t folded = Multiply(acc, k[kStreams - 1]);
#pragma GCC unroll 16
  for (size_t s = 0; s + 1 < kStreams; ++s) {
    folded ^= Multiply(static_cast<uint32_t>(c[s]), k[kStreams - 2 - s]);
  }
  return Reduce(folded) ^ static_cast<uint32_t>(c[kStreams - 1]);
}

// One crc32 chain over n bytes: the whole job for short inputs.
inline uint32_t Serial(uint32_t c, const uint8_t* p, size_t n) {
  uint64_t c64 = c;
  for (; n >= 8; p += 8, n -= 8) c64 = _mm_crc32_u64(c64, Load64(p));
  c = static_cast<uint32_t>(c64);
  if (n & 4) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    c = _mm_crc32_u32(c, v);
    p += 4;
  }
  if (n & 2) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    c = _mm_crc32_u16(c, v);
    p += 2;
  }
  if (n & 1) c = _mm_crc32_u8(c, *p);
  return c;
}

}  // namespace

uint32_t ExtendSse42(uint32_t crc, const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  uint32_t c = ~crc;
  if (n < kMinMultiStreamBytes) return ~Serial(c, p, n);
  // The bytes that do not fill whole stripes go first, into c: Block carries c alongside its
  // stripes, so this short chain overlaps them instead of trailing after the last combine.
  const size_t head = n % (8 * kStreams);
  c = Serial(c, p, head);
  p += head;
  n -= head;
  for (; n >= kBlockBytes; p += kBlockBytes, n -= kBlockBytes) c = Block(c, p, kMaxWords);
  if (n > 0) c = Block(c, p, n / (8 * kStreams));
  return ~c;
}

}  // namespace tfq::crc32c::internal

#endif  // defined(__x86_64__)
