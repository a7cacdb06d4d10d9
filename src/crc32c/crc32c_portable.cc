// Portable CRC32C: slicing-by-8. Eight 256-entry tables let one step consume 8 bytes with eight
// independent lookups instead of a chain of eight byte-at-a-time steps. Used where the SSE4.2
// crc32 instruction is missing, and as the reference the other variants are tested against.
#include <array>
#include <cstdint>

#include "crc32c/crc32c_internal.h"

namespace tfq::crc32c::internal {
namespace {

using Table = std::array<std::array<uint32_t, 256>, 8>;

// kTable[0][b] is the CRC of byte b on a zero register; kTable[k][b] is the same byte followed by
// k zero bytes, which is what lets one step fold 8 bytes at once.
constexpr Table MakeTable() {
  Table t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t crc = b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1u) ? kReflectedPoly : 0u);
    t[0][b] = crc;
  }
  for (int k = 1; k < 8; ++k) {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t prev = t[k - 1][b];
      t[k][b] = (prev >> 8) ^ t[0][prev & 0xffu];
    }
  }
  return t;
}
constexpr Table kTable = MakeTable();

// Byte-wise so the result is the same on big-endian hosts; compilers turn it into one load.
inline uint32_t LoadLE32(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}

}  // namespace

uint32_t ExtendPortable(uint32_t crc, const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  uint32_t c = ~crc;
  for (; n >= 8; n -= 8, p += 8) {
    uint32_t lo = c ^ LoadLE32(p);
    uint32_t hi = LoadLE32(p + 4);
    c = kTable[7][lo & 0xff] ^ kTable[6][(lo >> 8) & 0xff] ^ kTable[5][(lo >> 16) & 0xff] ^
        kTable[4][lo >> 24] ^ kTable[3][hi & 0xff] ^ kTable[2][(hi >> 8) & 0xff] ^
        kTable[1][(hi >> 16) & 0xff] ^ kTable[0][hi >> 24];
  }
  for (; n > 0; --n, ++p) c = (c >> 8) ^ kTable[0][(c ^ *p) & 0xff];
  return ~c;
}

}  // namespace tfq::crc32c::internal
