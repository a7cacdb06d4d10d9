#include "io/pread_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "io/buffered_input_stream.h"

namespace tfq {
namespace {

class PreadFileStream final : public BufferedInputStream {
 public:
  PreadFileStream(std::string name, int fd, uint64_t size)
      : BufferedInputStream(kChunk), name_(std::move(name)), fd_(fd), size_(size) {}
  ~PreadFileStream() override { close(fd_); }
  const std::string& name() const override { return name_; }

 private:
  static constexpr size_t kChunk = size_t{256} << 10;  // fits in L2 with its CRC pass
  static constexpr size_t kReadAfterLongJump = 256;    // a header and then some
  // A system call costs about as much as copying this many page-cached bytes (a few tenths of a
  // microsecond, measured here): jumps longer than this are worth a small read after them.
  static constexpr uint64_t kLongJump = uint64_t{16} << 10;

  Status Refill(char* dst, size_t capacity, size_t* produced) override {
    const size_t want = after_long_jump_ ? std::min(capacity, kReadAfterLongJump) : capacity;
    after_long_jump_ = false;
    for (;;) {
      ssize_t n = pread(fd_, dst, want, static_cast<off_t>(offset_));
      if (n == 0 && offset_ < size_) return Shrank();
      if (n >= 0) {
        *produced = static_cast<size_t>(n);
        offset_ += static_cast<uint64_t>(n);
        return Status::OK();
      }
      if (errno != EINTR) return Status::FromErrno(name_, errno);
    }
  }

  // The file ends before the size it had when opened: another process truncated it. An error
  // naming the file, not a cut-short TFRecord: the data may be fine, the read was not.
  Status Shrank() const {
    struct stat st;
    const std::string now =
        fstat(fd_, &st) == 0 ? std::to_string(st.st_size) + " now" : "fewer now";
    return Status::IoError(name_ + ": the file shrank while it was read (" +
                           std::to_string(size_) + " bytes when opened, " + now +
                           "); read it again once nothing is writing to it");
  }

  uint64_t SkipUnread(uint64_t n) override {
    const uint64_t jump = offset_ >= size_ ? 0 : std::min<uint64_t>(n, size_ - offset_);
    offset_ += jump;
    after_long_jump_ = jump >= kLongJump;
    return jump;
  }

  const std::string name_;
  const int fd_;
  const uint64_t size_;  // at open; a file that grows later is read only up to here by Skip
  uint64_t offset_ = 0;
  bool after_long_jump_ = false;
};

}  // namespace

std::unique_ptr<InputStream> NewPreadFileStream(std::string path, int fd, uint64_t size) {
  return std::make_unique<PreadFileStream>(std::move(path), fd, size);
}

}  // namespace tfq
