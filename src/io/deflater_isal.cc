// The ISA-L Deflater: igzip at level 1.
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <memory>

#include "io/deflater.h"

namespace tfq {
namespace {

// Input goes to isal_deflate in pieces of this size only (the last one may be shorter): its
// output could otherwise depend on how the caller split the data.
constexpr size_t kPiece = size_t{256} << 10;
constexpr size_t kLevel = 1;

class IsalDeflater final : public Deflater {
 public:
  explicit IsalDeflater(DeflateWrapper wrapper)
      : stream_(std::make_unique<isal_zstream>()),
        level_buf_(std::make_unique_for_overwrite<uint8_t[]>(ISAL_DEF_LVL1_DEFAULT)) {
    isal_deflate_init(stream_.get());
    stream_->level = kLevel;
    stream_->level_buf = level_buf_.get();
    stream_->level_buf_size = ISAL_DEF_LVL1_DEFAULT;
    stream_->gzip_flag = wrapper == DeflateWrapper::kGzip ? IGZIP_GZIP : IGZIP_ZLIB;
  }

  Status Deflate(std::string_view in, bool finish, std::string* out) override {
    while (!in.empty()) {
      const size_t take = std::min(in.size(), kPiece - pending_.size());
      pending_.append(in.substr(0, take));
      in.remove_prefix(take);
      if (pending_.size() == kPiece) TFQ_RETURN_IF_ERROR(Compress(false, out));
    }
    if (finish) TFQ_RETURN_IF_ERROR(Compress(true, out));
    return Status::OK();
  }

 private:
  Status Compress(bool last, std::string* out) {
    isal_zstream& z = *stream_;
    z.next_in = reinterpret_cast<uint8_t*>(pending_.data());
    z.avail_in = static_cast<uint32_t>(pending_.size());
    z.end_of_stream = last ? 1 : 0;
    z.flush = NO_FLUSH;
    do {
      const size_t had = out->size();
      const size_t room = pending_.size() + (size_t{64} << 10);
      out->resize(had + room);
      z.next_out = reinterpret_cast<uint8_t*>(out->data() + had);
      z.avail_out = static_cast<uint32_t>(room);
      const int rc = isal_deflate(&z);
      out->resize(had + room - z.avail_out);
      if (rc != COMP_OK) return Status::Internal("isal_deflate failed with error " + std::to_string(rc));
    } while (z.avail_in > 0 || (last && z.internal_state.state != ZSTATE_END));
    pending_.clear();
    return Status::OK();
  }

  std::unique_ptr<isal_zstream> stream_;
  std::unique_ptr<uint8_t[]> level_buf_;
  std::string pending_;  // input not yet given to isal_deflate, less than kPiece
};

}  // namespace

std::unique_ptr<Deflater> NewIsalDeflater(DeflateWrapper wrapper) {
  return std::make_unique<IsalDeflater>(wrapper);
}

}  // namespace tfq
