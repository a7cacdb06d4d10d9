#include "reshard/indexed_shuffle.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <numeric>

#include "common/page_buffer.h"
#include "reshard/file_sink.h"
#include "reshard/record_source.h"
#include "tfrecord/format.h"

namespace tfq::reshard {
namespace {

// What a record costs in a run (bytes prefetched into the page cache): its framed size.
uint64_t RunCost(const RecordRef& r) { return r.size + tfrecord::kFramingOverhead; }

}  // namespace

IndexedShuffle::IndexedShuffle(std::vector<std::string> paths, uint64_t memory,
                               uint64_t expected_records)
    : paths_(std::move(paths)), memory_(memory) {
  refs_.reserve(expected_records + expected_records / 16 + 16);
}

IndexedShuffle::~IndexedShuffle() = default;

uint64_t IndexedShuffle::ResidentBytes() const {
  return refs_.capacity() * sizeof(RecordRef) + max_framed_ + kPageBytes;
}

Status IndexedShuffle::Add(uint64_t key, uint32_t file, uint64_t framed_offset, uint64_t size) {
  const RecordRef ref{key, framed_offset, static_cast<uint32_t>(size), file};
  if (size > UINT32_MAX) {
    return Status::ResourceExhausted("a record of " + std::to_string(size) +
                                     " bytes is too large to re-read (at most 4 GiB)");
  }
  max_framed_ = std::max(max_framed_, RunCost(ref));
  refs_.push_back(ref);
  return Status::OK();
}

Status IndexedShuffle::OpenInputs(std::vector<std::shared_ptr<const RandomAccessFile>>* inputs) const {
  for (const std::string& path : paths_) {
    // Records are read in key order: read-ahead would fetch their neighbours for nothing.
    TFQ_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> input, OpenInputAgain(path, /*random_order=*/true));
    inputs->push_back(std::move(input));
  }
  return Status::OK();
}

Status IndexedShuffle::Drain(const IndexedEmit& emit) {
  std::sort(refs_.begin(), refs_.end(),
            [](const RecordRef& a, const RecordRef& b) { return a.key < b.key; });
  if (!HoldsLargestRecord()) {
    return Status::ResourceExhausted("the record index and the largest record take more than the memory budget");
  }
  // What a run prefetches is the kernel's page cache, not this process's memory: at least the
  // largest record, so that every run takes one.
  const uint64_t budget = std::max(memory_ - ResidentBytes(), max_framed_);
  std::vector<std::shared_ptr<const RandomAccessFile>> inputs;
  TFQ_RETURN_IF_ERROR(OpenInputs(&inputs));
  // A page more than the largest record: each is read to its source's offset within a page,
  // the kernel's fast case (common/page_buffer.h).
  const PageBuffer scratch_buffer = AllocatePageBuffer(max_framed_ + kPageBytes);

  std::vector<uint32_t> order;
  size_t begin = 0;
  while (begin < refs_.size()) {
    size_t end = begin;
    uint64_t cost = 0;
    while (end < refs_.size() && cost + RunCost(refs_[end]) <= budget) cost += RunCost(refs_[end++]);
    ++runs_;
    // Announce the run in file order: the disk reads ahead sequentially-ish, asynchronously,
    // into the page cache (not into this process).
    order.resize(end - begin);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const RecordRef& x = refs_[begin + a];
      const RecordRef& y = refs_[begin + b];
      return x.file != y.file ? x.file < y.file : x.offset < y.offset;
    });
    for (uint32_t k : order) {
      const RecordRef& r = refs_[begin + k];
      inputs[r.file]->WillNeed(r.offset, RunCost(r));
    }
    for (size_t i = begin; i < end; ++i) {
      const RecordRef& r = refs_[i];
      char* const scratch = PlaceAt(scratch_buffer.get(), r.offset);
      TFQ_RETURN_IF_ERROR(inputs[r.file]->ReadExactly(r.offset, RunCost(r), scratch));
      const std::string_view payload(scratch + tfrecord::kHeaderSize, r.size);
      // The first pass verified this record; if the bytes differ now, the file changed.
      if (tfrecord::DecodeFixed64(scratch) != r.size ||
          tfrecord::DecodeFixed32(scratch + tfrecord::kHeaderSize + r.size) !=
              tfrecord::MaskedCrc(payload.data(), payload.size())) {
        return Status::Corruption(paths_[r.file] + ": the record at byte " + std::to_string(r.offset) +
                                  " changed since it was first read (inputs must not change during a shuffle)");
      }
      TFQ_RETURN_IF_ERROR(emit(std::string_view(scratch, RunCost(r)), inputs[r.file], r.offset));
    }
    begin = end;
  }
  return Status::OK();
}

}  // namespace tfq::reshard
