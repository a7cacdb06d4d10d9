// A regular file read through a sliding memory mapping: zero copy, with bounded resident memory.
//
// `tfq inspect --count` steps from header to header, and where the page cache holds the file in
// large folios one page fault maps a whole folio (up to 2 MiB) where pread costs a system call
// per header (io/skipping_file.h measures which is cheaper). Readers that want every byte use
// pread instead (io/pread_file.h): copying into a cache-hot buffer costs less than the faults.
// Mapped file pages count in the resident set while mapped, so the mapping is a window that
// moves along: a page leaves the resident set when the window moves past it (it stays in the
// page cache). The window grows when one Peek asks for more. Moving the window costs an munmap,
// which in a multi-threaded process means a TLB shootdown (an inter-processor interrupt;
// expensive in a VM).
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

// Takes ownership of `fd`, an open regular file of `size` bytes, mapped `window` bytes at a time
// (more for a larger Peek); errors name `path`.
std::unique_ptr<InputStream> NewWindowedFileStream(std::string path, int fd, uint64_t size, size_t window);

}  // namespace tfq

#endif  // TFQ_IO_WINDOW_FILE_H_
