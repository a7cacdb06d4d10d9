#include "common/page_buffer_pool.h"

#include <map>
#include <mutex>
#include <vector>

#include "common/page_buffer.h"

namespace tfq {
namespace {

class Pool {
 public:
  char* Take(size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = spare_.find(bytes);
    if (it == spare_.end() || it->second.empty()) return nullptr;
    char* p = it->second.back();
    it->second.pop_back();
    spare_bytes_ -= bytes;
    return p;
  }

  // Keeps `p` or frees it.
  void Give(char* p, size_t bytes) {
    if (bytes <= kMaxPooledBytes) {
      std::lock_guard<std::mutex> lock(mu_);
      if (spare_bytes_ + bytes <= kMaxSpareBytes) {
        spare_[bytes].push_back(p);
        spare_bytes_ += bytes;
        return;
      }
    }
    FreeDeleter()(p);
  }

 private:
  std::mutex mu_;
  std::map<size_t, std::vector<char*>> spare_;  // by size
  size_t spare_bytes_ = 0;
};

// Never destroyed: buffers may be released by threads still running at exit.
Pool& TheSharedPool() {
  static Pool* pool = new Pool();
  return *pool;
}

}  // namespace

std::shared_ptr<char> GetSharedPageBuffer(size_t bytes) {
  const size_t rounded = (bytes + kPageBytes - 1) / kPageBytes * kPageBytes;
  char* p = TheSharedPool().Take(rounded);
  if (p == nullptr) p = AllocatePageBuffer(rounded).release();
  return std::shared_ptr<char>(p, [rounded](char* released) { TheSharedPool().Give(released, rounded); });
}

}  // namespace tfq
