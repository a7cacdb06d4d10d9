// IndexedShuffle: key order by re-reading the inputs instead of spilling them (docs/shuffle.md).
//
// When every input is a regular uncompressed file, a record can be read again from where it
// lies. The first pass then keeps only a 24-byte reference per record (key, file, offset,
// size); the second sorts the references by key and reads the payloads back with pread, in
// runs that fill the memory budget: each run is read in file-offset order (kind to disks) into
// a buffer laid out in key order, then handed out front to back. Nothing is written but the
// output, which halves the writing of a bucket shuffle; the price is one random read per
// record, so RunShuffle uses it only for large records (see kIndexedMinRecordBytes).
//
// The order handed out is the same as BucketShuffle's: the records in key order.
#ifndef TFQ_RESHARD_INDEXED_SHUFFLE_H_
#define TFQ_RESHARD_INDEXED_SHUFFLE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tfq::reshard {

// Records at least this large on average are re-read rather than spilled: a pread then costs
// little more than the copy it makes, and a random read of this size is efficient on disks.
constexpr uint64_t kIndexedMinRecordBytes = 16 << 10;

struct RecordRef {
  uint64_t key;
  uint64_t offset;  // of the payload in its file
  uint32_t size;
  uint32_t file;    // index into the path list
};
static_assert(sizeof(RecordRef) == 24);

class IndexedShuffle {
 public:
  // `paths` are the inputs (regular, uncompressed); `memory` bounds references plus run buffer.
  IndexedShuffle(std::vector<std::string> paths, uint64_t memory, uint64_t expected_records);

  // Notes a record. Its payload must fit the run buffer (kResourceExhausted otherwise).
  Status Add(uint64_t key, uint32_t file, uint64_t payload_offset, uint64_t size);
  // Calls `emit` for every record in increasing key order, reading the payloads back.
  Status Drain(const std::function<Status(std::string_view payload)>& emit);

  uint64_t runs() const { return runs_; }

 private:
  Status ReadRun(size_t begin, size_t end, char* buffer);

  const std::vector<std::string> paths_;
  const uint64_t memory_;
  std::vector<RecordRef> refs_;
  uint64_t runs_ = 0;
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_INDEXED_SHUFFLE_H_
