// The compressing stream: a Deflater (io/deflater.h) between a writer and its sink.
#include <memory>
#include <string>

#include "io/compression.h"
#include "io/deflater.h"

namespace tfq {
namespace {

constexpr size_t kCompressedWriteBytes = size_t{256} << 10;  // compressed bytes gathered per sink Write

class DeflatingStream final : public OutputStream {
 public:
  DeflatingStream(std::unique_ptr<OutputStream> sink, Compression c, int level)
      : sink_(std::move(sink)) {
    if (c != Compression::kGzip && c != Compression::kZlib) {
      error_ = Status::Internal(sink_->name() + ": cannot compress with compression '" +
                                std::string(CompressionName(c)) + "'");
      return;
    }
    Result<std::unique_ptr<Deflater>> d =
        NewDeflater(c == Compression::kGzip ? DeflateWrapper::kGzip : DeflateWrapper::kZlib, level);
    if (!d.ok()) {
      error_ = d.status();
      return;
    }
    deflater_ = std::move(d).value();
  }

  Status Write(std::string_view data) override {
    if (closed_) return Status::Internal(name() + ": write after Close");
    TFQ_RETURN_IF_ERROR(error_);
    bytes_written_ += data.size();
    TFQ_RETURN_IF_ERROR(Fail(deflater_->Deflate(data, false, &output_)));
    if (output_.size() >= kCompressedWriteBytes) return FlushOutput();
    return Status::OK();
  }

  Status Close() override {
    if (closed_) return Status::Internal(name() + ": closed twice");
    closed_ = true;
    TFQ_RETURN_IF_ERROR(error_);
    TFQ_RETURN_IF_ERROR(Fail(deflater_->Deflate({}, true, &output_)));
    TFQ_RETURN_IF_ERROR(FlushOutput());
    return sink_->Close();
  }

  const std::string& name() const override { return sink_->name(); }
  uint64_t bytes_written() const override { return bytes_written_; }

 private:
  Status Fail(Status s) {
    if (!s.ok()) error_ = s.WithPrefix(name());
    return error_;
  }

  Status FlushOutput() {
    if (output_.empty()) return Status::OK();
    Status s = sink_->Write(output_);
    output_.clear();
    if (!s.ok()) error_ = s;
    return s;
  }

  const std::unique_ptr<OutputStream> sink_;
  std::unique_ptr<Deflater> deflater_;
  std::string output_;  // compressed bytes not yet written to the sink
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
