#include "reshard/write_queue.h"

#include <unistd.h>

#include <cerrno>

namespace tfq::reshard {

WriteQueue::~WriteQueue() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void WriteQueue::Submit(int fd, const char* data, size_t size, WriteTicket* ticket) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ticket->pending = true;
    ticket->error = 0;
    jobs_.push_back({fd, data, size, ticket});
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  }
  work_.notify_one();
}

int WriteQueue::Wait(WriteTicket* ticket) {
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [&] { return !ticket->pending; });
  return ticket->error;
}

void WriteQueue::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stop_ and nothing left
    const Job job = jobs_.front();
    jobs_.pop_front();
    lock.unlock();
    int error = 0;
    const char* p = job.data;
    size_t left = job.size;
    while (left > 0) {
      const ssize_t n = write(job.fd, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error = n < 0 ? errno : ENOSPC;  // 0 bytes for a non-empty write: treat as a full disk
        break;
      }
      p += n;
      left -= static_cast<size_t>(n);
    }
    lock.lock();
    job.ticket->error = error;
    job.ticket->pending = false;
    done_.notify_all();
  }
}

}  // namespace tfq::reshard
