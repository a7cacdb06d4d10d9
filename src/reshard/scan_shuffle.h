// ScanShuffle: key order by scanning the inputs once per key range (docs/shuffle.md).
//
// The bucket method writes every record to a spill file and reads it back. When the inputs are
// regular uncompressed files that the page cache can hold, reading them again costs a memory
// copy, not disk I/O, while the spill's writes plus the output's exceed the kernel's dirty
// page limits and slow to the disk's speed. This method writes nothing but the output.
//
// The first pass (Add) keeps 4 bytes per record, its payload size, plus where each file's run of
// records starts. Since a record's key is a pure function of its index, that tells the cost of
// any key range without touching the files: the key space is cut into consecutive ranges whose
// records fit half the budget (exactly: there is no overflow to handle), and each record's range
// is noted (2 bytes per record). For each range the inputs are then read again in file order,
// skipping what is not in the range (records close together with one pread through a buffer, a
// lone one straight to its place); each record in it is copied to its place in key order, so
// that a memory block holds the range's output bytes, framed; each is verified (length, length
// CRC and data CRC: this is where a strict run checks data CRCs, the first pass leaving them to
// this one) and hashed. The block is then handed out whole, one range at a time.
//
// There are two blocks of half the budget: while one range is handed out (written: on a shared
// VM mostly the kernel's copy into new page-cache pages, as costly as gathering), the next is
// gathered into the other block on another thread. That takes twice the passes of one block,
// which costs little: a pass's own cost is a look at the range table, the rest is per record.
//
// Cost: one pass per range, each reading the wanted part of all inputs from the page cache:
// about a pread per record (or group of close records), so the range count matters less than the
// record count. The copying (reading, verifying, hashing) is split over up to two threads, each
// taking a consecutive part of the inputs into its own records' places: the bytes out do not
// depend on it. Memory: the tables, a read buffer per copier and two ranges' records (framed)
// with 48 bytes of bookkeeping each, all within `memory`.
//
// Thread safety: one thread calls Add and Drain. Drain calls `emit` on its own thread while it
// gathers the next range on another, and joins every thread it starts before it returns.
//
// The order handed out is the same as BucketShuffle's: the records in key order.
#ifndef TFQ_RESHARD_SCAN_SHUFFLE_H_
#define TFQ_RESHARD_SCAN_SHUFFLE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/page_buffer.h"
#include "common/status.h"
#include "reshard/random.h"
#include "reshard/write_queue.h"

namespace tfq::reshard {

// RunShuffle chooses scanning only when it takes at most this many passes (docs/shuffle.md).
constexpr uint64_t kScanMaxPasses = 64;

// Records closer than this in a file are read together (a system call costs about as much as
// copying this many bytes), through a read buffer of this size per copier.
constexpr uint64_t kScanMaxGap = 8 << 10;
constexpr uint64_t kScanReadBuffer = 1 << 20;

// Bookkeeping per record of a range while it is gathered: where it lies and goes, and its key.
constexpr uint64_t kScanRecordOverhead = 48;

// Drain refuses to plan more ranges (passes) than this.
constexpr uint64_t kScanMaxRanges = 4096;

// A key range [lo, lo + width) and what its records cost.
struct ScanRange {
  uint64_t lo = 0;
  unsigned __int128 width = 0;
  uint64_t records = 0;
  uint64_t framed_bytes = 0;
};

// Cuts the key space into consecutive ranges holding every record, each costing at most `budget`
// (framed bytes plus kScanRecordOverhead per record); ranges without records are left out.
// `framed_size(i)` is record i's framed size and `keys(i)` its key, for i < n.
// kResourceExhausted when one record alone costs more than the budget. Time: one look at every
// key, plus one more for each 2^-16 slice of the key space that alone exceeds the budget (rare
// unless the ranges are counted in tens of thousands).
Result<std::vector<ScanRange>> PlanScanRanges(uint64_t n, const ShuffleKeys& keys,
                                              const std::function<uint64_t(uint64_t)>& framed_size,
                                              uint64_t budget);

class ScanShuffle {
 public:
  // `paths` are the inputs (regular, uncompressed); `memory` bounds the tables, the blocks of
  // two ranges and the copiers' read buffers; `copiers` threads copy records
  // (0: two if there are two cores).
  ScanShuffle(std::vector<std::string> paths, uint64_t memory, uint64_t expected_records,
              size_t copiers = 0);
  ~ScanShuffle();
  ScanShuffle(const ScanShuffle&) = delete;
  ScanShuffle& operator=(const ScanShuffle&) = delete;

