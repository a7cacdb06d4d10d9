// Internal to src/crc32c: the per-instruction-set entry points behind crc32c::Extend, and the
// polynomial arithmetic they share. Not for use outside this folder.
//
// Every variant follows crc32c::Extend's contract exactly (same results for every input), so the
// dispatcher in crc32c.cc may pick any of them.
#ifndef TFQ_CRC32C_CRC32C_INTERNAL_H_
#define TFQ_CRC32C_CRC32C_INTERNAL_H_

#include <cstddef>
#include <cstdint>

namespace tfq::crc32c::internal {

// The Castagnoli polynomial in reflected (LSB-first) bit order, as the SSE4.2 crc32 instruction
// and TFRecord use it.
inline constexpr uint32_t kReflectedPoly = 0x82f63b78u;

// Polynomials modulo P, in the reflected representation: bit 0 holds the coefficient of x^31 and
// bit 31 the coefficient of x^0. Evaluated at compile time to build tables and constants from the
// polynomial instead of pasting magic numbers, and at run time by Combine (crc32c_combine.cc).
constexpr uint32_t MultiplyByX(uint32_t a) {
  return (a >> 1) ^ ((a & 1u) ? kReflectedPoly : 0u);
}
constexpr uint32_t MultiplyMod(uint32_t a, uint32_t b) {
  uint32_t product = 0;
  for (int i = 0; i < 32; ++i) {  // Horner's rule over a, from its x^31 coefficient down to x^0
    product = MultiplyByX(product);
    if (a & (1u << i)) product ^= b;
  }
  return product;
}
// x^e mod P, by square-and-multiply.
constexpr uint32_t XPowMod(uint64_t e) {
  uint32_t result = 0x80000000u;  // x^0
  uint32_t square = 0x40000000u;  // x^1
  for (; e != 0; e >>= 1) {
    if (e & 1) result = MultiplyMod(result, square);
    square = MultiplyMod(square, square);
  }
  return result;
}

// Same contract as crc32c::Extend.
uint32_t ExtendPortable(uint32_t crc, const void* data, size_t n);

#if defined(__x86_64__)
// Requires SSE4.2 and PCLMULQDQ: call only after checking CPUID (see crc32c.cc).
uint32_t ExtendSse42(uint32_t crc, const void* data, size_t n);
#endif

}  // namespace tfq::crc32c::internal

#endif  // TFQ_CRC32C_CRC32C_INTERNAL_H_
