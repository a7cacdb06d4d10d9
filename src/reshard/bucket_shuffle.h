// BucketShuffle: records in shuffle-key order within a fixed memory budget (docs/shuffle.md).
//
// Every record carries its shuffle key (reshard/random.h). Records are collected in a
// RecordArena; if they all fit, sorting the arena by key is the whole shuffle. Otherwise, each
// time the arena fills up it is sorted and written to the spill file as one chunk per bucket,
// bucket b holding the keys of the b-th of K equal key ranges. Draining then loads each bucket
// in key order, sorts it and hands its records out. A bucket that does not fit (an unlucky
// split, or K chosen from a poor size estimate) is split again into sub-ranges the same way.
//
// The order handed out is the order of the keys, whatever the budget, K or the recursion: the
// bucket path and the in-memory path produce the same permutation, byte for byte.
//
// Memory: the arena only (plus a few bytes of chunk list per chunk); no record is held twice.
#ifndef TFQ_RESHARD_BUCKET_SHUFFLE_H_
#define TFQ_RESHARD_BUCKET_SHUFFLE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "reshard/arena.h"
#include "reshard/spill.h"

namespace tfq::reshard {

struct BucketShuffleOptions {
  uint64_t memory = 0;  // arena bytes
  std::string tmp_dir;  // where the spill file goes, if one is needed
  // Asked once, when the arena first fills: the expected total Cost() of all records, to choose
  // the number of buckets (0 = unknown: a generous default).
  std::function<uint64_t()> estimate_total_cost;
  // Fraction of the arena a bucket is planned to fill: the headroom against unlucky splits.
  double bucket_fill = 0.7;
  uint64_t max_buckets = 4096;
};

class BucketShuffle {
 public:
  static Result<std::unique_ptr<BucketShuffle>> Create(BucketShuffleOptions options);
  ~BucketShuffle();

  // Adds a record. A record whose Cost() exceeds the whole arena is kResourceExhausted.
  Status Add(uint64_t key, std::string_view payload);
  // Calls `emit` for every record in increasing key order. Call once, after the last Add.
  Status Drain(const std::function<Status(std::string_view payload)>& emit);

  bool spilled() const { return spill_ != nullptr; }
  uint64_t top_buckets() const { return buckets_.size(); }
  uint64_t splits() const { return splits_; }  // buckets that had to be split again
  uint64_t spill_bytes() const { return spill_ ? spill_->size() : 0; }

 private:
  // Keys in [lo, lo + width); width is up to 2^64.
  struct KeyRange {
    uint64_t lo = 0;
    unsigned __int128 width = static_cast<unsigned __int128>(1) << 64;
  };
  struct Bucket {
    KeyRange range;
    std::vector<Chunk> chunks;
    uint64_t bytes = 0;
    uint64_t records = 0;
  };

  explicit BucketShuffle(BucketShuffleOptions options, std::unique_ptr<RecordArena> arena)
      : options_(std::move(options)), arena_(std::move(arena)) {}

  // Splits `range` into `count` buckets.
  static std::vector<Bucket> SplitRange(const KeyRange& range, uint64_t count);
  uint64_t BucketsFor(uint64_t cost) const;
  // Sorts the arena and appends its records to `buckets` (which partition the arena's keys),
  // one chunk per non-empty bucket; then clears the arena.
  Status FlushArena(std::vector<Bucket>* buckets);
  Status DrainBucket(const Bucket& bucket,
                     const std::function<Status(std::string_view payload)>& emit);
  Status EmitArena(const std::function<Status(std::string_view payload)>& emit);

  const BucketShuffleOptions options_;
  std::unique_ptr<RecordArena> arena_;
  std::unique_ptr<SpillFile> spill_;
  std::vector<Bucket> buckets_;
  uint64_t splits_ = 0;
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_BUCKET_SHUFFLE_H_
