#include "io/fd_writer.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tfq {

int WriteFully(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    // write() never returns 0 for a non-zero size on files and pipes; treat it as a full device
    // rather than spinning.
    if (n == 0) return ENOSPC;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return 0;
}

Status WriteError(const std::string& name, int errno_value) {
  if (errno_value == ENOSPC || errno_value == EDQUOT) {
    return Status::IoError(name + ": disk full (" + std::strerror(errno_value) +
                           "); free some space or write elsewhere");
  }
  return Status::FromErrno(name, errno_value);
}

FdWriter::FdWriter(int fd, std::string name, size_t capacity)
    : fd_(fd), name_(std::move(name)), capacity_(capacity) {}

Status FdWriter::Write(std::string_view data) {
  if (!error_.ok()) return error_;
  if (used_ + data.size() <= capacity_) {
    if (!buffer_) buffer_ = AllocatePageBuffer(capacity_);
    std::memcpy(buffer_.get() + used_, data.data(), data.size());
    used_ += data.size();
    if (used_ == capacity_) return Flush();
    return Status::OK();
  }
  TFQ_RETURN_IF_ERROR(Flush());
  if (data.size() >= capacity_) return WriteOut(data.data(), data.size());
  return Write(data);  // fits in the now empty buffer
}

Status FdWriter::Flush() {
  if (!error_.ok()) return error_;
  if (used_ == 0) return Status::OK();
  size_t n = used_;
  used_ = 0;
  return WriteOut(buffer_.get(), n);
}

Status FdWriter::WriteOut(const char* data, size_t size) {
  if (int err = WriteFully(fd_, data, size); err != 0) error_ = WriteError(name_, err);
  return error_;
}

}  // namespace tfq
