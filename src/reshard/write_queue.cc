#include "reshard/write_queue.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace tfq::reshard {
namespace {

constexpr size_t kCopyBuffer = size_t{1} << 20;  // for copies copy_file_range cannot do

}  // namespace

SourceFile::~SourceFile() { close(fd_); }

WriteQueue::~WriteQueue() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void WriteQueue::Submit(Job job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    job.ticket->pending = true;
    job.ticket->error = 0;
    jobs_.push_back(std::move(job));
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  }
  work_.notify_one();
}

void WriteQueue::SubmitWrite(int fd, const char* data, size_t size, WriteTicket* ticket) {
  Submit({fd, data, size, {}, ticket});
}

void WriteQueue::SubmitCopy(int fd, std::vector<CopyRange> ranges, WriteTicket* ticket) {
  Submit({fd, nullptr, 0, std::move(ranges), ticket});
}

int WriteQueue::Wait(WriteTicket* ticket) {
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [&] { return !ticket->pending; });
  return ticket->error;
}

int WriteQueue::Write(int fd, const char* data, uint64_t size) {
  const char* p = data;
  uint64_t left = size;
  while (left > 0) {
    const ssize_t n = write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : ENOSPC;  // 0 bytes for a non-empty write: a full disk
    p += n;
    left -= static_cast<uint64_t>(n);
  }
  return 0;
}

int WriteQueue::Copy(int fd, const CopyRange& range) {
  off_t in = static_cast<off_t>(range.offset);
  uint64_t left = range.size;
  while (left > 0 && !copy_unsupported_) {
    const ssize_t n = copy_file_range(range.source->fd(), &in, fd, nullptr, left, 0);
    if (n > 0) {
      left -= static_cast<uint64_t>(n);
      continue;
    }
    if (n == 0) return EIO;  // the input ended early: it shrank under us
    if (errno == EINTR) continue;
    if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return errno;
    copy_unsupported_ = true;  // across file systems, or not supported: copy by hand
  }
  if (left > 0 && !copy_buffer_) copy_buffer_ = std::make_unique_for_overwrite<char[]>(kCopyBuffer);
  while (left > 0) {
    const ssize_t n = pread(range.source->fd(), copy_buffer_.get(), std::min<uint64_t>(left, kCopyBuffer), in);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    if (const int err = Write(fd, copy_buffer_.get(), static_cast<uint64_t>(n))) return err;
    in += n;
    left -= static_cast<uint64_t>(n);
  }
  return 0;
}

void WriteQueue::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stop_ and nothing left
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    int error = 0;
    if (job.data) error = Write(job.fd, job.data, job.size);
    for (const CopyRange& range : job.ranges) {
      if (error == 0) error = Copy(job.fd, range);
    }
    job.ranges.clear();  // may close inputs: outside the lock
    lock.lock();
    job.ticket->error = error;
    job.ticket->pending = false;
    done_.notify_all();
  }
}

}  // namespace tfq::reshard
