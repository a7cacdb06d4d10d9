// Reading objects: a read-ahead stream of ranged GETs, and positional reads.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <future>
#include <vector>

#include "io/buffered_input_stream.h"
#include "io/object_files.h"

namespace tfq {
namespace {

size_t EnvCount(const char* name, size_t fallback, size_t most) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  return (*end == '\0' && n > 0) ? static_cast<size_t>(std::min<unsigned long long>(n, most)) : fallback;
}

class ObjectInputStream final : public BufferedInputStream {
 public:
  ObjectInputStream(std::shared_ptr<const ObjectStore> store, std::string url, uint64_t size,
                    ReadPattern pattern)
      : BufferedInputStream(kChunk),
        store_(std::move(store)),
        url_(std::move(url)),
        size_(size),
        in_flight_(EnvCount("TFQ_OBJECT_READS_IN_FLIGHT", 8, 256)),
        block_bytes_(BlockBytes(size, in_flight_)),
        probing_(pattern == ReadPattern::kSkipping) {}

  ~ObjectInputStream() override {
    cancel_ = true;  // transfers in flight stop within a progress callback; futures join them
    blocks_.clear();
  }

  const std::string& name() const override { return url_; }

 private:
  static constexpr size_t kChunk = size_t{256} << 10;
  static constexpr size_t kProbeBytes = size_t{16} << 10;  // a record header, and more for small records

  // TFQ_OBJECT_READ_BLOCK_MIB, or less for an object too small to keep every read in flight busy
  // (a 16 MiB object in 2 MiB blocks with 8 in flight), but not under 256 KiB, where a request's
  // round trip would cost more than its bytes.
  static size_t BlockBytes(uint64_t size, size_t in_flight) {
    const uint64_t most = uint64_t{EnvCount("TFQ_OBJECT_READ_BLOCK_MIB", 4, 1024)} << 20;
    const uint64_t even = (size + in_flight - 1) / in_flight;
    return static_cast<size_t>(std::max<uint64_t>(std::min(most, even), uint64_t{256} << 10));
  }

  struct Block {
    uint64_t start = 0;
    size_t size = 0;
    std::unique_ptr<char[]> bytes;
    std::future<Status> done;
    bool waited = false;
    Status status;
  };

  Status Refill(char* dst, size_t capacity, size_t* produced) override {
    *produced = 0;
    if (offset_ >= size_) return Status::OK();
    if (probing_ && (probes_ == 0 || (offset_ - probed_from_) / probes_ >= block_bytes_)) {
      return Probe(dst, capacity, produced);
    }
    probing_ = false;  // the reader takes most bytes: streaming them in blocks costs less
    while (!blocks_.empty() && blocks_.front().start + blocks_.front().size <= offset_) Recycle();
    if (!blocks_.empty() && blocks_.front().start > offset_) {
      cancel_ = true;  // a jump back (never done by the readers) or out of the window: start over
      blocks_.clear();
      cancel_ = false;
    }
    if (blocks_.empty()) next_start_ = offset_;
    TopUp();
    Block& b = blocks_.front();
    if (!b.waited) {
      b.status = b.done.get();
      b.waited = true;
      TopUp();  // the next transfer starts before the caller works through this block
    }
    TFQ_RETURN_IF_ERROR(b.status);
    const size_t at = static_cast<size_t>(offset_ - b.start);
    const size_t n = std::min(capacity, b.size - at);
    std::memcpy(dst, b.bytes.get() + at, n);
    offset_ += n;
    *produced = n;
    return Status::OK();
  }

  uint64_t SkipUnread(uint64_t n) override {
    const uint64_t jump = std::min<uint64_t>(n, size_ - offset_);
    offset_ += jump;
    return jump;
  }

