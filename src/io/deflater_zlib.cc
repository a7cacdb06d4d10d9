// The zlib Deflater, with TensorFlow's TFRecordOptions parameters.
#include <zlib.h>

#include <climits>

#include "io/deflater.h"

namespace tfq {
namespace {

constexpr int kMemLevel = 9;  // TensorFlow's ZlibCompressionOptions default (zlib's is 8)
constexpr size_t kOutputStep = size_t{64} << 10;

class ZlibDeflater final : public Deflater {
 public:
  ~ZlibDeflater() override {
    if (initialized_) deflateEnd(&z_);
  }
  bool Init(int level) {
    initialized_ = deflateInit2(&z_, level, Z_DEFLATED, -MAX_WBITS, kMemLevel, Z_DEFAULT_STRATEGY) == Z_OK;
    return initialized_;
  }

  Status DeflateBlock(std::string_view dictionary, std::string_view block, bool last,
                      std::string* out) override {
    if (deflateReset(&z_) != Z_OK) return Status::Internal("deflateReset failed");
    if (!dictionary.empty() &&
        deflateSetDictionary(&z_, reinterpret_cast<const Bytef*>(dictionary.data()),
                             static_cast<uInt>(dictionary.size())) != Z_OK) {
      return Status::Internal("deflateSetDictionary failed");
    }
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(block.data()));
    z_.avail_in = static_cast<uInt>(block.size());  // a block is far below 4 GiB
    const int flush = last ? Z_FINISH : Z_SYNC_FLUSH;
    int rc = Z_OK;
    do {
      const size_t had = out->size();
      out->resize(had + kOutputStep);
      z_.next_out = reinterpret_cast<Bytef*>(out->data() + had);
      z_.avail_out = static_cast<uInt>(kOutputStep);
      rc = deflate(&z_, flush);
      out->resize(had + kOutputStep - z_.avail_out);
      // Z_BUF_ERROR only says "no progress this time"; the loop makes sure it is temporary.
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
        return Status::Internal("deflate failed with zlib error " + std::to_string(rc));
      }
      // A flush is complete when it leaves output space unused; a finish when the stream ends.
    } while (z_.avail_in > 0 || z_.avail_out == 0 || (last && rc != Z_STREAM_END));
    return Status::OK();
  }

 private:
  z_stream z_ = {};
  bool initialized_ = false;
};

}  // namespace

std::unique_ptr<Deflater> NewZlibDeflater(int level) {
  if (level < 0 || level > 9) return nullptr;
  auto d = std::make_unique<ZlibDeflater>();
  if (!d->Init(level)) return nullptr;
  return d;
}

}  // namespace tfq
