// The TFRecord framing, in one place (docs/tfrecord-format.md):
//
//   uint64 length | uint32 masked_crc32c(length) | byte data[length] | uint32 masked_crc32c(data)
//
// all little-endian. Helpers here encode and check the fixed-size parts.
#ifndef TFQ_TFRECORD_FORMAT_H_
#define TFQ_TFRECORD_FORMAT_H_

#include <cstdint>
#include <cstring>
#include <string_view>

#include "crc32c/crc32c.h"

namespace tfq::tfrecord {

constexpr size_t kLengthSize = 8;
constexpr size_t kHeaderSize = kLengthSize + 4;  // length + masked CRC of the length
constexpr size_t kFooterSize = 4;                // masked CRC of the data
constexpr size_t kFramingOverhead = kHeaderSize + kFooterSize;

// The default cap on a record's length: a length is never trusted beyond it, so a corrupt or
// hostile file cannot make tfq allocate more. Real records (even uncompressed images) are far
// smaller; `--max-record-size` raises it.
constexpr uint64_t kDefaultMaxRecordBytes = uint64_t{1} << 30;

inline uint32_t DecodeFixed32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);  // x86 and ARM little-endian hosts only; see CMakeLists.txt
  return v;
}
inline uint64_t DecodeFixed64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void EncodeFixed32(char* p, uint32_t v) { std::memcpy(p, &v, sizeof v); }
inline void EncodeFixed64(char* p, uint64_t v) { std::memcpy(p, &v, sizeof v); }

inline uint32_t MaskedCrc(const char* data, size_t n) {
  return crc32c::Mask(crc32c::Value(data, n));
}

// Writes the 12-byte header for a record of `length` bytes.
inline void EncodeHeader(uint64_t length, char header[kHeaderSize]) {
  EncodeFixed64(header, length);
  EncodeFixed32(header + kLengthSize, MaskedCrc(header, kLengthSize));
}

// True if `header` (at least kHeaderSize bytes) holds a length whose masked CRC verifies.
inline bool HeaderCrcValid(const char* header) {
  return DecodeFixed32(header + kLengthSize) == MaskedCrc(header, kLengthSize);
}

// The first offset in `bytes` holding a header whose length CRC verifies and whose length is at
// most `max_record_bytes`, or npos: where a reader that lost its place (or starts mid-file) may
// pick the framing up again. Up to one CRC per offset (the length is compared first: most bytes
// of a payload read as a length far over the cap): a false match is a 2^-32 chance per offset,
// so callers confirm a match before trusting it.
inline size_t FindPlausibleHeader(std::string_view bytes, uint64_t max_record_bytes) {
  for (size_t i = 0; i + kHeaderSize <= bytes.size(); ++i) {
    const char* p = bytes.data() + i;
    if (DecodeFixed64(p) <= max_record_bytes && HeaderCrcValid(p)) return i;
  }
  return std::string_view::npos;
}

}  // namespace tfq::tfrecord

#endif  // TFQ_TFRECORD_FORMAT_H_
