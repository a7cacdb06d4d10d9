#include "reshard/scan_shuffle.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <system_error>
#include <thread>

#include "common/cpus.h"
#include "common/page_buffer.h"
#include "reshard/checksum.h"
#include "reshard/file_sink.h"
#include "reshard/record_source.h"
#include "tfrecord/format.h"

namespace tfq::reshard {
namespace {

using u128 = unsigned __int128;

// The histogram of one refinement step: 2^16 bins over the range being cut.
constexpr int kBinBits = 16;

struct Cutter {
  uint64_t n;
  const ShuffleKeys& keys;
  const std::function<uint64_t(uint64_t)>& framed_size;
  uint64_t budget;
  std::vector<ScanRange>* out;

  // Cuts [lo, lo + 2^bits): bins of 2^shift keys are merged greedily while they fit; a bin
  // that alone does not fit is cut again, finer (it holds few records, so this is rare and the
  // recursion shallow: each level has 16 bits fewer).
  Status Cut(uint64_t lo, int bits) {
    const int bin_bits = std::min(bits, kBinBits);
    const int shift = bits - bin_bits;
    const size_t bins = size_t{1} << bin_bits;
    std::vector<uint64_t> cost(bins), records(bins), bytes(bins);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t x = keys(i) - lo;
      if (bits < 64 && (x >> bits) != 0) continue;
      const size_t b = static_cast<size_t>(x >> shift);
      const uint64_t framed = framed_size(i);
      cost[b] += framed + kScanRecordOverhead;
      bytes[b] += framed;
      ++records[b];
    }
    ScanRange current{lo, 0, 0, 0};
    uint64_t current_cost = 0;
    const auto flush = [&] {
      if (current.records > 0) out->push_back(current);
    };
    for (size_t b = 0; b < bins; ++b) {
      const uint64_t bin_lo = lo + (static_cast<uint64_t>(b) << shift);
      const u128 bin_width = static_cast<u128>(1) << shift;
      if (cost[b] > budget) {
        if (shift == 0) {
          return Status::ResourceExhausted("a record of " + std::to_string(bytes[b]) +
                                           " framed bytes does not fit in the memory for records; raise --memory");
        }
        flush();
        TFQ_RETURN_IF_ERROR(Cut(bin_lo, shift));
        current = ScanRange{bin_lo + static_cast<uint64_t>(bin_width), 0, 0, 0};
        current_cost = 0;
        continue;
      }
      if (current_cost + cost[b] > budget) {
        flush();
        current = ScanRange{bin_lo, 0, 0, 0};
        current_cost = 0;
      }
      current.width += bin_width;
      current.records += records[b];
      current.framed_bytes += bytes[b];
      current_cost += cost[b];
    }
    flush();
    return Status::OK();
  }
};

// One anonymous block, resident only where used (as RecordArena's).
class Block {
 public:
  static Result<Block> Map(uint64_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return Status::FromErrno("cannot reserve " + std::to_string(bytes) + " bytes of memory", errno);
    // Records are copied to places spread over the block: huge pages spare most TLB misses.
    madvise(p, bytes, MADV_HUGEPAGE);
    return Block(static_cast<char*>(p), bytes);
  }
  Block(Block&& other) noexcept : data_(std::exchange(other.data_, nullptr)), bytes_(other.bytes_) {}
  Block& operator=(Block&&) = delete;
  ~Block() {
    if (data_ != nullptr) munmap(data_, bytes_);
  }
  char* data() const { return data_; }

 private:
  Block(char* data, uint64_t bytes) : data_(data), bytes_(bytes) {}
  char* data_;
  uint64_t bytes_;
};


Status Changed(const std::string& path, uint64_t offset) {
  return Status::Corruption(path + ": the record at byte " + std::to_string(offset) +
                            " changed since it was first read (inputs must not change during a shuffle)");
}

}  // namespace

// A record of the range being gathered, in file order: where it lies and goes.
struct ScanShuffle::Located {
  uint64_t offset;  // of its framing in its file
  uint64_t dest;    // in the block
  uint64_t order;   // its place in key order
  uint32_t size;    // payload
  uint32_t file;
};


