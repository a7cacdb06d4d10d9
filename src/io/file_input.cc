// OpenInputFile: regular files are read with pread() at a tracked offset (cheap skips), everything
// else with large read() calls.
#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>

#include "io/buffered_input_stream.h"
#include "io/file_streams.h"
#include "io/read_ahead_file.h"
#include "io/window_file.h"

namespace tfq {
namespace {

// One read() asks for this much: few system calls per gigabyte, and a pipe's writer is never
// throttled by a small reader.
constexpr size_t kReadChunk = size_t{1} << 20;

// The mapping window of ReadPattern::kSkipping: few remaps per gigabyte, and a bound on the file
// pages held in the resident set.
constexpr size_t kSkippingMapWindow = size_t{256} << 20;

// A regular file, read with pread() at an offset the stream tracks. Sequential reading goes through
// a cache-sized buffer: measured here, read() + CRC beat mmap + CRC on page-cached files (a
// kernel copy into a hot buffer costs less than faulting in every page of a mapping). Skipping
// past the buffer only moves the offset, and the read after a skip is small (a reader that only
// skips is better served by a mapping: ReadPattern::kSkipping).
class RegularFileStream final : public BufferedInputStream {
 public:
  RegularFileStream(std::string name, int fd, uint64_t size)
      : BufferedInputStream(kRegularFileChunk), name_(std::move(name)), fd_(fd), size_(size) {}
  ~RegularFileStream() override { close(fd_); }
  const std::string& name() const override { return name_; }

 private:
  static constexpr size_t kRegularFileChunk = size_t{256} << 10;  // fits in L2 with its CRC pass
  static constexpr size_t kReadAfterSkip = 256;  // a header and then some

  Status Refill(char* dst, size_t capacity, size_t* produced) override {
    const size_t want = just_skipped_ ? std::min(capacity, kReadAfterSkip) : capacity;
    just_skipped_ = false;
    for (;;) {
      ssize_t n = pread(fd_, dst, want, static_cast<off_t>(offset_));
      if (n >= 0) {
        *produced = static_cast<size_t>(n);
        offset_ += static_cast<uint64_t>(n);
        return Status::OK();
      }
      if (errno != EINTR) return Status::FromErrno(name_, errno);
    }
  }

  uint64_t SkipUnread(uint64_t n) override {
    const uint64_t jump = offset_ >= size_ ? 0 : std::min<uint64_t>(n, size_ - offset_);
    offset_ += jump;
    just_skipped_ = true;
    return jump;
  }

  const std::string name_;
  const int fd_;
  const uint64_t size_;  // at open; a file that grows later is read only up to here by Skip
  uint64_t offset_ = 0;
  bool just_skipped_ = false;
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

int UsableCpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set);
}

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
  if (S_ISREG(st.st_mode) && pattern == ReadPattern::kSkipping) {
    return NewWindowedFileStream(path, fd, static_cast<uint64_t>(st.st_size), kSkippingMapWindow);
  }
  // A file of a few blocks is read before a thread would have started, and with one CPU the
  // reading thread would only take turns with its consumer.
  if (S_ISREG(st.st_mode) && pattern == ReadPattern::kReadAhead &&
      static_cast<uint64_t>(st.st_size) > 4 * kReadAheadBlockBytes && UsableCpus() > 1) {
    return NewReadAheadFileStream(path, fd);
  }
  if (S_ISREG(st.st_mode)) {
    return std::unique_ptr<InputStream>(
        std::make_unique<RegularFileStream>(path, fd, static_cast<uint64_t>(st.st_size)));
  }
  return std::unique_ptr<InputStream>(
      std::make_unique<ReadingFileStream>(path, fd, /*owns_fd=*/true));
}

}  // namespace tfq
