// A regular file read by a background thread a few blocks ahead of its consumer.
//
// `tfq inspect --verify` spends about as long checking a block (CRC32C and the record parse) as
// the kernel spends copying it out of the page cache. Read on one thread, the two costs add up;
// with the pread on a second thread they overlap, and verifying runs at about the speed of the
// copy alone (docs/benchmarks.md). The consumer gets views straight into the blocks the thread
// filled. Only a record that straddles two blocks is copied once more, into a stitch buffer, so
// that Peek can hand it out contiguously.
//
// When the consumer catches up with the reader it spins briefly (yielding now and then) before
// sleeping: a sleep and wake-up per block cost more than the read. On a machine whose every core
// is busy the two threads take turns instead, and verifying is slower than on one thread (1.25x
// with one CPU hog on 2 cores, measured here); OpenInputFile does not start the thread when the
// process may use only one CPU.
//
// Memory: kReadAheadBlocks blocks of kReadAheadBlockBytes, plus the stitch buffer (as large as
// the largest Peek that straddled a block boundary). Skip reads through the bytes it skips: use
// this for readers that want every byte (ReadPattern::kReadAhead), not for header-only scans.
//
// Thread safety: like every InputStream, one consumer thread at a time; the reading thread is
// internal. Destroying the stream stops and joins it promptly (it finishes at most one pread).
#ifndef TFQ_IO_READ_AHEAD_FILE_H_
#define TFQ_IO_READ_AHEAD_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "io/input_stream.h"

namespace tfq {

// 4 MiB in all, within the L3 cache. Measured on a 2 GiB file (2 cores, Zen 5): 512 KiB x 8
// verified as fast as `cat` read it; 256 KiB x 4 and 1 MiB x 4-8 were 5-15% slower.
constexpr size_t kReadAheadBlockBytes = size_t{512} << 10;
constexpr size_t kReadAheadBlocks = 8;

// Takes ownership of `fd`, an open regular file, read from offset 0 until pread returns 0;
// errors name `path`.
std::unique_ptr<InputStream> NewReadAheadFileStream(std::string path, int fd,
                                                    size_t block_bytes = kReadAheadBlockBytes,
                                                    size_t blocks = kReadAheadBlocks);

}  // namespace tfq

#endif  // TFQ_IO_READ_AHEAD_FILE_H_
