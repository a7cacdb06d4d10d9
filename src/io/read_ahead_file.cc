#include "io/read_ahead_file.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "common/page_buffer.h"
#include "common/status.h"

namespace tfq {
namespace {

// At most about 50-100 us of spinning (PAUSE takes tens of cycles on current x86 cores); a block
// is read in about 20 us.
constexpr int kSpinLimit = 2048;
constexpr int kSpinsPerYield = 64;

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

struct Block {
  PageBuffer bytes;  // filled from a multiple of its size: the fast case (common/page_buffer.h)
  size_t size = 0;  // bytes filled
};

class ReadAheadFileStream final : public InputStream {
 public:
  ReadAheadFileStream(std::string name, int fd, size_t block_bytes, size_t blocks)
      : name_(std::move(name)), fd_(fd), block_bytes_(block_bytes), blocks_(std::max<size_t>(blocks, 1)) {
    for (size_t i = 0; i < blocks_; ++i) {
      free_.push_back(Block{AllocatePageBuffer(block_bytes_), 0});
    }
    try {
      reader_ = std::thread(&ReadAheadFileStream::ReadLoop, this);
    } catch (const std::system_error&) {
      // No thread to be had (a resource limit): read on the consumer's thread instead.
    }
  }

  ~ReadAheadFileStream() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    free_cv_.notify_all();
    if (reader_.joinable()) reader_.join();
    close(fd_);
  }

  Status Peek(size_t min_bytes, std::string_view* available) override {
    for (;;) {
      const size_t in_stitch = stitch_.size() - stitch_pos_;
      const size_t in_block = current_.size - current_pos_;
      if (in_stitch == 0) {
        if (in_block >= min_bytes || ended_) {
          *available = std::string_view(current_.bytes.get() + current_pos_, in_block);
          return in_block >= min_bytes ? Status::OK() : error_;
        }
        if (in_block == 0) {
          NextBlock();
          continue;
        }
        // The bytes asked for straddle the end of this block: gather them in the stitch buffer.
        stitch_.assign(current_.bytes.get() + current_pos_, in_block);
        stitch_pos_ = 0;
        current_pos_ = current_.size;
        continue;
      }
      if (in_stitch >= min_bytes || ended_) {
        *available = std::string_view(stitch_).substr(stitch_pos_);
        return in_stitch >= min_bytes ? Status::OK() : error_;
      }
      if (in_block == 0) {
        NextBlock();
        continue;
      }
      if (stitch_pos_ > 0) {
        stitch_.erase(0, stitch_pos_);
        stitch_pos_ = 0;
      }
      const size_t take = std::min(in_block, min_bytes - in_stitch);
      stitch_.append(current_.bytes.get() + current_pos_, take);
      current_pos_ += take;
    }
  }

  void Consume(size_t n) override {
    if (stitch_pos_ < stitch_.size()) {
      assert(n <= stitch_.size() - stitch_pos_);
      stitch_pos_ += n;
    } else {
      assert(n <= current_.size - current_pos_);
      current_pos_ += n;
    }
    position_ += n;
  }

  Status Skip(uint64_t n, uint64_t* skipped) override {
    // Reads through: the bytes are on their way already, and a reader that skips much should
    // have asked for ReadPattern::kSkipping.
    uint64_t done = 0;
    while (done < n) {
      std::string_view view;
      Status s = Peek(1, &view);
      if (view.empty()) {
        *skipped = done;
        return s;
      }
      const size_t k = static_cast<size_t>(std::min<uint64_t>(view.size(), n - done));
      Consume(k);
      done += k;
    }
    *skipped = done;
    return Status::OK();
  }

  uint64_t position() const override { return position_; }
  const std::string& name() const override { return name_; }

 private:
  // Fills `block` from `*offset` on: a full block, or less at the end of the file or before an
  // error. Sets *at_end when nothing follows.
  Status ReadBlock(Block& block, uint64_t* offset, bool* at_end) {
    block.size = 0;
    *at_end = false;
    while (block.size < block_bytes_) {
      const ssize_t n = pread(fd_, block.bytes.get() + block.size, block_bytes_ - block.size,
                              static_cast<off_t>(*offset));
      if (n > 0) {
        block.size += static_cast<size_t>(n);
        *offset += static_cast<uint64_t>(n);
      } else if (n == 0) {
        *at_end = true;
        return Status::OK();
      } else if (errno != EINTR) {
        *at_end = true;
        return Status::FromErrno(name_, errno);
      }
    }
    return Status::OK();
  }