// The same record in key order: its key, and once copied, its payload's RecordHash instead.
struct ScanShuffle::Keyed {
  uint64_t key_or_hash;
  uint64_t located;  // index into the Located array
};
static_assert(sizeof(ScanShuffle::Located) + sizeof(ScanShuffle::Keyed) == kScanRecordOverhead);

Result<std::vector<ScanRange>> PlanScanRanges(uint64_t n, const ShuffleKeys& keys,
                                              const std::function<uint64_t(uint64_t)>& framed_size,
                                              uint64_t budget) {
  std::vector<ScanRange> ranges;
  Cutter cutter{n, keys, framed_size, budget, &ranges};
  TFQ_RETURN_IF_ERROR(cutter.Cut(0, 64));
  return ranges;
}

ScanShuffle::ScanShuffle(std::vector<std::string> paths, uint64_t memory,
                         uint64_t expected_records, size_t copiers)
    : paths_(std::move(paths)),
      memory_(memory),
      copiers_(copiers ? copiers : std::clamp<size_t>(static_cast<size_t>(UsableCpus()), 1, 2)) {
  sizes_.reserve(expected_records + expected_records / 16 + 16);
}

ScanShuffle::~ScanShuffle() = default;

uint64_t ScanShuffle::TableBytes() const {
  return sizes_.capacity() * kTableBytesPerRecord + anchors_.capacity() * sizeof(Anchor);
}

Status ScanShuffle::Add(uint32_t file, uint64_t framed_offset, uint64_t size) {
  if (size > UINT32_MAX) {
    return Status::ResourceExhausted("a record of " + std::to_string(size) +
                                     " bytes is too large to re-scan (at most 4 GiB)");
  }
  max_cost_ = std::max(max_cost_, size + tfrecord::kFramingOverhead + kScanRecordOverhead);
  // A growing table must stay a small part of the budget (it is reserved from the input's
  // estimated record count; doubling beyond that is checked here).
  if (sizes_.size() == sizes_.capacity() && 2 * TableBytes() + kTableBytesPerRecord > memory_ / 4) {
    return Status::ResourceExhausted("too many records to re-scan within --memory; raise it or use --method buckets");
  }
  if (file != last_file_ || framed_offset != next_offset_) {
    anchors_.push_back({sizes_.size(), framed_offset, file});
    last_file_ = file;
  }
  sizes_.push_back(static_cast<uint32_t>(size));
  next_offset_ = framed_offset + size + tfrecord::kFramingOverhead;
  if (file >= file_ends_.size()) file_ends_.resize(file + 1, 0);
  file_ends_[file] = std::max(file_ends_[file], next_offset_);
  return Status::OK();
}

Status ScanShuffle::CheckSizes() const {
  for (size_t f = 0; f < file_ends_.size(); ++f) {
    TFQ_ASSIGN_OR_RETURN(uint64_t size, inputs_[f]->CurrentSize());
    if (size < file_ends_[f]) {
      return Status::Corruption(paths_[f] + ": now " + std::to_string(size) +
                                " bytes, but its records were read up to byte " + std::to_string(file_ends_[f]) +
                                " (inputs must not change during a shuffle)");
    }
  }
  return Status::OK();
}

