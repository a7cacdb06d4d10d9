// The zlib Deflater, with TensorFlow's TFRecordOptions parameters.
#include <zlib.h>

#include <algorithm>
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
  bool Init(DeflateWrapper wrapper, int level) {
    // gzip via windowBits 31: the header has no name and mtime 0.
    const int bits = wrapper == DeflateWrapper::kGzip ? 16 + MAX_WBITS : MAX_WBITS;
    initialized_ = deflateInit2(&z_, level, Z_DEFLATED, bits, kMemLevel, Z_DEFAULT_STRATEGY) == Z_OK;
    return initialized_;
  }

  Status Deflate(std::string_view in, bool finish, std::string* out) override {
    return Run(&z_, in, finish, out);
  }

  size_t SizeIfFinishedNow() const override {
    z_stream copy = {};
    if (deflateCopy(&copy, const_cast<z_stream*>(&z_)) != Z_OK) return 0;
    std::string rest;
    const bool ok = Run(&copy, {}, true, &rest).ok();
    const size_t size = z_.total_out + rest.size();
    deflateEnd(&copy);
    return ok ? size : 0;
  }

 private:
  static Status Run(z_stream* z, std::string_view in, bool finish, std::string* out) {
    // deflate takes all the input it is given as long as output space remains, so the bytes do
    // not depend on how the data was split into calls.
    while (true) {
      const uInt n = static_cast<uInt>(std::min<size_t>(in.size(), UINT_MAX));
      z->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      z->avail_in = n;
      const bool last = finish && n == in.size();
      int rc = Z_OK;
      do {
        const size_t had = out->size();
        out->resize(had + kOutputStep);
        z->next_out = reinterpret_cast<Bytef*>(out->data() + had);
        z->avail_out = static_cast<uInt>(kOutputStep);
        rc = deflate(z, last ? Z_FINISH : Z_NO_FLUSH);
        out->resize(had + kOutputStep - z->avail_out);
        // Z_BUF_ERROR only says "no progress this time"; the loop makes sure it is temporary.
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
          return Status::Internal("deflate failed with zlib error " + std::to_string(rc));
        }
      } while (z->avail_in > 0 || (last && rc != Z_STREAM_END) || z->avail_out == 0);
      in.remove_prefix(n);
      if (in.empty()) return Status::OK();
    }
  }

  z_stream z_ = {};
  bool initialized_ = false;
};

}  // namespace

std::unique_ptr<Deflater> NewZlibDeflater(DeflateWrapper wrapper, int level) {
  auto d = std::make_unique<ZlibDeflater>();
  if (!d->Init(wrapper, level)) return nullptr;
  return d;
}

}  // namespace tfq
