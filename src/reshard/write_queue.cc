#include "reshard/write_queue.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "common/cpus.h"

namespace tfq::reshard {
namespace {

constexpr size_t kCopyBuffer = size_t{1} << 20;  // for copies copy_file_range cannot do

}  // namespace

SourceFile::~SourceFile() { close(fd_); }

Result<std::unique_ptr<SourceFile>> SourceFile::OpenAgain(const std::string& path) {
  const auto open_retrying = [&](int flags) {
    int fd;
    do {
      fd = open(path.c_str(), flags);
    } while (fd < 0 && errno == EINTR);
    return fd;
  };
  // The re-reading shuffles pread inputs a record at a time, millions of times: without
  // O_NOATIME each pread checks whether the access time is due (about 8% of a 1 KiB pread's
  // cost, measured on Zen 3). Only the file's owner (or CAP_FOWNER) may ask for it.
  int fd = open_retrying(O_RDONLY | O_CLOEXEC | O_NOATIME);
  if (fd < 0 && errno == EPERM) fd = open_retrying(O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(path + ": cannot open it again", errno);
  return std::make_unique<SourceFile>(fd);
}

WriteQueue::WriteQueue(size_t lanes) {
  if (lanes == 0) lanes = std::clamp<size_t>(static_cast<size_t>(UsableCpus()), 1, 4);
  for (size_t i = 0; i < lanes; ++i) lanes_.push_back(std::make_unique<Lane>());
}

WriteQueue::~WriteQueue() {
  for (auto& lane : lanes_) {
    {
      std::lock_guard<std::mutex> lock(lane->mu);
      lane->stop = true;
    }
    lane->work.notify_all();
    if (lane->thread.joinable()) lane->thread.join();
  }
}

void WriteQueue::Submit(Job job) {
  const size_t index = static_cast<size_t>(job.fd) % lanes_.size();
  Lane* lane = lanes_[index].get();
  {
    std::lock_guard<std::mutex> lock(lane->mu);
    job.ticket->pending = true;
    job.ticket->error = 0;
    job.ticket->lane = index;
    lane->jobs.push_back(std::move(job));
    if (!lane->thread.joinable()) lane->thread = std::thread([lane] { Run(lane); });
  }
  lane->work.notify_one();
}

void WriteQueue::SubmitWrite(int fd, const char* data, size_t size, WriteTicket* ticket) {
  Submit({fd, data, size, {}, ticket});
}

void WriteQueue::SubmitCopy(int fd, std::vector<CopyRange> ranges, WriteTicket* ticket) {
  Submit({fd, nullptr, 0, std::move(ranges), ticket});
}

int WriteQueue::Wait(WriteTicket* ticket) {
  Lane* lane = lanes_[ticket->lane].get();
  std::unique_lock<std::mutex> lock(lane->mu);
  lane->done.wait(lock, [&] { return !ticket->pending; });
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

int WriteQueue::Copy(Lane* lane, int fd, const CopyRange& range) {
  off_t in = static_cast<off_t>(range.offset);
  uint64_t left = range.size;
  while (left > 0 && !lane->copy_unsupported) {
    const ssize_t n = copy_file_range(range.source->fd(), &in, fd, nullptr, left, 0);
    if (n > 0) {
      left -= static_cast<uint64_t>(n);
      continue;
    }
    if (n == 0) return EIO;  // the input ended early: it shrank under us
    if (errno == EINTR) continue;
    if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return errno;
    lane->copy_unsupported = true;  // across file systems, or not supported: copy by hand
  }
  if (left > 0 && !lane->copy_buffer) lane->copy_buffer = AllocatePageBuffer(kCopyBuffer);
  while (left > 0) {
    const ssize_t n = pread(range.source->fd(), lane->copy_buffer.get(), std::min<uint64_t>(left, kCopyBuffer), in);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    if (const int err = Write(fd, lane->copy_buffer.get(), static_cast<uint64_t>(n))) return err;
    in += n;
    left -= static_cast<uint64_t>(n);
  }
  return 0;
}

void WriteQueue::Run(Lane* lane) {
  std::unique_lock<std::mutex> lock(lane->mu);
  for (;;) {
    lane->work.wait(lock, [&] { return lane->stop || !lane->jobs.empty(); });
    if (lane->jobs.empty()) return;  // stop, and nothing left
    Job job = std::move(lane->jobs.front());
    lane->jobs.pop_front();
    lock.unlock();
    int error = 0;
    if (job.data) error = Write(job.fd, job.data, job.size);
    for (const CopyRange& range : job.ranges) {
      if (error == 0) error = Copy(lane, job.fd, range);
    }
    job.ranges.clear();  // may close inputs: outside the lock
    lock.lock();
    job.ticket->error = error;
    job.ticket->pending = false;
    lane->done.notify_all();
  }
}

}  // namespace tfq::reshard
