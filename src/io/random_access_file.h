// Bytes read at offsets, for random access into record files: a regular file read with pread(2),
// or an object behind a URL read with ranged GETs (io/file_system.h).
//
// Reads carry their own offset and touch no shared state, so one RandomAccessFile may be read
// from several threads at once. The destructor releases the descriptor.
//
// The local file keeps its fast paths behind this interface: a sequential stream over the same
// open file (OpenStream: read-ahead thread, pread buffer), kernel hints (WillNeed, Open's
// options), and copies of a range into a local output inside the kernel (AppendRangeTo:
// copy_file_range, as `cp` does) where other sources copy through a buffer.
#ifndef TFQ_IO_RANDOM_ACCESS_FILE_H_
#define TFQ_IO_RANDOM_ACCESS_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/page_buffer.h"
#include "common/status.h"
#include "io/file_streams.h"
#include "io/input_stream.h"

namespace tfq {

// How a caller will read a local file; object stores ignore both.
struct RandomAccessOptions {
  // Read again and again, a record at a time (the re-reading shuffles): no access-time update
  // per read (O_NOATIME; the kernel allows it only for the file's owner, so it is dropped
  // silently where refused).
  bool no_access_time = false;
  // Reads jump around: the kernel's read-ahead would fetch neighbours for nothing.
  bool random_order = false;
};

// What AppendRangeTo keeps from one copy to the next: one per thread that copies.
struct RangeCopyScratch {
  bool kernel_copy_refused = false;  // copy_file_range failed once (across file systems): buffer from then on
  PageBuffer buffer;                  // for copies through user memory, allocated on first use
};

class RandomAccessFile {
 public:
  // Errors name `path`: missing (kNotFound), a directory, or not a regular file (standard input,
  // a pipe: kInvalidArgument, as random access needs a file that can be read at any offset).
  // A URL opens through its scheme's FileSystem.
  static Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path,
                                                        const RandomAccessOptions& options = {});
  virtual ~RandomAccessFile() = default;
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  // Reads up to `n` bytes at `offset` into `dst` and sets *got; fewer only at the end of the file.
  // Thread-safe.
  virtual Status Read(uint64_t offset, size_t n, char* dst, size_t* got) const = 0;

  // Reads exactly `n` bytes at `offset`; a file that ends first is kIoError
  // ("NAME: ends before byte N (was it truncated by someone else?)"). Thread-safe.
  Status ReadExactly(uint64_t offset, size_t n, char* dst) const;

  // The size now, which for a local file may differ from size() (grown or truncated since).
  virtual Result<uint64_t> CurrentSize() const { return size_; }

  // A hint that [offset, offset + n) is read soon: a local file asks the kernel to fetch it into
  // the page cache in the background. Does nothing elsewhere.
  virtual void WillNeed(uint64_t offset, uint64_t n) const {
    (void)offset;
    (void)n;
  }

  // A sequential stream over the same bytes from offset 0, read as OpenInputFile reads with
  // `pattern`; it stays valid after this handle is destroyed. A local file shares the open file
  // (no second lookup of the path that could find another file).
  virtual Result<std::unique_ptr<InputStream>> OpenStream(ReadPattern pattern) const;

  // Appends bytes [offset, offset + n) to `out_fd`, a local output open for writing at its end
  // (not owned). From a local file inside the kernel (copy_file_range), falling back for good
  // (scratch->kernel_copy_refused) to reads through scratch->buffer where the kernel cannot (across
  // file systems); from other sources through the buffer. Returns 0 or the errno that stopped it:
  // EIO when the source ends early (it shrank) or a read of a non-local source failed. Thread-safe
  // with one scratch per thread.
  virtual int AppendRangeTo(int out_fd, uint64_t offset, uint64_t n, RangeCopyScratch* scratch) const;
  // The size when opened.
  uint64_t size() const { return size_; }

  // A whole (small) regular file read into memory: an index beside a data file.
  static Result<std::string> ReadAll(const std::string& path);
  const std::string& name() const { return name_; }

 protected:
  RandomAccessFile(std::string name, uint64_t size) : name_(std::move(name)), size_(size) {}

 private:
  const std::string name_;
  const uint64_t size_;
};

// A RandomAccessFile over bytes held in memory (tests, fuzzers); OpenStream gives a memory
// stream over the same bytes.
std::unique_ptr<RandomAccessFile> NewMemoryRandomAccessFile(std::string name, std::string bytes);

}  // namespace tfq

#endif  // TFQ_IO_RANDOM_ACCESS_FILE_H_
