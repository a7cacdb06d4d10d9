#include "reshard/write_queue.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "common/cpus.h"
#include "io/fd_writer.h"

namespace tfq::reshard {

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

void WriteQueue::Run(Lane* lane) {
  std::unique_lock<std::mutex> lock(lane->mu);
  for (;;) {
    lane->work.wait(lock, [&] { return lane->stop || !lane->jobs.empty(); });
    if (lane->jobs.empty()) return;  // stop, and nothing left
    Job job = std::move(lane->jobs.front());
    lane->jobs.pop_front();
    lock.unlock();
    int error = 0;
    if (job.data) error = WriteFully(job.fd, job.data, job.size);
    for (const CopyRange& range : job.ranges) {
      if (error == 0) error = range.source->AppendRangeTo(job.fd, range.offset, range.size, &lane->copy_scratch);
    }
    job.ranges.clear();  // may close inputs: outside the lock
    lock.lock();
    job.ticket->error = error;
    job.ticket->pending = false;
    lane->done.notify_all();
  }
}

}  // namespace tfq::reshard
