// RecordBlockPool: the memory records live in between their reader and the parse thread.
//
// Where a reader's stream cannot lend its buffer (InputStream::PinBuffer), it copies a burst of
// records into one RecordBlock; the Records it hands on view the block and share it, and the parse
// thread that is done with the last of them releases it. Records leaving the shuffle buffer's
// detached copies and the global shuffle's random reads live in blocks too. With a block (or a
// string) allocated per record, every record would cost a malloc on one thread and a free on
// another, which glibc serialises on the first thread's arena and answers with fresh, zeroed pages
// (docs/benchmarks.md, "reader-batcher"). Released blocks come back here instead, their capacity
// kept, so steady reading allocates nothing.
//
// The pool keeps at most `max_blocks` spare blocks, `max_spare_bytes` of capacity in all and no
// block larger than `max_block_bytes`, so it never holds much more than the records in flight. Blocks
// outliving the pool (a Batch never holds one, but a caller may keep a Record) are freed.
//
// Thread safety: Get may be called from any thread, and blocks may be released on any thread.
#ifndef TFQ_PIPELINE_RECORD_BLOCK_POOL_H_
#define TFQ_PIPELINE_RECORD_BLOCK_POOL_H_

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "pipeline/record.h"

namespace tfq::pipeline {

class RecordBlockPool : public std::enable_shared_from_this<RecordBlockPool> {
 public:
  static std::shared_ptr<RecordBlockPool> Create(size_t max_blocks, size_t max_spare_bytes,
                                                 size_t max_block_bytes) {
    return std::shared_ptr<RecordBlockPool>(
        new RecordBlockPool(max_blocks, max_spare_bytes, max_block_bytes));
  }

  // An empty block (with the capacity of a recycled one, when there is one) that returns here
  // when its last holder lets go.
  std::shared_ptr<RecordBlock> Get() {
    std::unique_ptr<RecordBlock> block;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!spare_.empty()) {
        block = std::move(spare_.back());
        spare_.pop_back();
        spare_bytes_ -= block->bytes.capacity();
      }
    }
    if (!block) block = std::make_unique<RecordBlock>();
    block->bytes.clear();
    std::weak_ptr<RecordBlockPool> pool = weak_from_this();
    return std::shared_ptr<RecordBlock>(block.release(), [pool](RecordBlock* released) {
      std::unique_ptr<RecordBlock> owned(released);
      if (std::shared_ptr<RecordBlockPool> alive = pool.lock()) alive->Return(std::move(owned));
    });
  }

 private:
  RecordBlockPool(size_t max_blocks, size_t max_spare_bytes, size_t max_block_bytes)
      : max_blocks_(max_blocks), max_spare_bytes_(max_spare_bytes), max_block_bytes_(max_block_bytes) {}

  // Keeps the block or lets it be freed (by the caller, outside the lock).
  void Return(std::unique_ptr<RecordBlock> block) {
    const size_t capacity = block->bytes.capacity();
    if (capacity > max_block_bytes_) return;  // a rare giant record: freed
    std::lock_guard<std::mutex> lock(mu_);
    if (spare_.size() >= max_blocks_ || spare_bytes_ + capacity > max_spare_bytes_) return;
    spare_bytes_ += capacity;
    spare_.push_back(std::move(block));
  }

  const size_t max_blocks_;
  const size_t max_spare_bytes_;
  const size_t max_block_bytes_;
  std::mutex mu_;
  std::vector<std::unique_ptr<RecordBlock>> spare_;
  size_t spare_bytes_ = 0;
};

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_RECORD_BLOCK_POOL_H_
