// A regular file read through a sliding memory mapping: zero copy, with bounded resident memory.
//
// Two readers want a mapping rather than OpenInputFile's pread buffer:
//  - `tfq shard` / `tfq shuffle` hand records on without copying them. Mapped file pages count in
//    the process's resident set while mapped, and `tfq shuffle` promises a peak RSS within
//    --memory, so the mapping is a window of a few MiB that moves along: a page leaves the
//    resident set when the window moves past it (it stays in the page cache).
//  - `tfq inspect --count` steps from header to header, and where the page cache holds the file
//    in large folios one page fault maps a whole folio (up to 2 MiB) where pread costs a system
//    call per header (io/skipping_file.h measures which is cheaper).
// The window grows when one Peek asks for more (a record larger than the window). Moving the
// window costs an munmap, which in a multi-threaded process means a TLB shootdown (an
// inter-processor interrupt; expensive in a VM): callers running other threads meanwhile use a
// larger window (reshard's InputOptions::map_window).
//
// Views returned by Peek live until the next non-const call (the InputStream contract); here
// they really die then, because moving the window unmaps them. As with any mmap reader, the file
// must not shrink while it is read (the process would get SIGBUS).
#ifndef TFQ_IO_WINDOW_FILE_H_
#define TFQ_IO_WINDOW_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/status.h"
#include "io/input_stream.h"

namespace tfq {

// The default window: large enough that remapping costs nothing measurable, small enough to be
// part of the constant in the memory bound of docs/shuffle.md.
constexpr size_t kDefaultMapWindow = size_t{8} << 20;

// Takes ownership of `fd`, an open regular file of `size` bytes; errors name `path`.
std::unique_ptr<InputStream> NewWindowedFileStream(std::string path, int fd, uint64_t size,
                                                   size_t window = kDefaultMapWindow);

}  // namespace tfq

#endif  // TFQ_IO_WINDOW_FILE_H_
