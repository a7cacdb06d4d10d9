// SharedPageBuffers: a process-wide pool of page-aligned buffers (common/page_buffer.h) handed out
// as shared pointers that come back to the pool when their last holder lets go.
//
// Why: a stream whose buffer is pinned (InputStream::PinBuffer: the pipeline hands records on as
// views of it) must continue in another buffer, and the pinned one is released later on another
// thread. Allocating each anew puts every byte read into fresh pages (a page fault per 4 KiB), and
// a pool per stream starts empty with every file. One pool shared by all streams keeps the pages
// warm (docs/benchmarks.md, "reader-batcher").
//
// Only buffers of at most kMaxPooledBytes are kept, and at most kMaxSpareBytes of them in all; the
// rest are freed.
//
// Thread safety: all of it.
#ifndef TFQ_COMMON_PAGE_BUFFER_POOL_H_
#define TFQ_COMMON_PAGE_BUFFER_POOL_H_

#include <cstddef>
#include <memory>

namespace tfq {

constexpr size_t kMaxPooledBytes = size_t{2} << 20;
constexpr size_t kMaxSpareBytes = size_t{64} << 20;

// `bytes` (rounded up to whole pages) of page-aligned memory, uninitialized.
std::shared_ptr<char> GetSharedPageBuffer(size_t bytes);

}  // namespace tfq

#endif  // TFQ_COMMON_PAGE_BUFFER_POOL_H_
