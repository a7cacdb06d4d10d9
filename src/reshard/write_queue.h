// WriteQueue: one background thread that performs the write(2) calls of file sinks.
//
// Copying bytes into the kernel is about half the CPU work of `tfq shard` (the other half:
// reading, verifying and hashing records). With two cores they can overlap: sinks hand full
// buffers to this thread and go on filling another (reshard/file_sink.h double-buffers). Jobs
// run in submission order, so each file's bytes stay in order.
//
// Thread safety: Submit and Wait may be called from any thread; a ticket belongs to the one
// submitter that waits on it. The destructor finishes the queued jobs and joins the thread.
#ifndef TFQ_RESHARD_WRITE_QUEUE_H_
#define TFQ_RESHARD_WRITE_QUEUE_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>

namespace tfq::reshard {

// The completion of one submitted write: `error` is 0 or the errno that stopped it.
struct WriteTicket {
  bool pending = false;
  int error = 0;
};

class WriteQueue {
 public:
  WriteQueue() = default;
  ~WriteQueue();
  WriteQueue(const WriteQueue&) = delete;
  WriteQueue& operator=(const WriteQueue&) = delete;

  // Queues writing [data, data + size) to `fd`; the bytes must stay untouched until the ticket
  // completes. `ticket` must not be pending. Starts the thread on first use.
  void Submit(int fd, const char* data, size_t size, WriteTicket* ticket);
  // Blocks until `ticket` is no longer pending; returns its error (0 on success).
  int Wait(WriteTicket* ticket);

 private:
  struct Job {
    int fd;
    const char* data;
    size_t size;
    WriteTicket* ticket;
  };
  void Run();

  std::mutex mu_;
  std::condition_variable work_;  // jobs were queued, or stop
  std::condition_variable done_;  // a job completed
  std::deque<Job> jobs_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_WRITE_QUEUE_H_
