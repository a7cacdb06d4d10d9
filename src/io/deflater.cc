// The one place that picks the encoder for an output (the rule is in deflater.h).
#include "io/deflater.h"

namespace tfq {

bool ValidDeflateLevel(int level) { return level >= -1 && level <= 9; }

bool DeflateLevelNeedsSample(int level) { return level == -1 && !IsalVersion().empty(); }

Result<DeflateEngine> ChooseDeflateEngine(int level, std::string_view sample) {
  if (!ValidDeflateLevel(level)) {
    return Status::InvalidArgument("compression level " + std::to_string(level) + " is not between -1 and 9");
  }
  if (!DeflateLevelNeedsSample(level)) return DeflateEngine{false, level == -1 ? kDefaultZlibLevel : level};
  // The sample compressed whole by each, as the first block of a stream would be.
  std::unique_ptr<Deflater> zlib = NewZlibDeflater(kDefaultZlibLevel);
  std::unique_ptr<Deflater> isal = NewIsalDeflater();
  if (zlib == nullptr || isal == nullptr) return Status::ResourceExhausted("cannot start compression (out of memory)");
  std::string zlib_out, isal_out;
  TFQ_RETURN_IF_ERROR(zlib->DeflateBlock({}, sample, true, &zlib_out));
  TFQ_RETURN_IF_ERROR(isal->DeflateBlock({}, sample, true, &isal_out));
  const bool use_isal = static_cast<double>(isal_out.size()) <= kMaxSizeRatio * static_cast<double>(zlib_out.size());
  return DeflateEngine{use_isal, kDefaultZlibLevel};
}

Result<std::unique_ptr<Deflater>> NewDeflater(const DeflateEngine& engine) {
  std::unique_ptr<Deflater> d = engine.isal ? NewIsalDeflater() : NewZlibDeflater(engine.zlib_level);
  if (d == nullptr) return Status::ResourceExhausted("cannot start compression (out of memory)");
  return d;
}

}  // namespace tfq