  // Header reads for a reader that skips (`inspect --count`): one small ranged GET at each place
  // the reader needs bytes, rather than blocks of every byte. That is cheaper while the reader
  // moves on by at least a block per probe on average (records of a block or more: no more
  // requests than streaming, and a fraction of the bytes); Refill streams once it does not.
  Status Probe(char* dst, size_t capacity, size_t* produced) {
    if (probes_ == 0) probed_from_ = offset_;
    const size_t n = static_cast<size_t>(std::min<uint64_t>({capacity, kProbeBytes, size_ - offset_}));
    TFQ_RETURN_IF_ERROR(store_->ReadRange(url_, offset_, n, dst, &cancel_));
    ++probes_;
    offset_ += n;
    *produced = n;
    return Status::OK();
  }

  // Starts transfers until in_flight_ are running (a block that was waited for is not running).
  void TopUp() {
    while (blocks_.size() - (!blocks_.empty() && blocks_.front().waited ? 1 : 0) < in_flight_ &&
           next_start_ < size_) {
      Launch();
    }
  }

  // Drops the first block, keeping its memory for a later one: fresh memory would cost a page
  // fault per 4 KiB of every block.
  void Recycle() {
    Block& b = blocks_.front();
    if (!b.waited) b.done.wait();  // skipped past unread: its transfer still writes to b.bytes
    if (b.size == block_bytes_) spare_.push_back(std::move(b.bytes));
    blocks_.pop_front();
  }

  void Launch() {
    Block b;
    b.start = next_start_;
    b.size = static_cast<size_t>(std::min<uint64_t>(block_bytes_, size_ - next_start_));
    if (b.size == block_bytes_ && !spare_.empty()) {
      b.bytes = std::move(spare_.back());
      spare_.pop_back();
    } else {
      b.bytes.reset(new char[b.size]);
    }
    next_start_ += b.size;
    char* dst = b.bytes.get();
    b.done = std::async(std::launch::async, [store = store_, url = url_, start = b.start, size = b.size,
                                             dst, cancel = &cancel_] {
      return store->ReadRange(url, start, size, dst, cancel);
    });
    blocks_.push_back(std::move(b));
  }

  const std::shared_ptr<const ObjectStore> store_;
  const std::string url_;
  const uint64_t size_;
  const size_t in_flight_;
  const size_t block_bytes_;
  bool probing_;             // reading headers with small GETs (Probe), not streaming blocks
  uint64_t probes_ = 0;
  uint64_t probed_from_ = 0;  // where the first probe started
  uint64_t offset_ = 0;      // the next byte Refill hands out
  uint64_t next_start_ = 0;  // the first byte no block covers yet
  std::atomic<bool> cancel_{false};
  std::deque<Block> blocks_;
  std::vector<std::unique_ptr<char[]>> spare_;  // memory of consumed blocks, of block_bytes_ each
};

class ObjectRandomAccessFile final : public RandomAccessFile {
 public:
  ObjectRandomAccessFile(std::shared_ptr<const ObjectStore> store, std::string url, uint64_t size)
      : RandomAccessFile(url, size), store_(std::move(store)) {}
  Status Read(uint64_t offset, size_t n, char* dst, size_t* got) const override {
    *got = 0;
    if (offset >= size()) return Status::OK();
    const size_t want = static_cast<size_t>(std::min<uint64_t>(n, size() - offset));
    TFQ_RETURN_IF_ERROR(store_->ReadRange(name(), offset, want, dst));
    *got = want;
    return Status::OK();
  }

 private:
  const std::shared_ptr<const ObjectStore> store_;
};

}  // namespace

Result<std::unique_ptr<InputStream>> OpenObjectInput(std::shared_ptr<const ObjectStore> store,
                                                     const std::string& url, ReadPattern pattern) {
  TFQ_ASSIGN_OR_RETURN(uint64_t size, store->Size(url));
  return std::unique_ptr<InputStream>(
      std::make_unique<ObjectInputStream>(std::move(store), url, size, pattern));
}

std::unique_ptr<RandomAccessFile> NewObjectRandomAccessFile(std::shared_ptr<const ObjectStore> store,
                                                            const std::string& url, uint64_t size) {
  return std::make_unique<ObjectRandomAccessFile>(std::move(store), url, size);
}

}  // namespace tfq
