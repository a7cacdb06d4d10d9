// A regular file read at offsets with pread(2), for random access into record files.
//
// Reads carry their own offset and touch no shared state, so one RandomAccessFile may be read
// from several threads at once. The descriptor is closed by the destructor.
#ifndef TFQ_IO_RANDOM_ACCESS_FILE_H_
#define TFQ_IO_RANDOM_ACCESS_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/status.h"

namespace tfq {

class RandomAccessFile {
 public:
  // Errors name `path`: missing (kNotFound), a directory, or not a regular file (standard input,
  // a pipe: kInvalidArgument, as random access needs a file that can be read at any offset).
  static Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path);
  ~RandomAccessFile();
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  // Reads up to `n` bytes at `offset` into `dst` and sets *got; fewer only at the end of the file.
  // Thread-safe.
  Status Read(uint64_t offset, size_t n, char* dst, size_t* got) const;

  // The size when opened.
  uint64_t size() const { return size_; }

  // A whole (small) regular file read into memory: an index beside a data file.
  static Result<std::string> ReadAll(const std::string& path);
  const std::string& name() const { return name_; }

 private:
  RandomAccessFile(std::string name, int fd, uint64_t size)
      : name_(std::move(name)), fd_(fd), size_(size) {}
  const std::string name_;
  const int fd_;
  const uint64_t size_;
};

}  // namespace tfq

#endif  // TFQ_IO_RANDOM_ACCESS_FILE_H_