Status ScanShuffle::Gather(const ShuffleKeys& keys, uint16_t range_id, const ScanRange& range,
                           char* block, uint64_t block_bytes, const std::atomic<bool>* stop) {
  TFQ_RETURN_IF_ERROR(CheckSizes());
  const uint64_t m = range.records;
  Keyed* const keyed = reinterpret_cast<Keyed*>(block + block_bytes) - m;
  Located* const located = reinterpret_cast<Located*>(keyed) - m;
  // The range's records in index (= file) order, with their keys.
  uint64_t j = 0;
  size_t anchor = 0;
  uint64_t offset = 0;
  uint32_t file = 0;
  const uint64_t n = sizes_.size();
  for (uint64_t i = 0; i < n; ++i) {
    if (anchor < anchors_.size() && anchors_[anchor].index == i) {
      offset = anchors_[anchor].offset;
      file = anchors_[anchor].file;
      ++anchor;
    }
    if (range_of_[i] == range_id) {
      if (j == m) return Status::Internal("shuffle: a key range holds more records than planned");
      keyed[j] = {keys(i), j};
      located[j] = {offset, 0, 0, sizes_[i], file};
      ++j;
    }
    offset += sizes_[i] + tfrecord::kFramingOverhead;
  }
  if (j != m) return Status::Internal("shuffle: a key range holds fewer records than planned");
  // Places in key order: the block becomes the range's output, framed.
  std::sort(keyed, keyed + m, [](const Keyed& a, const Keyed& b) { return a.key_or_hash < b.key_or_hash; });
  uint64_t dest = 0;
  for (uint64_t k = 0; k < m; ++k) {
    Located& r = located[keyed[k].located];
    r.dest = dest;
    r.order = k;
    dest += r.size + tfrecord::kFramingOverhead;
  }
  // One scan of the inputs, in file order, skipping what the range does not hold; in parallel
  // over consecutive parts (disjoint destinations). The error of the lowest part is reported.
  const size_t parts = std::min<uint64_t>(copiers_, std::max<uint64_t>(m, 1));
  std::vector<Status> status(parts);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < parts; ++t) {
    const uint64_t begin = m * t / parts, end = m * (t + 1) / parts;
    const auto copy = [this, located, keyed, block, begin, end, stop, &status, t] {
      status[t] = Copy(located + begin, located + end, block, keyed, read_buffers_[t].get(), stop);
    };
    bool started = false;
    if (t + 1 < parts) {
      try {
        threads.emplace_back(copy);
        started = true;
      } catch (const std::system_error&) {  // no thread to be had: copy here instead
      }
    }
    if (!started) copy();
  }
  for (std::thread& thread : threads) thread.join();
  for (const Status& st : status) TFQ_RETURN_IF_ERROR(st);
  return Status::OK();
}

Status ScanShuffle::Copy(const Located* begin, const Located* end, char* block, Keyed* keyed,
                         char* read_buffer, const std::atomic<bool>* stop) const {
  for (const Located* first = begin; first != end;) {
    if (stop->load(std::memory_order_relaxed)) return Status::Cancelled("shuffle: gathering stopped");
    // Records close together in one file are read with one pread through the buffer: a system
    // call costs about as much as copying kScanMaxGap bytes. A lone record is read straight to
    // its place.
    const RandomAccessFile& input = *inputs_[first->file];
    uint64_t span_end = first->offset + first->size + tfrecord::kFramingOverhead;
    const Located* last = first + 1;
    while (last != end && last->file == first->file && last->offset >= span_end &&
           last->offset - span_end <= kScanMaxGap &&
           last->offset + last->size + tfrecord::kFramingOverhead - first->offset <= kScanReadBuffer) {
      span_end = last->offset + last->size + tfrecord::kFramingOverhead;
      ++last;
    }
    const std::string& path = paths_[first->file];
    if (last == first + 1) {
      TFQ_RETURN_IF_ERROR(input.ReadExactly(first->offset, span_end - first->offset, block + first->dest));
    } else {
      char* const span = PlaceAt(read_buffer, first->offset);
      TFQ_RETURN_IF_ERROR(input.ReadExactly(first->offset, span_end - first->offset, span));
      for (const Located* r = first; r != last; ++r) {
        std::memcpy(block + r->dest, span + (r->offset - first->offset),
                    r->size + tfrecord::kFramingOverhead);
      }
    }
    for (const Located* r = first; r != last; ++r) {
      // The first pass read this header and hashed the payload. The hash taken again here, from
      // the bytes that will be written, is what proves they are the bytes the first pass
      // counted (the checksums compare the two sums). The framing is checked too, because it is
      // copied as it is: a header or footer damaged since, around an intact payload, would pass
      // the hash; and this is where the data CRC is verified (docs/shuffle.md).
      const char* const framed = block + r->dest;
      const char* const payload = framed + tfrecord::kHeaderSize;
      if (tfrecord::DecodeFixed64(framed) != r->size || !tfrecord::HeaderCrcValid(framed)) {
        return Changed(path, r->offset);
      }
      const uint32_t stored = tfrecord::DecodeFixed32(payload + r->size);
      const uint32_t computed = tfrecord::MaskedCrc(payload, r->size);
      if (stored != computed) return CrcMismatch(*r, stored, computed);
      keyed[r->order].key_or_hash = RecordHash(std::string_view(payload, r->size));
    }
    first = last;
  }
  return Status::OK();
}

