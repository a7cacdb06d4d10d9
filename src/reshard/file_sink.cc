#include "reshard/file_sink.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "common/page_buffer.h"

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
    TFQ_RETURN_IF_ERROR(FlushCopy());  // bytes stay in order: the pending copy goes first
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

  Status AppendRange(std::shared_ptr<const RandomAccessFile> source, uint64_t offset, uint64_t size) override {
    if (fd_ < 0) return Status::Internal(name_ + ": write after Close");
    if (!error_.ok()) return error_;
    TFQ_RETURN_IF_ERROR(Flush());  // buffered bytes go first
    bytes_written_ += size;
    if (!queue_) return Waited(source->AppendRangeTo(fd_, offset, size, &copy_scratch_));
    if (!copies_.empty() && copies_.back().source == source &&
        copies_.back().offset + copies_.back().size == offset) {
      copies_.back().size += size;  // adjacent in the same input: one larger copy
    } else {
      copies_.push_back({std::move(source), offset, size});
    }
    copy_bytes_ += size;
    if (copy_bytes_ >= kCopyBatchBytes || copies_.size() >= kCopyBatchRanges) return FlushCopy();
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::Internal(name_ + ": closed twice");
    Status s = FlushCopy();
    if (s.ok()) s = Flush();
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
  // Copies are handed to the writer thread in batches of about this size: few wake-ups, and
  // small enough that the writer starts while the reader goes on.
  static constexpr uint64_t kCopyBatchBytes = uint64_t{8} << 20;
  static constexpr size_t kCopyBatchRanges = 1024;
  // Batches queued per file before the reader waits: slack for the writer's hiccups (a
  // throttled write, a descheduled thread). They hold no memory but their range lists.
  static constexpr int kCopyBatchesInFlight = 8;

  char* CurrentBuffer() {
    auto& b = buffers_[current_];
    if (!b) b = AllocatePageBuffer(capacity_);
    return b.get();
  }

  // Hands the filled buffer to the writer thread (or writes it), then makes sure the other
  // buffer's earlier write has finished before it is filled again.
  Status Flush() {
    if (!error_.ok() || used_ == 0) return error_;
    const size_t n = used_;
    used_ = 0;
    if (!queue_) return Keep(WriteAll(fd_, std::string_view(buffers_[current_].get(), n), name_));
    queue_->SubmitWrite(fd_, buffers_[current_].get(), n, &tickets_[current_]);
    current_ ^= 1;
    return Waited(queue_->Wait(&tickets_[current_]));
  }

  // The same for the pending copies: at most kCopyBatchesInFlight batches of this file queued.
  Status FlushCopy() {
    if (!error_.ok() || copies_.empty()) return error_;
    queue_->SubmitCopy(fd_, std::move(copies_), &copy_tickets_[copy_current_]);
    copies_.clear();
    copy_bytes_ = 0;
    copy_current_ = (copy_current_ + 1) % kCopyBatchesInFlight;
    return Waited(queue_->Wait(&copy_tickets_[copy_current_]));
  }

  Status WaitAll() {
    if (!queue_) return error_;
    Status s;
    for (WriteTicket* t : {&tickets_[0], &tickets_[1]}) {
      Status w = Waited(queue_->Wait(t));
      if (s.ok()) s = w;
    }
    for (WriteTicket& t : copy_tickets_) {
      Status w = Waited(queue_->Wait(&t));
      if (s.ok()) s = w;
    }
    return s;
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
  PageBuffer buffers_[2];  // written at page multiples: the fast case (common/page_buffer.h)
  WriteTicket tickets_[2];
  int current_ = 0;
  size_t used_ = 0;
  RangeCopyScratch copy_scratch_;  // copies done at once (no queue)
  std::vector<CopyRange> copies_;  // never pending while the buffer holds bytes (order is kept)
  uint64_t copy_bytes_ = 0;
  WriteTicket copy_tickets_[kCopyBatchesInFlight];
  int copy_current_ = 0;
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
