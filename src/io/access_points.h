// Access points into a gzip or zlib stream: where inflating may start other than at the beginning.
//
// Deflate data cannot be entered at an arbitrary byte: a block may refer back up to 32 KiB into
// the output before it, and blocks need not start on a byte boundary. The method of zlib's
// examples/zran.c fixes both: while inflating the whole stream once, stop at a block boundary about
// every `span` bytes of output and note there the uncompressed offset, the compressed offset, how
// many bits of the byte before that offset belong to the next block, and the 32 KiB of output
// before the point (its "window"). Inflating from a point is then raw inflate, primed with those
// bits and given the window as its dictionary (io/random_inflate.h). A point's window holds only
// output of its own gzip member: each member of `cat a.gz b.gz` starts with an empty window.
//
// The index is stored beside the compressed file as FILE.tfqgzidx (docs/tfrecord-format.md,
// "Random access"), all integers little-endian:
//
//   "tfqgzidx" | u32 version (1) | u32 compression (1 gzip, 2 zlib)
//   | u64 file size | u32 crc32 of the first 64 KiB | u32 crc32 of the last 64 KiB
//   | u64 uncompressed size | u64 span | u64 point count
//   | per point: u64 uncompressed offset | u64 compressed offset | u8 bits | u32 window size | window
//   | u32 crc32 of every byte before it
//
// The file's size and the checksums of its ends say whether the index still describes the file:
// a gzip file's last bytes are its trailer (the CRC and size of the last member), so appending to,
// truncating or recompressing it changes them. The mtime is not used: copying a dataset together
// with its indexes keeps them valid.
#ifndef TFQ_IO_ACCESS_POINTS_H_
#define TFQ_IO_ACCESS_POINTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "io/compression.h"
#include "io/random_access_file.h"

namespace tfq {

// About 1 MiB of output between points: reaching any byte inflates 0.5 MiB on average, and the
// windows cost 32 KiB per MiB of data (3%) in memory and on disk.
constexpr uint64_t kDefaultAccessPointSpan = uint64_t{1} << 20;
constexpr size_t kInflateWindowBytes = 32768;

struct AccessPoint {
  uint64_t uncompressed_offset = 0;
  uint64_t compressed_offset = 0;  // the first whole byte after the point
  int bits = 0;  // 0-7: the high bits of the byte before compressed_offset that follow the point
  std::string window;  // up to 32 KiB of output just before the point, of the point's member
};

// What identifies a compressed file's contents, cheaply.
struct FileFingerprint {
  static constexpr uint64_t kEndBytes = 64 << 10;
  uint64_t size = 0;
  uint32_t head_crc = 0;  // crc32 of the first kEndBytes (or all of a smaller file)
  uint32_t tail_crc = 0;  // crc32 of the last kEndBytes
  bool operator==(const FileFingerprint& o) const {
    return size == o.size && head_crc == o.head_crc && tail_crc == o.tail_crc;
  }
};
Result<FileFingerprint> FingerprintOf(const RandomAccessFile& file);

struct AccessPointIndex {
  Compression compression = Compression::kGzip;  // kGzip or kZlib
  FileFingerprint file;
  uint64_t uncompressed_size = 0;
  uint64_t span = kDefaultAccessPointSpan;
  std::vector<AccessPoint> points;  // by offset; the first at 0 for any stream with a header

  // The last point at or before `uncompressed_offset`, or null when there is none.
  const AccessPoint* PointAtOrBefore(uint64_t uncompressed_offset) const;
};

// "FILE.tfqgzidx".
std::string AccessPointIndexPath(const std::string& compressed_path);

std::string EncodeAccessPointIndex(const AccessPointIndex& index);
// kCorruption naming `name` for anything but a complete index of this version whose CRC verifies.
Result<AccessPointIndex> DecodeAccessPointIndex(std::string_view bytes, const std::string& name);

// The stored index of `file` (compressed with `compression`), read from `points_path`, if it
// still describes the file: kNotFound (from the read) without one, kCorruption naming
// `points_path` when it is damaged or stale (built for another version of the file).
Result<AccessPointIndex> ReadAccessPointIndexFor(const RandomAccessFile& file, Compression compression,
                                                 const std::string& points_path);

// NewDecompressingStream (io/compression.h), noting access points into *index as it inflates:
// one at the start of the first block and then one at the first block boundary after every
// index->span bytes of output (a point may lie in any member of a multi-member gzip file). *index (its points and uncompressed_size; not `file`) is complete
// once the stream has been read to its clean end. `index` must outlive the stream.
std::unique_ptr<InputStream> NewIndexingDecompressingStream(std::unique_ptr<InputStream> compressed,
                                                            Compression c,
                                                            const DecompressionLimit& limit,
                                                            AccessPointIndex* index);

}  // namespace tfq

#endif  // TFQ_IO_ACCESS_POINTS_H_