Status ScanShuffle::CrcMismatch(const Located& r, uint32_t stored, uint32_t computed) const {
  // The record's number in its file, as the first pass would have named it: counted again from
  // the table (this is the error path).
  uint64_t number = 0, offset = 0;
  uint32_t file = 0;
  size_t anchor = 0;
  for (uint64_t i = 0; i < sizes_.size(); ++i) {
    if (anchor < anchors_.size() && anchors_[anchor].index == i) {
      if (anchors_[anchor].file != file) number = 0;
      offset = anchors_[anchor].offset;
      file = anchors_[anchor].file;
      ++anchor;
    }
    if (file == r.file && offset == r.offset) break;
    if (file == r.file) ++number;
    offset += sizes_[i] + tfrecord::kFramingOverhead;
  }
  char crcs[64];
  std::snprintf(crcs, sizeof crcs, "stored 0x%08x, computed 0x%08x", stored, computed);
  return Status::Corruption(paths_[r.file] + ": record " + std::to_string(number) + " (byte " +
                            std::to_string(r.offset) + "): data CRC mismatch (" + crcs +
                            "; corrupt, or changed since it was first read)");
}

Status ScanShuffle::EmitRange(const ScanRange& range, char* block, uint64_t block_bytes,
                              const Emit& emit) {
  // The block holds the range's records framed, in key order: handed out in one call, not one
  // per record. Their hashes are in Keyed, in the same order, and are packed in place into one
  // array (hash k overwrites bytes of Keyed k / 2, already read).
  Keyed* const keyed = reinterpret_cast<Keyed*>(block + block_bytes) - range.records;
  uint64_t* const hashes = reinterpret_cast<uint64_t*>(keyed);
  for (uint64_t k = 0; k < range.records; ++k) hashes[k] = keyed[k].key_or_hash;
  return emit(std::string_view(block, range.framed_bytes), std::span<const uint64_t>(hashes, range.records));
}

void ScanShuffle::AssignRanges(const ShuffleKeys& keys, const std::vector<ScanRange>& ranges) {
  // The range holding a key is the last one starting at or below it (the ranges are ascending
  // and disjoint, and every record's key is in one). A table by the key's top 16 bits gives the
  // last range starting at or below that slice's start; few ranges start inside one slice.
  constexpr int kSliceBits = 16;
  std::vector<uint16_t> first(size_t{1} << kSliceBits);
  size_t r = 0;
  for (size_t b = 0; b < first.size(); ++b) {
    const uint64_t slice_lo = static_cast<uint64_t>(b) << (64 - kSliceBits);
    while (r + 1 < ranges.size() && ranges[r + 1].lo <= slice_lo) ++r;
    first[b] = static_cast<uint16_t>(r);
  }
  const uint64_t n = sizes_.size();
  range_of_.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t key = keys(i);
    size_t k = first[key >> (64 - kSliceBits)];
    while (k + 1 < ranges.size() && ranges[k + 1].lo <= key) ++k;
    range_of_[i] = static_cast<uint16_t>(k);
  }
}

uint64_t ScanShuffle::BlocksBytes() const {
  const uint64_t fixed = TableBytes() + copiers_ * (kScanReadBuffer + kPageBytes);
  return memory_ > fixed ? (memory_ - fixed) / 16 * 16 : 0;
}

