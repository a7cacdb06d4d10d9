// SHA-256 (FIPS 180-4), for image/key/sha256 and the shard checksums of the manifest.
//
// Hashing the source bytes of every image runs on the converter threads, so the block function
// uses the x86 SHA extensions when the CPU has them (sha256_shani.cc, chosen once at run time)
// and a portable implementation otherwise; both give the same digests (tests compare them).
//
// Thread safety: a Sha256 object is used by one thread at a time; the free functions are pure.
#ifndef TFQ_IMAGESET_SHA256_H_
#define TFQ_IMAGESET_SHA256_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tfq::imageset {

using Sha256Digest = std::array<uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  void Update(std::string_view data);
  // Finishes the hash; the object must not be updated afterwards.
  Sha256Digest Final();

 private:
  uint32_t state_[8];
  uint8_t block_[64];
  size_t block_used_ = 0;
  uint64_t total_bytes_ = 0;
};

Sha256Digest Sha256Of(std::string_view data);
// 64 lowercase hex digits.
std::string DigestHex(const Sha256Digest& digest);
std::string Sha256Hex(std::string_view data);

namespace internal {
// Compresses `blocks` 64-byte blocks into `state`.
void Sha256BlocksPortable(uint32_t state[8], const uint8_t* data, size_t blocks);
// Only when Sha256HasShaExtensions().
void Sha256BlocksShaNi(uint32_t state[8], const uint8_t* data, size_t blocks);
bool Sha256HasShaExtensions();
// Forces the portable path (tests compare both); returns the previous setting.
bool Sha256UsePortable(bool portable);
}  // namespace internal

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_SHA256_H_
