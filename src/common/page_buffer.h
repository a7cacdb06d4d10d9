// PageBuffer: heap memory that starts on a page boundary, for the buffers the kernel copies file
// data into or out of (read, pread, write).
//
// Why: the kernel copies between the page cache and user memory with `rep movsb`, and on some
// CPUs that instruction is several times slower when the destination lies 1 to 31 bytes past
// the source modulo 4 KiB (it cannot rule out an overlap from the low address bits alone).
// Measured on AMD EPYC Zen 3 (Linux 6.18): reading a cached file in 512 KiB preads took 0.12 s
// per GiB into a page-aligned buffer and 0.44 s per GiB into one 16 bytes past a page, which is
// where glibc's malloc puts every block of 128 KiB or more (it serves those with mmap, behind a
// 16-byte header). Writing is hit the same way, with source and destination swapped.
//
// So a buffer filled from, or written to, file offset F should start at an address congruent to
// F modulo the page size: a PageBuffer holds reads and writes at page-aligned offsets, and
// PlaceAt(offset) gives the spot in it for a read at any other offset (allocate kPageBytes
// more for that). Other CPUs lose nothing.
//
// Thread safety: none; it is a unique_ptr.
#ifndef TFQ_COMMON_PAGE_BUFFER_H_
#define TFQ_COMMON_PAGE_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace tfq {

constexpr size_t kPageBytes = 4096;

struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};
using PageBuffer = std::unique_ptr<char[], FreeDeleter>;

// `bytes` of uninitialized memory starting on a page boundary; throws std::bad_alloc like new.
inline PageBuffer AllocatePageBuffer(size_t bytes) {
  const size_t rounded = (bytes + kPageBytes - 1) / kPageBytes * kPageBytes;
  void* p = std::aligned_alloc(kPageBytes, rounded == 0 ? kPageBytes : rounded);
  if (p == nullptr) throw std::bad_alloc();
  return PageBuffer(static_cast<char*>(p));
}

// Where in a page-aligned buffer a read from file offset `file_offset` should land: at the same
// offset within a page as its source, the fast case for the kernel's copy. Up to kPageBytes - 1
// bytes past `page_aligned`.
inline char* PlaceAt(char* page_aligned, uint64_t file_offset) {
  return page_aligned + (file_offset % kPageBytes);
}

}  // namespace tfq

#endif  // TFQ_COMMON_PAGE_BUFFER_H_
