// The layout a tfq-written gzip file announces in its header, and the access points it gives a
// reader without an index beside the file.
//
// tfq compresses in blocks (io/deflater.h) that end on byte boundaries with an empty stored
// block, whose last four bytes are 00 00 ff ff. Every kDeflateIndependentEvery-th block is
// compressed without the 32 KiB before it, so inflating can start there with an empty window:
// an access point that needs no window, every 4 MiB of records, for 0.1% of size. The gzip
// header says so in an extra field (RFC 1952 FEXTRA) that every gzip reader skips: subfield
// "TQ", 9 bytes: u8 version (1), u32 block size, u32 blocks per independent one (little-endian).
//
// A reader that finds the subfield (BlockedGzipAccessPoints) scans the compressed bytes for
// 00 00 ff ff: the k-th occurrence ends block k. The same four bytes can occur by chance inside
// compressed or stored data, so the count is checked against the trailer's size (mod 2^32); and
// whatever is read from the points is trusted only once the CRC-32 summed over the stretches
// matches the trailer's (src/inspect/parallel_scan.cc), so a wrong point costs a second, serial
// read, never a wrong result.
#ifndef TFQ_IO_BLOCKED_GZIP_H_
#define TFQ_IO_BLOCKED_GZIP_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/access_points.h"
#include "io/random_access_file.h"

namespace tfq {

struct GzipBlockLayout {
  uint32_t block_bytes = 0;
  uint32_t independent_every = 0;  // blocks
};

// The gzip header tfq writes: no name, mtime 0, OS Unix, `xfl` (zlib's marks: 2 best, 4 fastest,
// else 0), and the layout subfield.
std::string BlockedGzipHeader(char xfl, const GzipBlockLayout& layout);

// The layout of a header that carries it, and where the deflate data starts; kNotFound for a
// gzip header without it (another writer's file), kCorruption for anything that is not a whole
// gzip header.
struct BlockedGzipStart {
  GzipBlockLayout layout;
  uint64_t data_offset = 0;
};
Result<BlockedGzipStart> ParseBlockedGzipHeader(std::string_view bytes);

// The access points of a tfq-written gzip file from its header and its flush markers (no
// windows), as an index read from beside it would give them; kNotFound for a file that does
// not announce the layout, or whose markers do not add up to its size (a chance marker, several
// members, damage): the caller then reads it whole.
Result<AccessPointIndex> BlockedGzipAccessPoints(const RandomAccessFile& file);

}  // namespace tfq

#endif  // TFQ_IO_BLOCKED_GZIP_H_
