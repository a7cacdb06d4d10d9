// Counting the records of a large uncompressed TFRecord file on several threads.
//
// Counting walks from header to header, and each step waits on the one before (a header says where
// the next one is), so one thread can only go as fast as the kernel hands it one page per record.
// CountRecordsInParallel cuts the file into segments, one per thread. Every thread but the first
// looks for the first plausible header in its segment (io: FindPlausibleHeader) and walks from
// there to the first record boundary at or past the end of its segment. A guess can be wrong (a
// payload may hold bytes that look like a header, such as a TFRecord file stored in a record),
// so nothing is trusted until it is confirmed: segment k's count is used only when the walk that
// ends segment k-1, itself confirmed from byte 0, lands exactly where segment k's walk began.
// Where a guess was wrong the segment is walked again from the confirmed boundary. The answer is
// therefore exactly what one RecordReader walking the whole file would count.
//
// Problems are not reported here. If the confirmed walk meets any framing problem (a truncated
// file, a bad length CRC, a record over the cap), CountRecordsInParallel returns nothing and the
// caller walks the file with one RecordReader, whose message names the record index, a number
// only a walk from the start knows.
#ifndef TFQ_TFRECORD_PARALLEL_COUNT_H_
#define TFQ_TFRECORD_PARALLEL_COUNT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "io/compression.h"
#include "tfrecord/record_reader.h"

namespace tfq::tfrecord {

// What a walk over record headers found.
struct HeaderTally {
  uint64_t records = 0;
  uint64_t payload_bytes = 0;
  uint64_t min_payload_bytes = 0;  // 0 when there are no records
  uint64_t max_payload_bytes = 0;
  uint64_t end_offset = 0;  // the byte after the last record walked

  void Add(uint64_t payload);         // one more record
  void Append(const HeaderTally& next);  // the records of the walk that continues this one
};

// Files smaller than this per thread are walked by one thread: starting a thread and searching
// for a header cost more than the walk saves.
constexpr uint64_t kMinBytesPerCountThread = uint64_t{32} << 20;

// The records of `path`, counted on up to `threads` threads, or nothing when this path does not
// apply or cannot vouch for the answer: standard input, not a regular file, compressed (or, with
// kAuto, not starting with a verifying header), too small to be worth splitting, a resyncing
// policy, or any framing problem. The caller then walks the file with one RecordReader.
// `min_bytes_per_thread` is for tests, which split small files into many segments.
std::optional<HeaderTally> CountRecordsInParallel(
    const std::string& path, Compression compression, const RecordReaderOptions& options,
    int threads, uint64_t min_bytes_per_thread = kMinBytesPerCountThread);

}  // namespace tfq::tfrecord

#endif  // TFQ_TFRECORD_PARALLEL_COUNT_H_
