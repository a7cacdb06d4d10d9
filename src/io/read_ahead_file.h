// A regular file read by a background thread a few blocks ahead of its consumer.
//
// `tfq inspect --verify` spends about as long checking a block (CRC32C and the record parse) as
// the kernel spends copying it out of the page cache. Read on one thread, the two costs add up;
// with the pread on a second thread they overlap, and verifying runs at about the speed of the
// copy alone (docs/benchmarks.md). The consumer gets views straight into the blocks the thread
// filled. Only a record that straddles two blocks is copied once more, into a stitch buffer, so
// that Peek can hand it out contiguously.
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

// Sized so that the block being checked and the block being filled both stay in a core's L2.
constexpr size_t kReadAheadBlockBytes = size_t{256} << 10;
constexpr size_t kReadAheadBlocks = 4;

// Takes ownership of `fd`, an open regular file, read from offset 0 until pread returns 0;
// errors name `path`.
std::unique_ptr<InputStream> NewReadAheadFileStream(std::string path, int fd,
                                                    size_t block_bytes = kReadAheadBlockBytes,
                                                    size_t blocks = kReadAheadBlocks);

}  // namespace tfq

#endif  // TFQ_IO_READ_AHEAD_FILE_H_
