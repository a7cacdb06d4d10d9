// A regular file read by a reader that only steps from header to header (`tfq inspect --count`),
// through a mapping or with pread, whichever the page cache makes cheaper (internal to src/io).
//
// Which way is cheaper depends on how the page cache holds the file, not on the file:
//  - Through a mapping, reaching the next header costs a page fault, and when the cache holds the
//    file in large folios (up to 2 MiB, as a fresh sequential read usually leaves it) one fault
//    maps a whole folio: a 2 GiB file of 64 KiB records was walked in 6.6 ms with ~1,500 faults.
//  - With pread, it costs a system call per header whatever the cache: 16-28 ms for that file.
//  - But when the cache holds the file in small pages (the kernel splits large folios, under
//    memory pressure or, on this VM, through its DAMON reclaim), each header costs a fault that
//    maps 16 small pages, and unmapping them costs as much again: the same walk took 150-250 ms
//    plus 100 ms to unmap.
// Counting faults does not tell the cost (the cache mixes folio sizes, and a fault's cost grows
// with the pages it maps), so the stream measures both ways on the file itself. Past the file's
// first 16 MiB (walked with pread: a file's start is often held in small folios when the rest is
// not), the reader walks a few MiB through a small mapped window and a few MiB with pread; the
// stream takes the thread's CPU time per Peek for each (the mapping's including its unmapping)
// and goes on with the cheaper: a large mapped window, or pread (io/pread_file.h).
#ifndef TFQ_IO_SKIPPING_FILE_H_
#define TFQ_IO_SKIPPING_FILE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "io/input_stream.h"

namespace tfq {

// Which way wins the trials: measured, or decided in advance so that tests cover both.
enum class SkippingTrialOutcome { kMeasured, kMappedWins, kPreadWins };

// Takes ownership of `fd`, an open regular file of `size` bytes; errors name `path`.
// Use it from one thread: the CPU time it measures is the calling thread's.
std::unique_ptr<InputStream> NewSkippingFileStream(
    std::string path, int fd, uint64_t size,
    SkippingTrialOutcome outcome = SkippingTrialOutcome::kMeasured);

}  // namespace tfq

#endif  // TFQ_IO_SKIPPING_FILE_H_
