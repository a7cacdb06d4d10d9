// Combine: appending |B| bytes to A multiplies crc(A)'s polynomial by x^(8|B|) mod P, and the CRC
// is affine in its input, so crc(A followed by B) = crc(A) * x^(8|B|) + crc(B) (mod P).
#include <array>

#include "crc32c/crc32c.h"
#include "crc32c/crc32c_internal.h"

namespace tfq::crc32c {
namespace {

using internal::MultiplyMod;

// x^(8 * 2^k) mod P: a length's bits pick which to multiply.
constexpr std::array<uint32_t, 64> kXPowEightTimesTwoPow = [] {
  std::array<uint32_t, 64> table{};
  table[0] = internal::XPowMod(8);
  for (size_t k = 1; k < table.size(); ++k) table[k] = MultiplyMod(table[k - 1], table[k - 1]);
  return table;
}();

}  // namespace

uint32_t Combine(uint32_t crc_a, uint32_t crc_b, uint64_t length_b) {
  uint32_t shifted = crc_a;
  for (size_t k = 0; length_b != 0; ++k, length_b >>= 1) {
    if (length_b & 1) shifted = MultiplyMod(kXPowEightTimesTwoPow[k], shifted);
  }
  return shifted ^ crc_b;
}

}  // namespace tfq::crc32c
