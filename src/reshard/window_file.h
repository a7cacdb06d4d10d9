// A regular file read through a sliding memory mapping, so that resident memory stays bounded.
//
// io/OpenInputFile maps a whole file: zero copy, but every page read stays mapped, and mapped
// file pages count in the process's resident set (`tfq inspect` of a 4 GB file peaks at 4 GB
// RSS). `tfq shuffle` promises a peak RSS within --memory, so it reads through a window of a few
// MiB instead: still zero copy, and a page leaves the resident set when the window moves past
// it (it stays in the page cache). The window grows when one Peek asks for more (a record larger
// than the window). Moving the window costs an munmap, which in a multi-threaded process means a
// TLB shootdown (an inter-processor interrupt; expensive in a VM): callers running other threads
// meanwhile use a larger window (InputOptions::map_window).
//
// Views returned by Peek live until the next non-const call (the InputStream contract); here
// they really die then, because moving the window unmaps them. As with any mmap reader, the file
// must not shrink while it is read (the process would get SIGBUS).
#ifndef TFQ_RESHARD_WINDOW_FILE_H_
#define TFQ_RESHARD_WINDOW_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/status.h"
#include "io/input_stream.h"

namespace tfq::reshard {

// The default window: large enough that remapping costs nothing measurable, small enough to be
// part of the constant in the memory bound of docs/shuffle.md.
constexpr size_t kDefaultMapWindow = size_t{8} << 20;

// Takes ownership of `fd`, an open regular file of `size` bytes; errors name `path`.
std::unique_ptr<InputStream> NewWindowedFileStream(std::string path, int fd, uint64_t size,
                                                   size_t window = kDefaultMapWindow);

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_WINDOW_FILE_H_
