// The zlib Inflater: the fallback without ISA-L, and the one that stops at block boundaries.
#include <zlib.h>

#include <algorithm>
#include <climits>

#include "io/inflater.h"

namespace tfq {
namespace {

int WindowBits(DeflateWrapper wrapper) {
  switch (wrapper) {
    case DeflateWrapper::kGzip: return 16 + MAX_WBITS;
    case DeflateWrapper::kZlib: return MAX_WBITS;
    case DeflateWrapper::kRaw: return -MAX_WBITS;
  }
  return MAX_WBITS;
}

class ZlibInflater final : public Inflater {
 public:
  explicit ZlibInflater(bool stop_at_blocks) : flush_(stop_at_blocks ? Z_BLOCK : Z_NO_FLUSH) {}
  ~ZlibInflater() override {
    if (initialized_) inflateEnd(&z_);
  }

  bool Reset(DeflateWrapper wrapper) override {
    const int bits = WindowBits(wrapper);
    const int rc = initialized_ ? inflateReset2(&z_, bits) : inflateInit2(&z_, bits);
    initialized_ = rc == Z_OK;
    last_rc_ = Z_OK;
    return initialized_;
  }

  void Prime(int bits, int value) override { inflatePrime(&z_, bits, value); }

  void SetWindow(std::string_view window) override {
    if (window.empty()) return;
    inflateSetDictionary(&z_, reinterpret_cast<const Bytef*>(window.data()),
                         static_cast<uInt>(window.size()));
  }

  Step Inflate(std::string_view in, char* out, size_t out_size) override {
    const uInt in_size = static_cast<uInt>(std::min<size_t>(in.size(), UINT_MAX));
    const uInt room = static_cast<uInt>(std::min<size_t>(out_size, UINT_MAX));
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_.avail_in = in_size;
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = room;
    last_rc_ = inflate(&z_, flush_);
    Step step;
    step.consumed = in_size - z_.avail_in;
    step.produced = room - z_.avail_out;
    switch (last_rc_) {
      case Z_OK:
      case Z_BUF_ERROR: step.outcome = Outcome::kOk; break;  // "no progress this time"
      case Z_STREAM_END: step.outcome = Outcome::kEnd; break;
      case Z_NEED_DICT: step.outcome = Outcome::kNeedsWindow; break;
      case Z_MEM_ERROR: step.outcome = Outcome::kNoMemory; break;
      default: step.outcome = Outcome::kBadData; break;
    }
    return step;
  }

  std::string error() const override {
    if (z_.msg != nullptr) return z_.msg;
    return "zlib error " + std::to_string(last_rc_);
  }

  // data_type after a Z_BLOCK step: bit 7 at a block boundary, bit 6 inside the last block, the
  // low 3 bits the unused bits of the last byte taken (zlib's examples/zran.c).
  bool AtBlockBoundary(int* bits) const override {
    if (flush_ != Z_BLOCK || last_rc_ != Z_OK) return false;
    const int type = z_.data_type;
    if ((type & 128) == 0 || (type & 64) != 0) return false;
    *bits = type & 7;
    return true;
  }

  std::string Window() const override {
    std::string window(32768, '\0');
    uInt length = 0;
    inflateGetDictionary(const_cast<z_stream*>(&z_), reinterpret_cast<Bytef*>(window.data()), &length);
    window.resize(length);
    return window;
  }

 private:
  const int flush_;
  z_stream z_ = {};
  bool initialized_ = false;
  int last_rc_ = Z_OK;
};

}  // namespace

std::unique_ptr<Inflater> NewZlibInflater(bool stop_at_blocks) {
  return std::make_unique<ZlibInflater>(stop_at_blocks);
}

}  // namespace tfq
