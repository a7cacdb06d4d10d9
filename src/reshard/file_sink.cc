#include "reshard/file_sink.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tfq::reshard {
namespace {

Status WriteFailed(const std::string& name, int err) {
  if (err == ENOSPC || err == EDQUOT) {
    return Status::IoError(name + ": disk full (" + std::strerror(err) +
                           "); free some space or write elsewhere");
  }
  return Status::FromErrno(name, err);
}

class FileSink final : public OutputStream {
 public:
  FileSink(int fd, std::string name, size_t buffer_bytes)
      : fd_(fd), name_(std::move(name)), capacity_(buffer_bytes) {}
  ~FileSink() override {
    if (fd_ >= 0) close(fd_);
  }

  Status Write(std::string_view data) override {
    if (fd_ < 0) return Status::Internal(name_ + ": write after Close");
    if (!error_.ok()) return error_;
    bytes_written_ += data.size();
    if (used_ + data.size() > capacity_) {
      TFQ_RETURN_IF_ERROR(Flush());
      if (data.size() >= capacity_) return Keep(WriteAll(fd_, data, name_));
    }
    if (!buffer_) buffer_ = std::make_unique_for_overwrite<char[]>(capacity_);
    std::memcpy(buffer_.get() + used_, data.data(), data.size());
    used_ += data.size();
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::Internal(name_ + ": closed twice");
    Status s = Flush();
    buffer_.reset();
    // close() is where NFS reports a failed write; the descriptor is gone afterwards either way.
    if (close(fd_) != 0 && s.ok()) s = WriteFailed(name_, errno);
    fd_ = -1;
    return s;
  }

  const std::string& name() const override { return name_; }
  uint64_t bytes_written() const override { return bytes_written_; }

 private:
  Status Flush() {
    if (!error_.ok() || used_ == 0) return error_;
    const size_t n = used_;
    used_ = 0;
    return Keep(WriteAll(fd_, std::string_view(buffer_.get(), n), name_));
  }
  Status Keep(Status s) {
    if (!s.ok()) error_ = s;
    return s;
  }

  int fd_;
  const std::string name_;
  const size_t capacity_;
  std::unique_ptr<char[]> buffer_;
  size_t used_ = 0;
  uint64_t bytes_written_ = 0;
  Status error_;
};

}  // namespace

Status WriteAll(int fd, std::string_view data, const std::string& name, int64_t offset) {
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    const ssize_t n = offset >= 0 ? pwrite(fd, p, left, offset) : write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return WriteFailed(name, errno);
    }
    if (n == 0) return WriteFailed(name, ENOSPC);  // never for a non-zero size; do not spin
    p += n;
    left -= static_cast<size_t>(n);
    if (offset >= 0) offset += n;
  }
  return Status::OK();
}

Status ReadAllAt(int fd, char* dst, size_t size, uint64_t offset, const std::string& name) {
  while (size > 0) {
    const ssize_t n = pread(fd, dst, size, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno(name, errno);
    }
    if (n == 0) {
      return Status::IoError(name + ": ends before byte " + std::to_string(offset + size) +
                             " (was it truncated by someone else?)");
    }
    dst += n;
    size -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
  return Status::OK();
}

std::unique_ptr<OutputStream> NewFileSink(int fd, std::string name, size_t buffer_bytes) {
  return std::make_unique<FileSink>(fd, std::move(name), buffer_bytes);
}

}  // namespace tfq::reshard
