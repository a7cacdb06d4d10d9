// Bytes read at offsets, for random access into record files: a regular file read with pread(2),
// or an object behind a URL read with ranged GETs (io/file_system.h).
//
// Reads carry their own offset and touch no shared state, so one RandomAccessFile may be read
// from several threads at once. The destructor releases the descriptor.
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
  // A URL opens through its scheme's FileSystem.
  static Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path);
  virtual ~RandomAccessFile() = default;
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  // Reads up to `n` bytes at `offset` into `dst` and sets *got; fewer only at the end of the file.
  // Thread-safe.
  virtual Status Read(uint64_t offset, size_t n, char* dst, size_t* got) const = 0;

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

}  // namespace tfq

#endif  // TFQ_IO_RANDOM_ACCESS_FILE_H_
