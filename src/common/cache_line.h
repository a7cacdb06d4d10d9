// CacheAligned<T>: a T that starts on a cache line of its own and shares none with its neighbours,
// for per-thread state kept side by side (a std::vector of them, one element per thread).
//
// Why: objects that threads update on every item (a parser's scratch vectors, their size and end
// pointers) placed back to back in one array share the cache line at each boundary, and two cores
// writing one line pass it back and forth. Whether a boundary splits a line depends on where the
// array happens to be allocated, so the cost comes and goes between runs (docs/benchmarks.md,
// "False sharing in tfq bench parse-example": it halved a 2-thread benchmark).
#ifndef TFQ_COMMON_CACHE_LINE_H_
#define TFQ_COMMON_CACHE_LINE_H_

#include <cstddef>

namespace tfq {

// 64 bytes on x86-64 and most ARM cores; twice that keeps the adjacent-line prefetcher (which
// pulls lines in pairs) from coupling neighbours too.
constexpr size_t kCacheLineBytes = 128;

template <typename T>
struct alignas(kCacheLineBytes) CacheAligned {
  T value;
};

}  // namespace tfq

#endif  // TFQ_COMMON_CACHE_LINE_H_
