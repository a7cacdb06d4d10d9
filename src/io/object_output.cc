// Writing objects: one PUT for a small output, a multipart upload for a larger one, completed
// only by Close().
#include <cstdlib>
#include <future>

#include "io/object_files.h"

namespace tfq {
namespace {

size_t PartBytesFromEnvironment() {
  const char* v = std::getenv("TFQ_UPLOAD_PART_MIB");
  unsigned long long mib = v && *v ? std::strtoull(v, nullptr, 10) : 0;
  if (mib < 5 || mib > 5120) mib = 8;  // S3's smallest part is 5 MiB, its largest 5 GiB
  return static_cast<size_t>(mib) << 20;
}

class ObjectOutputStream final : public OutputStream {
 public:
  ObjectOutputStream(std::shared_ptr<const ObjectStore> store, std::string url)
      : store_(std::move(store)), url_(std::move(url)), part_bytes_(PartBytesFromEnvironment()) {}

  ~ObjectOutputStream() override {
    if (!closed_) Abandon();
  }

  Status Write(std::string_view data) override {
    if (closed_) return Status::Internal(url_ + ": write after Close");
    TFQ_RETURN_IF_ERROR(error_);
    bytes_written_ += data.size();
    while (!data.empty()) {
      const size_t take = std::min(data.size(), part_bytes_ - buffer_.size());
      buffer_.append(data.substr(0, take));
      data.remove_prefix(take);
      if (buffer_.size() == part_bytes_) TFQ_RETURN_IF_ERROR(Keep(SendPart()));
    }
    return Status::OK();
  }

  Status Close() override {
    if (closed_) return Status::Internal(url_ + ": closed twice");
    Status s = error_;
    if (s.ok() && upload_id_.empty()) {
      s = store_->PutObject(url_, buffer_);  // the whole output in one request
    } else if (s.ok()) {
      if (!buffer_.empty() || etags_.empty()) s = SendPart();
      if (s.ok()) s = WaitForPart();
      if (s.ok()) s = store_->CompleteUpload(url_, upload_id_, etags_);
    }
    if (!s.ok()) {
      Abandon();
      return s;
    }
    closed_ = true;
    buffer_ = std::string();
    return s;
  }

  const std::string& name() const override { return url_; }
  uint64_t bytes_written() const override { return bytes_written_; }

 private:
  Status Keep(Status s) {
    if (!s.ok() && error_.ok()) error_ = s;
    return s;
  }

  // Uploads the buffer as the next part on a background thread, after the previous part is done.
  Status SendPart() {
    if (upload_id_.empty()) {
      TFQ_ASSIGN_OR_RETURN(upload_id_, store_->CreateUpload(url_));
    }
    TFQ_RETURN_IF_ERROR(WaitForPart());
    sending_ = std::move(buffer_);
    buffer_ = std::string();
    buffer_.reserve(part_bytes_);
    const int number = static_cast<int>(etags_.size()) + 1;
    etags_.emplace_back();
    pending_ = std::async(std::launch::async, [this, number] {
      return store_->UploadPart(url_, upload_id_, number, sending_);
    });
    if (number % 1000 == 0) part_bytes_ *= 2;
    return Status::OK();
  }

  Status WaitForPart() {
    if (!pending_.valid()) return Status::OK();
    TFQ_ASSIGN_OR_RETURN(etags_.back(), pending_.get());
    return Status::OK();
  }

  void Abandon() {
    closed_ = true;
    if (pending_.valid()) pending_.wait();
    if (!upload_id_.empty()) {
      Status ignored = store_->AbortUpload(url_, upload_id_);  // best effort: no object appears either way
      (void)ignored;
    }
  }

  const std::shared_ptr<const ObjectStore> store_;
  const std::string url_;
  size_t part_bytes_;
  std::string buffer_;
  std::string sending_;  // the part in flight
  std::future<Result<std::string>> pending_;
  std::string upload_id_;
  std::vector<std::string> etags_;
  uint64_t bytes_written_ = 0;
  bool closed_ = false;
  Status error_;
};

}  // namespace

std::unique_ptr<OutputStream> NewObjectOutput(std::shared_ptr<const ObjectStore> store,
                                              const std::string& url) {
  return std::make_unique<ObjectOutputStream>(std::move(store), url);
}

}  // namespace tfq
