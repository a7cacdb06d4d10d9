#include "image/exif.h"

#include <cstdint>

namespace tfq::image {
namespace {

constexpr uint16_t kOrientationTag = 0x0112;
constexpr uint16_t kTypeShort = 3;
constexpr uint16_t kTypeLong = 4;
constexpr size_t kEntrySize = 12;

class TiffReader {
 public:
  TiffReader(std::string_view bytes, bool little_endian) : b_(bytes), le_(little_endian) {}

  bool U16(size_t at, uint16_t* v) const {
    if (at > b_.size() || b_.size() - at < 2) return false;
    auto p = [&](size_t i) { return static_cast<uint16_t>(static_cast<unsigned char>(b_[at + i])); };
    *v = le_ ? static_cast<uint16_t>(p(0) | p(1) << 8) : static_cast<uint16_t>(p(0) << 8 | p(1));
    return true;
  }
  bool U32(size_t at, uint32_t* v) const {
    uint16_t a, b;
    if (!U16(at, &a) || !U16(at + 2, &b)) return false;
    *v = le_ ? (uint32_t{b} << 16 | a) : (uint32_t{a} << 16 | b);
    return true;
  }

 private:
  std::string_view b_;
  bool le_;
};

}  // namespace

int ParseExifOrientation(std::string_view tiff) {
  if (tiff.size() < 8) return 1;
  bool le;
  if (tiff.substr(0, 4) == std::string_view("II*\0", 4)) {
    le = true;
  } else if (tiff.substr(0, 4) == std::string_view("MM\0*", 4)) {
    le = false;
  } else {
    return 1;
  }
  TiffReader r(tiff, le);
  uint32_t ifd0;
  uint16_t count;
  if (!r.U32(4, &ifd0) || !r.U16(ifd0, &count)) return 1;
  // Orientation lives in IFD0; entries are sorted by tag in valid files, but damaged ones are not,
  // so look at every entry that fits in the buffer.
  for (uint32_t i = 0; i < count; ++i) {
    size_t entry = size_t{ifd0} + 2 + i * kEntrySize;
    uint16_t tag, type, value16;
    uint32_t n, value32;
    if (!r.U16(entry, &tag) || !r.U16(entry + 2, &type) || !r.U32(entry + 4, &n)) return 1;
    if (tag != kOrientationTag) continue;
    if (n < 1) return 1;
    int value;
    if (type == kTypeShort && r.U16(entry + 8, &value16)) {
      value = value16;
    } else if (type == kTypeLong && r.U32(entry + 8, &value32)) {
      value = value32 <= 8 ? static_cast<int>(value32) : 0;
    } else {
      return 1;
    }
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}

int ParseApp1Orientation(std::string_view app1_payload) {
  constexpr std::string_view kExifPrefix("Exif\0\0", 6);
  if (app1_payload.substr(0, kExifPrefix.size()) != kExifPrefix) return 1;
  return ParseExifOrientation(app1_payload.substr(kExifPrefix.size()));
}

}  // namespace tfq::image
