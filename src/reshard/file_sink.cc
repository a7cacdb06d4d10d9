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
  FileSink(int fd, std::string name, size_t buffer_bytes, WriteQueue* queue)
      : fd_(fd), name_(std::move(name)), capacity_(buffer_bytes), queue_(queue) {}
  ~FileSink() override {
    Status ignored = WaitAll();  // the writer thread must be done with our buffers and fd
    (void)ignored;
    if (fd_ >= 0) close(fd_);
  }

  Status Write(std::string_view data) override {
    if (fd_ < 0) return Status::Internal(name_ + ": write after Close");
    if (!error_.ok()) return error_;
    bytes_written_ += data.size();
    if (used_ + data.size() > capacity_) {
      TFQ_RETURN_IF_ERROR(Flush());
      if (data.size() >= capacity_) {
        // Straight from the caller's memory, after whatever is still queued for this file.
        TFQ_RETURN_IF_ERROR(WaitAll());
        return Keep(WriteAll(fd_, data, name_));
      }
    }
    char* buffer = CurrentBuffer();
    std::memcpy(buffer + used_, data.data(), data.size());
    used_ += data.size();
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::Internal(name_ + ": closed twice");
    Status s = Flush();
    Status waited = WaitAll();
    if (s.ok()) s = waited;
    buffers_[0].reset();
    buffers_[1].reset();
    // close() is where NFS reports a failed write; the descriptor is gone afterwards either way.
    if (close(fd_) != 0 && s.ok()) s = WriteFailed(name_, errno);
    fd_ = -1;
    return s;
  }

  const std::string& name() const override { return name_; }
  uint64_t bytes_written() const override { return bytes_written_; }

 private:
  char* CurrentBuffer() {
    auto& b = buffers_[current_];
    if (!b) b = std::make_unique_for_overwrite<char[]>(capacity_);
    return b.get();
  }

  // Hands the filled buffer to the writer thread (or writes it), then makes sure the other
  // buffer's earlier write has finished before it is filled again.
  Status Flush() {
    if (!error_.ok() || used_ == 0) return error_;
    const size_t n = used_;
    used_ = 0;
    if (!queue_) return Keep(WriteAll(fd_, std::string_view(buffers_[current_].get(), n), name_));
    queue_->Submit(fd_, buffers_[current_].get(), n, &tickets_[current_]);
    current_ ^= 1;
    return Waited(queue_->Wait(&tickets_[current_]));
  }

  Status WaitAll() {
    if (!queue_) return error_;
    Status s = Waited(queue_->Wait(&tickets_[0]));
    Status t = Waited(queue_->Wait(&tickets_[1]));
    return s.ok() ? t : s;
  }

  Status Waited(int err) { return err == 0 ? error_ : Keep(WriteFailed(name_, err)); }
  Status Keep(Status s) {
    if (!s.ok() && error_.ok()) error_ = s;
    return s.ok() ? error_ : s;
  }

  int fd_;
  const std::string name_;
  const size_t capacity_;
  WriteQueue* const queue_;  // null: write synchronously
  std::unique_ptr<char[]> buffers_[2];
  WriteTicket tickets_[2];
  int current_ = 0;
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

std::unique_ptr<OutputStream> NewFileSink(int fd, std::string name, size_t buffer_bytes,
                                          WriteQueue* queue) {
  return std::make_unique<FileSink>(fd, std::move(name), buffer_bytes, queue);
}

}  // namespace tfq::reshard
