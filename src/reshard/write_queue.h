// WriteQueue: background threads that perform the writes of file sinks.
//
// Copying bytes into the kernel is most of the CPU work of `tfq shard` (the rest: reading,
// verifying and hashing records). With two cores they can overlap: sinks hand full buffers, or
// ranges of input files to copy (RandomAccessFile::AppendRangeTo: inside the kernel between local
// files, as `cp` does), to a writer thread and go on preparing more (reshard/file_sink.h). There is one lane (thread and job
// queue) per core; a file always uses the same lane, chosen by its descriptor, so each file's
// bytes stay in order while different files (round-robin shards) are written in parallel.
//
// Thread safety: Submit* and Wait may be called from any thread; a ticket belongs to the one
// submitter that waits on it. The destructor finishes the queued jobs and joins the threads.
#ifndef TFQ_RESHARD_WRITE_QUEUE_H_
#define TFQ_RESHARD_WRITE_QUEUE_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/status.h"
#include "io/random_access_file.h"

namespace tfq::reshard {

// The completion of one submitted job: `error` is 0 or the errno that stopped it.
struct WriteTicket {
  bool pending = false;
  int error = 0;
  size_t lane = 0;  // where it was submitted (set by Submit)
};

// Bytes [offset, offset + size) of an input file. The input is shared by the queued copies that
// read it, so it is closed only when the last one is done, whenever its reader moves on.
struct CopyRange {
  std::shared_ptr<const RandomAccessFile> source;
  uint64_t offset = 0;
  uint64_t size = 0;
};

class WriteQueue {
 public:
  // `lanes` = 0: one per core (at most 4).
  explicit WriteQueue(size_t lanes = 0);
  ~WriteQueue();
  WriteQueue(const WriteQueue&) = delete;
  WriteQueue& operator=(const WriteQueue&) = delete;

  // Queues writing [data, data + size) to `fd`; the bytes must stay untouched until the ticket
  // completes. `ticket` must not be pending. Starts the lane's thread on first use.
  void SubmitWrite(int fd, const char* data, size_t size, WriteTicket* ticket);
  // Queues appending the ranges, in order, to `fd` (RandomAccessFile::AppendRangeTo: inside the
  // kernel between local files, through a buffer otherwise). A source that ends early is EIO.
  void SubmitCopy(int fd, std::vector<CopyRange> ranges, WriteTicket* ticket);
  // Blocks until `ticket` is no longer pending; returns its error (0 on success).
  int Wait(WriteTicket* ticket);

 private:
  struct Job {
    int fd;
    const char* data;  // a write of `size` bytes; or, with ranges, a copy
    uint64_t size;
    std::vector<CopyRange> ranges;
    WriteTicket* ticket;
  };
  struct Lane {
    std::mutex mu;
    std::condition_variable work;  // jobs were queued, or stop
    std::condition_variable done;  // a job completed
    std::deque<Job> jobs;
    bool stop = false;
    RangeCopyScratch copy_scratch;  // the lane's copies: whether the kernel refused, and a buffer
    std::thread thread;
  };
  void Submit(Job job);
  static void Run(Lane* lane);

  std::vector<std::unique_ptr<Lane>> lanes_;
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_WRITE_QUEUE_H_