  // Notes the next record (global index order): its input, the offset of its framing in that
  // file and its payload size. kResourceExhausted when the table grows too large, or the record
  // beyond 4 GiB.
  Status Add(uint32_t file, uint64_t framed_offset, uint64_t size);
  // Whether the largest record noted fits in the memory the tables and read buffers leave
  // (Drain is kResourceExhausted otherwise). It gets one block of all that memory, taking turns
  // with the output, when it does not fit in half.
  bool HoldsLargestRecord() const { return max_cost_ <= BlocksBytes(); }
  // Calls `emit` once per key range, in increasing key order, with the range's records in
  // increasing order of keys(index), framed (header, payload, footer) and verified, one after
  // another, and their payloads' RecordHash in the same order. The views live during the call.
  // A record whose framing differs from the first pass's, or whose data CRC fails, is
  // kCorruption naming its file and offset; an input now shorter than its records, too. Such an
  // error in range k + 1 is returned after range k was handed out; an error `emit` returns for
  // range k stops the gathering of range k + 1 and is returned.
  using Emit = std::function<Status(std::string_view framed, std::span<const uint64_t> hashes)>;
  Status Drain(const ShuffleKeys& keys, const Emit& emit);

  uint64_t passes() const { return passes_; }
  struct Located;  // a record being gathered, in file order (scan_shuffle.cc)
  struct Keyed;    // the same in key order
  // Bytes of the table kept per record, for choosing the method: its payload size, and the key
  // range it falls in (Drain).
  static constexpr uint64_t kTableBytesPerRecord = sizeof(uint32_t) + sizeof(uint16_t);

 private:
  // Where a run of consecutive records starts: record `index` lies at `offset` in `file`, and
  // each next one right after its predecessor.
  struct Anchor {
    uint64_t index;
    uint64_t offset;
    uint32_t file;
  };
  uint64_t TableBytes() const;
  // The memory left for the blocks of records (a multiple of 16).
  uint64_t BlocksBytes() const;
  // kCorruption when an input is now shorter than its records were (checked before each pass,
  // for a clear message before any read runs short).
  Status CheckSizes() const;
  // Notes in range_of_ which of `ranges` each record's key falls in.
  void AssignRanges(const ShuffleKeys& keys, const std::vector<ScanRange>& ranges);
  // Copies the records of `range` (number `range_id`) into `block` in key order; its top holds
  // their bookkeeping. Checks the inputs' sizes first. Stops early (kCancelled) once `stop` is set.
  Status Gather(const ShuffleKeys& keys, uint16_t range_id, const ScanRange& range, char* block,
                uint64_t block_bytes, const std::atomic<bool>* stop);
  // kCorruption naming record `r` as the first pass would have ("FILE: record N (byte B): data
  // CRC mismatch ...").
  Status CrcMismatch(const Located& r, uint32_t stored, uint32_t computed) const;
  // Hands the gathered `range` in `block` to `emit`.
  static Status EmitRange(const ScanRange& range, char* block, uint64_t block_bytes, const Emit& emit);
  // Copies, verifies and hashes records [begin, end) (in file order).
  // Their hashes go to `keyed`.
  Status Copy(const Located* begin, const Located* end, char* block, Keyed* keyed,
              char* read_buffer, const std::atomic<bool>* stop) const;

  const std::vector<std::string> paths_;
  const uint64_t memory_;
  const size_t copiers_;
  std::vector<std::unique_ptr<RandomAccessFile>> inputs_;  // open during Drain
  std::vector<PageBuffer> read_buffers_;  // one per copier, during Drain
  std::vector<uint32_t> sizes_;  // payload sizes, by global index
  std::vector<uint16_t> range_of_;  // by global index: the key range holding it (Drain)
  std::vector<Anchor> anchors_;
  std::vector<uint64_t> file_ends_;  // by file: where its last record ends
  uint64_t next_offset_ = 0;     // where the next record would be if it follows the last one
  uint32_t last_file_ = UINT32_MAX;
  uint64_t passes_ = 0;
  uint64_t max_cost_ = 0;  // of the largest record: framed + kScanRecordOverhead
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_SCAN_SHUFFLE_H_
