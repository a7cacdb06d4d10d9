#include "io/window_file.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace tfq {
namespace {

class WindowedFileStream final : public InputStream {
 public:
  WindowedFileStream(std::string path, int fd, uint64_t size, size_t window)
      : path_(std::move(path)), fd_(fd), size_(size), window_(window) {}
  ~WindowedFileStream() override {
    Unmap();
    close(fd_);
  }

  Status Peek(size_t min_bytes, std::string_view* available) override {
    // An empty view means "end of stream", so even Peek(0) must show a byte if there is one.
    const uint64_t want = std::min<uint64_t>(pos_ + std::max<size_t>(min_bytes, 1), size_);
    if (want > map_end_ || pos_ < map_start_) TFQ_RETURN_IF_ERROR(Remap(want - pos_));
    if (pos_ >= map_end_) {
      *available = {};
    } else {
      *available = std::string_view(map_ + (pos_ - map_start_), map_end_ - pos_);
    }
    return Status::OK();
  }

  void Consume(size_t n) override { pos_ += n; }

  Status Skip(uint64_t n, uint64_t* skipped) override {
    *skipped = std::min<uint64_t>(n, size_ - pos_);
    pos_ += *skipped;
    return Status::OK();
  }

  uint64_t position() const override { return pos_; }
  const std::string& name() const override { return path_; }

 private:
  // Maps at least `need` bytes from the current position (fewer at the end of the file).
  Status Remap(uint64_t need) {
    if (!error_.ok()) return error_;
    Unmap();
    static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    const uint64_t start = pos_ / page * page;
    const uint64_t end = std::min<uint64_t>(size_, std::max<uint64_t>(pos_ + need, start + window_));
    if (end <= start) return Status::OK();  // at the end: nothing to map
    // Shared, though nothing is written: read faults on a private file mapping were seen to map
    // large page-cache folios with page table entries where a shared one maps them whole (about
    // 2,100 against 1,500 faults for a 2 GiB walk).
    void* p = mmap(nullptr, end - start, PROT_READ, MAP_SHARED, fd_, static_cast<off_t>(start));
    if (p == MAP_FAILED) {
      error_ = Status::FromErrno(path_ + ": cannot map bytes " + std::to_string(start) + " to " +
                                     std::to_string(end),
                                 errno);
      return error_;
    }
    madvise(p, end - start, MADV_SEQUENTIAL);  // read-ahead from disk as pages are touched
    map_ = static_cast<const char*>(p);
    map_start_ = start;
    map_end_ = end;
    return Status::OK();
  }

  void Unmap() {
    if (map_ != nullptr) munmap(const_cast<char*>(map_), map_end_ - map_start_);
    map_ = nullptr;
    map_start_ = map_end_ = 0;
  }

  const std::string path_;
  const int fd_;
  const uint64_t size_;
  const size_t window_;
  const char* map_ = nullptr;
  uint64_t map_start_ = 0;  // file offsets of the mapped window
  uint64_t map_end_ = 0;
  uint64_t pos_ = 0;
  Status error_;
};

}  // namespace

std::unique_ptr<InputStream> NewWindowedFileStream(std::string path, int fd, uint64_t size,
                                                   size_t window) {
  return std::make_unique<WindowedFileStream>(std::move(path), fd, size, window);
}

}  // namespace tfq
