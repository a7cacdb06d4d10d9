// CRC32C (Castagnoli polynomial 0x1EDC6F41, reflected 0x82F63B78), as TFRecord framing uses it.
//
// The implementation is chosen once, at first use, from what the CPU offers: the SSE4.2 crc32
// instruction (crc32c_sse42.cc) or a portable slicing-by-8 table (crc32c_portable.cc). Each
// variant lives in its own file with its own compile flags (google/crc32c's layout).
//
// Thread safety: all functions may be called from any thread.
#ifndef TFQ_CRC32C_CRC32C_H_
#define TFQ_CRC32C_CRC32C_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace tfq::crc32c {

// Returns the CRC32C of data[0, n) appended to a stream whose CRC32C so far is `crc`
// (start with 0).
uint32_t Extend(uint32_t crc, const void* data, size_t n);

inline uint32_t Value(const void* data, size_t n) { return Extend(0, data, n); }
inline uint32_t Value(std::string_view s) { return Extend(0, s.data(), s.size()); }

// The CRC32C of A followed by B, from crc(A), crc(B) and B's length, without B's bytes (zlib's
// crc32_combine): O(log length_b). Its own inverse in the second argument, so it also gives the
// CRC32C of a stretch from two running CRCs: crc(B) = Combine(crc(A), crc(A followed by B), |B|).
uint32_t Combine(uint32_t crc_a, uint32_t crc_b, uint64_t length_b);

// TFRecord stores masked CRCs, because computing the CRC of a string that contains embedded CRCs
// is problematic. Mask: rotate right by 15 bits and add a constant.
constexpr uint32_t kMaskDelta = 0xa282ead8u;
inline uint32_t Mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kMaskDelta; }
inline uint32_t Unmask(uint32_t masked) {
  uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

// Name of the implementation in use: "sse4.2" or "portable" (reported by `tfq bench`).
const char* ImplementationName();

// Every implementation compiled in and usable on this CPU, for tests and benchmarks that check
// each variant against the same vectors.
struct Implementation {
  const char* name;
  uint32_t (*extend)(uint32_t crc, const void* data, size_t n);
};
std::vector<Implementation> AvailableImplementations();

}  // namespace tfq::crc32c

#endif  // TFQ_CRC32C_CRC32C_H_