  // The reading thread: fills free blocks in file order until the end, an error or stop_. Once
  // every block is full it sleeps until half of them are free again: one wake-up per few blocks.
  void ReadLoop() {
    uint64_t offset = 0;
    const size_t wake_at = std::max<size_t>(1, blocks_ / 2);
    for (;;) {
      Block block;
      {
        std::unique_lock<std::mutex> lock(mu_);
        if (free_.empty()) {
          reader_waiting_ = true;
          free_cv_.wait(lock, [&] { return stop_ || free_.size() >= wake_at; });
          reader_waiting_ = false;
        }
        if (stop_) return;
        block = std::move(free_.front());
        free_.pop_front();
      }
      bool at_end = false;
      Status s = ReadBlock(block, &offset, &at_end);
      {
        std::lock_guard<std::mutex> lock(mu_);
        filled_.push_back(std::move(block));  // possibly empty: the consumer skips it
        if (at_end) {
          reader_done_ = true;
          reader_status_ = std::move(s);
        }
        published_.fetch_add(1, std::memory_order_release);
      }
      filled_cv_.notify_one();
      if (at_end) return;
    }
  }

  // Hands the current block back and makes the next filled one current, or sets ended_ (and
  // error_) when none follows. When the consumer has caught up with the reader it spins for a
  // while before sleeping: a sleep and wake-up per block cost more than reading the block in a
  // VM (verifying took 1.1-1.4x as long, measured here).
  void NextBlock() {
    if (ended_) return;
    if (!reader_.joinable()) return NextBlockInline();
    for (int spin = 1; spin <= kSpinLimit && published_.load(std::memory_order_acquire) == taken_;
         ++spin) {
      // Now and then give the core away, in case the reader is waiting for this very core (every
      // other core busy): then it reads while this thread waits, instead of after.
      if (spin % kSpinsPerYield == 0) {
        sched_yield();
      } else {
        CpuRelax();
      }
    }
    std::unique_lock<std::mutex> lock(mu_);
    if (current_.bytes) {
      free_.push_back(std::move(current_));
      if (reader_waiting_ && free_.size() >= std::max<size_t>(1, blocks_ / 2)) {
        free_cv_.notify_one();
      }
    }
    filled_cv_.wait(lock, [&] { return !filled_.empty() || reader_done_; });
    if (filled_.empty()) {
      ended_ = true;
      error_ = reader_status_;
      current_ = Block{};
    } else {
      current_ = std::move(filled_.front());
      filled_.pop_front();
      ++taken_;
    }
    current_pos_ = 0;
  }

  // NextBlock without a reading thread: reads into the current block in place.
  void NextBlockInline() {
    if (!current_.bytes) {
      current_ = std::move(free_.front());
      free_.pop_front();
    }
    current_pos_ = 0;
    current_.size = 0;
    if (!inline_done_) {
      bool at_end = false;
      Status s = ReadBlock(current_, &inline_offset_, &at_end);
      if (at_end) {
        inline_done_ = true;
        inline_status_ = std::move(s);  // handed out after this block's bytes
      }
    }
    if (current_.size == 0) {
      ended_ = true;
      error_ = inline_status_;
    }
  }

  const std::string name_;
  const int fd_;
  const size_t block_bytes_;
  const size_t blocks_;

  // Shared with the reading thread.
  std::mutex mu_;
  std::condition_variable filled_cv_;  // the consumer waits for a filled block or the end
  std::condition_variable free_cv_;    // the reader waits for a free block or stop_
  std::deque<Block> free_;
  std::deque<Block> filled_;
  bool reader_done_ = false;
  Status reader_status_;
  bool stop_ = false;
  bool reader_waiting_ = false;
  std::atomic<uint64_t> published_{0};  // blocks (and the end) handed to filled_, for spinning
  uint64_t taken_ = 0;                  // the consumer's: blocks taken from filled_

  // The consumer's: the logical stream is stitch_[stitch_pos_..], then current_[current_pos_..],
  // then the filled blocks.
  Block current_;
  size_t current_pos_ = 0;
  std::string stitch_;
  size_t stitch_pos_ = 0;
  bool ended_ = false;
  Status error_;
  uint64_t position_ = 0;
  // Without a reading thread: where the next block starts, and how reading ended.
  uint64_t inline_offset_ = 0;
  bool inline_done_ = false;
  Status inline_status_;

  std::thread reader_;  // last: starts once everything above is initialised
};

}  // namespace

std::unique_ptr<InputStream> NewReadAheadFileStream(std::string path, int fd, size_t block_bytes,
                                                    size_t blocks) {
  return std::make_unique<ReadAheadFileStream>(std::move(path), fd, block_bytes, blocks);
}

}  // namespace tfq
