// WriteQueue: one background thread that performs the writes of file sinks.
//
// Copying bytes into the kernel is about half the CPU work of `tfq shard` (the other half:
// reading, verifying and hashing records). With two cores they can overlap: sinks hand full
// buffers, or ranges of input files to copy in the kernel (copy_file_range, as `cp` does), to
// this thread and go on preparing more (reshard/file_sink.h). Jobs run in submission order, so
// each file's bytes stay in order.
//
// Thread safety: Submit* and Wait may be called from any thread; a ticket belongs to the one
// submitter that waits on it. The destructor finishes the queued jobs and joins the thread.
#ifndef TFQ_RESHARD_WRITE_QUEUE_H_
#define TFQ_RESHARD_WRITE_QUEUE_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tfq::reshard {

// The completion of one submitted job: `error` is 0 or the errno that stopped it.
struct WriteTicket {
  bool pending = false;
  int error = 0;
};

// A regular input file open for copying from. Shared by the queued copies that read it, so it is
// closed only when the last one is done, whenever its reader moves on.
class SourceFile {
 public:
  explicit SourceFile(int fd) : fd_(fd) {}
  ~SourceFile();
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;
  int fd() const { return fd_; }

 private:
  const int fd_;
};

// Bytes [offset, offset + size) of a source file.
struct CopyRange {
  std::shared_ptr<const SourceFile> source;
  uint64_t offset = 0;
  uint64_t size = 0;
};

class WriteQueue {
 public:
  WriteQueue() = default;
  ~WriteQueue();
  WriteQueue(const WriteQueue&) = delete;
  WriteQueue& operator=(const WriteQueue&) = delete;

  // Queues writing [data, data + size) to `fd`; the bytes must stay untouched until the ticket
  // completes. `ticket` must not be pending. Starts the thread on first use.
  void SubmitWrite(int fd, const char* data, size_t size, WriteTicket* ticket);
  // Queues appending the ranges, in order, to `fd`, copied inside the kernel (read and written
  // through a buffer where copy_file_range cannot, e.g. across file systems). A source that ends
  // early is EIO.
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
  void Submit(Job job);
  void Run();
  static int Write(int fd, const char* data, uint64_t size);
  int Copy(int fd, const CopyRange& range);

  std::mutex mu_;
  std::condition_variable work_;  // jobs were queued, or stop
  std::condition_variable done_;  // a job completed
  std::deque<Job> jobs_;
  bool stop_ = false;
  bool copy_unsupported_ = false;  // copy_file_range failed once: use the buffer from then on
  std::unique_ptr<char[]> copy_buffer_;
  std::thread thread_;
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_WRITE_QUEUE_H_
