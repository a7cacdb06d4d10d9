// OpenInputFile: regular files are memory-mapped, everything else is read with large read() calls.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>

#include "io/buffered_input_stream.h"
#include "io/file_streams.h"
#include "io/span_input_stream.h"

namespace tfq {
namespace {

// One read() asks for this much: few system calls per gigabyte, and a pipe's writer is never
// throttled by a small reader.
constexpr size_t kReadChunk = size_t{1} << 20;

// A read-only mapping of a whole regular file. Pages are touched only when their bytes are
// looked at, so Skip over a record costs nothing.
class MappedFileStream final : public SpanInputStream {
 public:
  MappedFileStream(std::string name, void* mapping, size_t size)
      : SpanInputStream(std::move(name)), mapping_(mapping), size_(size) {
    SetSpan(std::string_view(static_cast<const char*>(mapping), size));
  }
  ~MappedFileStream() override {
    if (mapping_ != nullptr) munmap(mapping_, size_);
  }

 private:
  void* const mapping_;  // nullptr for an empty file (mmap rejects length 0)
  const size_t size_;
};

// Standard input, pipes, FIFOs, terminals, character devices.
class ReadingFileStream final : public BufferedInputStream {
 public:
  ReadingFileStream(std::string name, int fd, bool owns_fd)
      : BufferedInputStream(kReadChunk), name_(std::move(name)), fd_(fd), owns_fd_(owns_fd) {}
  ~ReadingFileStream() override {
    if (owns_fd_) close(fd_);
  }
  const std::string& name() const override { return name_; }

 private:
  Status Refill(char* dst, size_t capacity, size_t* produced) override {
    for (;;) {
      ssize_t n = read(fd_, dst, capacity);
      if (n >= 0) {
        *produced = static_cast<size_t>(n);
        return Status::OK();
      }
      if (errno != EINTR) return Status::FromErrno(name_, errno);
    }
  }

  const std::string name_;
  const int fd_;
  const bool owns_fd_;
};

int OpenRetryingEintr(const char* path) {
  for (;;) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0 || errno != EINTR) return fd;
  }
}

Result<std::unique_ptr<InputStream>> MapRegularFile(const std::string& path, int fd,
                                                     const struct stat& st) {
  size_t size = static_cast<size_t>(st.st_size);
  void* mapping = nullptr;
  if (size > 0) {
    mapping = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapping == MAP_FAILED) {
      int err = errno;
      close(fd);
      return Status::FromErrno(path + ": cannot map", err);
    }
    // Only a hint: read-ahead pays off because records are read front to back.
    madvise(mapping, size, MADV_SEQUENTIAL);
  }
  close(fd);  // the mapping keeps the file open
  return std::unique_ptr<InputStream>(std::make_unique<MappedFileStream>(path, mapping, size));
}

}  // namespace

Result<std::unique_ptr<InputStream>> OpenInputFile(const std::string& path) {
  if (path == "-") {
    return std::unique_ptr<InputStream>(
        std::make_unique<ReadingFileStream>("<stdin>", STDIN_FILENO, /*owns_fd=*/false));
  }
  int fd = OpenRetryingEintr(path.c_str());
  if (fd < 0) return Status::FromErrno(path, errno);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    return Status::FromErrno(path, err);
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return Status::InvalidArgument(path + ": is a directory");
  }
  if (S_ISREG(st.st_mode)) return MapRegularFile(path, fd, st);
  return std::unique_ptr<InputStream>(
      std::make_unique<ReadingFileStream>(path, fd, /*owns_fd=*/true));
}

}  // namespace tfq
