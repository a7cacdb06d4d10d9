// NewInflater: the one place that picks the library, once per inflater.
#include "io/inflater.h"

#include <zlib.h>

namespace tfq {

std::unique_ptr<Inflater> NewInflater(InflaterUse use) {
  if (use == InflaterUse::kFastest) {
    if (std::unique_ptr<Inflater> isal = NewIsalInflater()) return isal;
  }
  return NewZlibInflater(use == InflaterUse::kBlockBoundaries);
}

std::string InflateLibrary() {
  const std::string isal = IsalVersion();
  return isal.empty() ? std::string("zlib ") + zlibVersion() : "isa-l " + isal;
}

uint32_t GzipCrc32(uint32_t crc, const char* p, size_t n) {
  static const bool isal = !IsalVersion().empty();
  if (isal) return IsalGzipCrc32(crc, p, n);
  return static_cast<uint32_t>(crc32_z(crc, reinterpret_cast<const Bytef*>(p), n));
}

}  // namespace tfq
