// StringPool: spare std::string buffers, handed back by the stage that is done with a record and
// reused by the reader threads for the next records.
//
// Every record is an owned std::string once it leaves its reader thread, and most die on another
// thread (a parse thread). Without reuse each record costs a malloc on one thread and a free on
// another, and glibc serialises such frees on the allocating thread's arena lock; with it, steady
// reading allocates nothing. The pool is bounded in strings and in bytes of capacity, and keeps
// no string larger than max_string_bytes, so it never holds much more than the records in flight.
//
// Thread safety: all methods may be called from any thread.
#ifndef TFQ_PIPELINE_STRING_POOL_H_
#define TFQ_PIPELINE_STRING_POOL_H_

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

namespace tfq::pipeline {

class StringPool {
 public:
  StringPool(size_t max_strings, size_t max_bytes, size_t max_string_bytes)
      : max_strings_(max_strings), max_bytes_(max_bytes), max_string_bytes_(max_string_bytes) {}

  // Appends up to `n` spare strings (empty, with capacity) to *out.
  void Take(size_t n, std::vector<std::string>* out) {
    std::lock_guard<std::mutex> lock(mu_);
    while (n > 0 && !spare_.empty()) {
      bytes_ -= spare_.back().capacity();
      out->push_back(std::move(spare_.back()));
      spare_.pop_back();
      --n;
    }
  }

  // Keeps what fits of `strings` (cleared) and frees the rest; empties the vector.
  void Give(std::vector<std::string>* strings) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (std::string& s : *strings) {
        const size_t capacity = s.capacity();
        if (spare_.size() >= max_strings_ || bytes_ + capacity > max_bytes_) break;
        if (capacity > max_string_bytes_ || capacity < kMinUseful) continue;
        s.clear();
        bytes_ += capacity;
        spare_.push_back(std::move(s));
      }
    }
    strings->clear();  // frees what was not kept, outside the lock
  }

 private:
  // Strings within std::string's small buffer have no heap memory worth keeping.
  static constexpr size_t kMinUseful = 32;

  const size_t max_strings_;
  const size_t max_bytes_;
  const size_t max_string_bytes_;
  std::mutex mu_;
  std::vector<std::string> spare_;
  size_t bytes_ = 0;
};

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_STRING_POOL_H_
