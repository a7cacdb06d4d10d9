// IndexedShuffle: key order by re-reading the inputs instead of spilling them (docs/shuffle.md).
//
// When every input is a regular uncompressed file, a record can be read again from where it
// lies. The first pass then keeps only a 24-byte reference per record (key, file, offset, size);
// the second sorts the references by key and reads the records back in that order, in runs of
// about the memory budget: each run is first announced to the kernel in file-offset order
// (asynchronous read-ahead into the page cache, kind to disks), then each record is read with
// pread into one scratch buffer, verified (data CRC: the file must not have changed) and handed
// out framed, as it is in the file (ready to be written without re-framing), together with
// where it lies, so that a large record can be copied by the kernel instead
// (ShardSet::CopyRecord). Resident memory: the references and one record. Nothing is written but the output, half the writing of a bucket
// shuffle; the price is one random read per record, so RunShuffle uses it for large records only
// (kIndexedMinRecordBytes).
//
// The order handed out is the same as BucketShuffle's: the records in key order.
#ifndef TFQ_RESHARD_INDEXED_SHUFFLE_H_
#define TFQ_RESHARD_INDEXED_SHUFFLE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "reshard/write_queue.h"

namespace tfq::reshard {

// Records at least this large on average are re-read rather than spilled: a random read of this
// size is efficient on disks, and the per-record system calls are small against the bytes.
constexpr uint64_t kIndexedMinRecordBytes = 16 << 10;

struct RecordRef {
  uint64_t key;
  uint64_t offset;  // of the record's framing (its 12-byte header) in its file
  uint32_t size;    // of the payload
  uint32_t file;    // index into the path list
};
static_assert(sizeof(RecordRef) == 24);

// What Drain hands out for each record: the verified framed record (header, payload, footer;
// valid during the call) and where it lies, for copying.
using IndexedEmit = std::function<Status(std::string_view framed,
                                         const std::shared_ptr<const RandomAccessFile>& source,
                                         uint64_t framed_offset)>;

class IndexedShuffle {
 public:
  // `paths` are the inputs (regular, uncompressed; all are kept open during Drain); `memory`
  // bounds the references, the scratch record and the bytes prefetched at a time.
  IndexedShuffle(std::vector<std::string> paths, uint64_t memory, uint64_t expected_records);
  ~IndexedShuffle();

  // Notes a record (of at most 4 GiB: kResourceExhausted otherwise).
  Status Add(uint64_t key, uint32_t file, uint64_t framed_offset, uint64_t size);
  // Whether the references and the largest record fit in `memory` together, as Drain needs
  // (kResourceExhausted otherwise).
  bool HoldsLargestRecord() const { return ResidentBytes() <= memory_; }
  // Calls `emit` for every record in increasing key order.
  Status Drain(const IndexedEmit& emit);

  uint64_t runs() const { return runs_; }

 private:
  // What Drain holds: the references and one record (framed, and a page).
  uint64_t ResidentBytes() const;
  Status OpenInputs(std::vector<std::shared_ptr<const RandomAccessFile>>* inputs) const;

  const std::vector<std::string> paths_;
  const uint64_t memory_;
  std::vector<RecordRef> refs_;
  uint64_t max_framed_ = 0;
  uint64_t runs_ = 0;
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_INDEXED_SHUFFLE_H_