Status ScanShuffle::Drain(const ShuffleKeys& keys, const Emit& emit) {
  if (TableBytes() + copiers_ * (kScanReadBuffer + kPageBytes) >= memory_ / 2) {
    return Status::ResourceExhausted("the record table alone takes half the memory budget");
  }
  if (!HoldsLargestRecord()) {
    return Status::ResourceExhausted("the largest record does not fit beside the record table");
  }
  // Two blocks: one range is written from one while the next is gathered into the other (with
  // two cores, writing the output, mostly the kernel's copy into new page-cache pages, costs
  // about as much as gathering; see docs/shuffle.md). One block of all the memory, taking turns,
  // when the largest record would not fit in half of it.
  const bool two_blocks = max_cost_ <= BlocksBytes() / 2 / 16 * 16;
  const uint64_t budget = two_blocks ? BlocksBytes() / 2 / 16 * 16 : BlocksBytes();
  // Passes beyond a few thousand would take days; refuse rather than plan them (the plan's
  // cost also grows with the bins too full for a range, which so many ranges would make common).
  u128 total = 0;
  for (uint32_t size : sizes_) total += size + tfrecord::kFramingOverhead + kScanRecordOverhead;
  if (total / budget >= kScanMaxRanges) {
    return Status::ResourceExhausted("re-scanning would take more than " + std::to_string(kScanMaxRanges) +
                                     " passes over the inputs; raise --memory or use --method buckets");
  }
  TFQ_ASSIGN_OR_RETURN(
      const std::vector<ScanRange> ranges,
      PlanScanRanges(sizes_.size(), keys, [&](uint64_t i) { return sizes_[i] + tfrecord::kFramingOverhead; }, budget));
  if (ranges.empty()) return Status::OK();
  if (ranges.size() > UINT16_MAX + 1) return Status::Internal("shuffle: more key ranges than range_of_ can name");
  AssignRanges(keys, ranges);
  for (const std::string& path : paths_) {
    TFQ_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> input, OpenInputAgain(path));
    inputs_.push_back(std::move(input));
  }
  // One read buffer per copier for all passes, a page more than the reads need: each lands at
  // its source's offset within a page, the kernel's fast case (common/page_buffer.h). Allocated
  // once, not by each pass's threads: 1 MiB blocks freed and taken again every pass fragmented
  // glibc's heap (after the first such free it serves them from the heap, not by mmap), and the
  // holes stayed resident: the peak grew past --memory with the shard count (docs/shuffle.md).
  for (size_t t = 0; t < copiers_; ++t) read_buffers_.push_back(AllocatePageBuffer(kScanReadBuffer + kPageBytes));
  TFQ_ASSIGN_OR_RETURN(Block first, Block::Map(budget));
  std::optional<Block> second;
  if (two_blocks) {
    TFQ_ASSIGN_OR_RETURN(Block mapped, Block::Map(budget));
    second.emplace(std::move(mapped));
  }
  char* const blocks[2] = {first.data(), second ? second->data() : first.data()};
  std::atomic<bool> stop{false};
  ++passes_;
  TFQ_RETURN_IF_ERROR(Gather(keys, 0, ranges[0], blocks[0], budget, &stop));
  for (size_t k = 0; k < ranges.size(); ++k) {
    // Range k + 1 is gathered on another thread while range k is written here. A failed write
    // stops the gathering; an error of both is the write's (it concerns the earlier range).
    const bool more = k + 1 < ranges.size();
    Status gathered;
    const auto gather = [&, k] {
      gathered = Gather(keys, static_cast<uint16_t>(k + 1), ranges[k + 1], blocks[(k + 1) % 2], budget, &stop);
    };
    std::thread next;
    if (more) {
      ++passes_;
      try {
        if (two_blocks) next = std::thread(gather);
      } catch (const std::system_error&) {  // no thread to be had: gather after writing
      }
    }
    const Status written = EmitRange(ranges[k], blocks[k % 2], budget, emit);
    if (!written.ok()) stop.store(true);
    if (next.joinable()) {
      next.join();
    } else if (more && written.ok()) {
      gather();
    }
    TFQ_RETURN_IF_ERROR(written);
    TFQ_RETURN_IF_ERROR(gathered);
  }
  return Status::OK();
}

}  // namespace tfq::reshard
