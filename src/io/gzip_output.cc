// The compressing stream: zlib's deflate between a writer and its sink, with TensorFlow's
// TFRecordOptions parameters so that tfq's .gz output matches what TensorFlow writes.
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <string>

#include "io/compression.h"

namespace tfq {
namespace {

constexpr size_t kOutputChunk = size_t{256} << 10;
constexpr int kGzipWindowBits = 16 + MAX_WBITS;  // gzip header and trailer, no name, mtime 0
constexpr int kZlibWindowBits = MAX_WBITS;
constexpr int kMemLevel = 9;  // TensorFlow's ZlibCompressionOptions default (zlib's is 8)

class DeflatingStream final : public OutputStream {
 public:
  DeflatingStream(std::unique_ptr<OutputStream> sink, Compression c, int level)
      : sink_(std::move(sink)) {
    if (c != Compression::kGzip && c != Compression::kZlib) {
      error_ = Status::Internal(sink_->name() + ": cannot compress with compression '" +
                                std::string(CompressionName(c)) + "'");
      return;
    }
    int rc = deflateInit2(&z_, level, Z_DEFLATED,
                          c == Compression::kGzip ? kGzipWindowBits : kZlibWindowBits, kMemLevel,
                          Z_DEFAULT_STRATEGY);
    if (rc == Z_STREAM_ERROR) {
      error_ = Status::InvalidArgument("compression level " + std::to_string(level) +
                                       " is not between -1 and 9");
    } else if (rc != Z_OK) {
      error_ = Status::ResourceExhausted(sink_->name() + ": cannot start compression (zlib error " +
                                         std::to_string(rc) + ")");
    } else {
      z_initialized_ = true;
    }
  }
  ~DeflatingStream() override {
    if (z_initialized_) deflateEnd(&z_);
  }

  Status Write(std::string_view data) override {
    if (closed_) return Status::Internal(name() + ": write after Close");
    TFQ_RETURN_IF_ERROR(error_);
    bytes_written_ += data.size();
    while (!data.empty()) {
      uInt n = static_cast<uInt>(std::min<size_t>(data.size(), UINT_MAX));
      z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
      z_.avail_in = n;
      // deflate takes all the input it is given as long as output space remains.
      while (z_.avail_in > 0) TFQ_RETURN_IF_ERROR(DeflateStep(Z_NO_FLUSH));
      data.remove_prefix(n);
    }
    return Status::OK();
  }

  Status Close() override {
    if (closed_) return Status::Internal(name() + ": closed twice");
    closed_ = true;
    TFQ_RETURN_IF_ERROR(error_);
    z_.next_in = nullptr;
    z_.avail_in = 0;
    int rc = Z_OK;
    do {
      TFQ_RETURN_IF_ERROR(DeflateStep(Z_FINISH, &rc));
    } while (rc != Z_STREAM_END);
    TFQ_RETURN_IF_ERROR(FlushOutput());
    return sink_->Close();
  }

  const std::string& name() const override { return sink_->name(); }
  uint64_t bytes_written() const override { return bytes_written_; }

 private:
  // One deflate call into the output buffer, writing the buffer to the sink when it is full.
  Status DeflateStep(int flush, int* rc_out = nullptr) {
    if (!output_) output_ = std::make_unique_for_overwrite<char[]>(kOutputChunk);
    if (output_used_ == kOutputChunk) TFQ_RETURN_IF_ERROR(FlushOutput());
    z_.next_out = reinterpret_cast<Bytef*>(output_.get() + output_used_);
    z_.avail_out = static_cast<uInt>(kOutputChunk - output_used_);
    int rc = deflate(&z_, flush);
    output_used_ = kOutputChunk - z_.avail_out;
    if (rc_out != nullptr) *rc_out = rc;
    // Z_BUF_ERROR only says "no progress this time"; the loops around make sure it is temporary.
    if (rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR) return Status::OK();
    error_ = Status::Internal(name() + ": deflate failed with zlib error " + std::to_string(rc));
    return error_;
  }

  Status FlushOutput() {
    if (output_used_ == 0) return Status::OK();
    Status s = sink_->Write(std::string_view(output_.get(), output_used_));
    output_used_ = 0;
    if (!s.ok()) error_ = s;
    return s;
  }

  const std::unique_ptr<OutputStream> sink_;
  z_stream z_ = {};
  bool z_initialized_ = false;
  std::unique_ptr<char[]> output_;
  size_t output_used_ = 0;
  uint64_t bytes_written_ = 0;
  bool closed_ = false;
  Status error_;
};

}  // namespace

std::unique_ptr<OutputStream> NewCompressingStream(std::unique_ptr<OutputStream> sink,
                                                   Compression c, int level) {
  if (c == Compression::kNone) return sink;
  return std::make_unique<DeflatingStream>(std::move(sink), c, level);
}

}  // namespace tfq
