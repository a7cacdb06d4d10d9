// OpenInputFile: picks how a file is read from what it is (regular file or not) and how the caller
// will read it (ReadPattern).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>
#include <utility>

#include "common/cpus.h"
#include "io/buffered_input_stream.h"
#include "io/file_streams.h"
#include "io/file_system.h"
#include "io/paths.h"
#include "io/pread_file.h"
#include "io/read_ahead_file.h"

namespace tfq {
namespace {

// One read() asks for this much: few system calls per gigabyte, and a pipe's writer is never
// throttled by a small reader.
constexpr size_t kReadChunk = size_t{1} << 20;

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

}  // namespace

Result<std::unique_ptr<InputStream>> OpenInputFile(const std::string& path, ReadPattern pattern) {
  if (path == "-") {
    return std::unique_ptr<InputStream>(
        std::make_unique<ReadingFileStream>("<stdin>", STDIN_FILENO, /*owns_fd=*/false));
  }
  if (LooksLikeUrl(path)) {
    const FileSystem* fs = FileSystemForUrl(path);
    if (!fs) return UrlNotSupported(path);
    return fs->OpenInput(path, pattern);
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
  if (S_ISREG(st.st_mode)) return NewRegularFileStream(path, fd, static_cast<uint64_t>(st.st_size), pattern);
  return std::unique_ptr<InputStream>(
      std::make_unique<ReadingFileStream>(path, fd, /*owns_fd=*/true));
}

std::unique_ptr<InputStream> NewRegularFileStream(std::string path, int fd, uint64_t size,
                                                  ReadPattern pattern) {
  // A file of a few blocks is read before a thread would have started, and with one CPU the
  // reading thread would only take turns with its consumer.
  if (pattern == ReadPattern::kReadAhead && size > 4 * kReadAheadBlockBytes && UsableCpus() > 1) {
    return NewReadAheadFileStream(std::move(path), fd);
  }
  return NewPreadFileStream(std::move(path), fd, size);
}

}  // namespace tfq
