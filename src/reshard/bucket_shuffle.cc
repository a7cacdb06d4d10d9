#include "reshard/bucket_shuffle.h"

#include <algorithm>
#include <cmath>

namespace tfq::reshard {
namespace {

using u128 = unsigned __int128;

u128 CeilDiv128(u128 a, u128 b) { return a / b + (a % b != 0); }

}  // namespace

Result<std::unique_ptr<BucketShuffle>> BucketShuffle::Create(BucketShuffleOptions options) {
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<RecordArena> arena, RecordArena::Create(options.memory));
  return std::unique_ptr<BucketShuffle>(
      new BucketShuffle(std::move(options), std::move(arena)));
}

BucketShuffle::~BucketShuffle() = default;

std::vector<BucketShuffle::Bucket> BucketShuffle::SplitRange(const KeyRange& range,
                                                             uint64_t count) {
  // Bucket b holds keys lo + x with floor(x * count / width) == b, i.e. x in
  // [ceil(b * width / count), ceil((b + 1) * width / count)).
  count = static_cast<uint64_t>(std::min<u128>(count, range.width));
  std::vector<Bucket> buckets(count);
  for (uint64_t b = 0; b < count; ++b) {
    const u128 begin = CeilDiv128(b * range.width, count);
    const u128 end = CeilDiv128((b + 1) * range.width, count);
    buckets[b].range.lo = range.lo + static_cast<uint64_t>(begin);
    buckets[b].range.width = end - begin;
  }
  return buckets;
}

uint64_t BucketShuffle::BucketsFor(uint64_t cost) const {
  if (cost == 0) return std::min<uint64_t>(64, options_.max_buckets);  // unknown size
  const double per_bucket = static_cast<double>(arena_->capacity()) * options_.bucket_fill;
  const auto k = static_cast<uint64_t>(std::ceil(static_cast<double>(cost) / per_bucket));
  return std::clamp<uint64_t>(k, 2, options_.max_buckets);
}

Status BucketShuffle::Add(uint64_t key, std::string_view payload) {
  if (RecordArena::Cost(payload.size()) > arena_->capacity()) {
    return Status::ResourceExhausted(
        "a record of " + std::to_string(payload.size()) + " bytes does not fit in the " +
        std::to_string(arena_->capacity()) + " bytes of memory left for records; raise --memory");
  }
  if (!arena_->Fits(payload.size())) {
    if (buckets_.empty()) {
      const uint64_t cost = options_.estimate_total_cost ? options_.estimate_total_cost() : 0;
      buckets_ = SplitRange(KeyRange{}, BucketsFor(cost));
    }
    TFQ_RETURN_IF_ERROR(FlushArena(&buckets_));
  }
  arena_->Add(key, payload);
  return Status::OK();
}

Status BucketShuffle::FlushArena(std::vector<Bucket>* buckets) {
  if (!spill_) {
    TFQ_ASSIGN_OR_RETURN(spill_, SpillFile::Create(options_.tmp_dir));
  }
  arena_->SortByKey();
  std::vector<std::string_view> parts;
  size_t i = 0;
  const size_t n = arena_->size();
  for (Bucket& bucket : *buckets) {
    const u128 end = static_cast<u128>(bucket.range.lo) + bucket.range.width;
    parts.clear();
    Chunk chunk;
    for (; i < n && arena_->at(i).key < end; ++i) {
      parts.push_back(arena_->Entry(arena_->at(i)));
      chunk.bytes += parts.back().size();
      ++chunk.records;
    }
    if (chunk.records == 0) continue;
    TFQ_RETURN_IF_ERROR(spill_->Append(parts, &chunk.offset));
    bucket.chunks.push_back(chunk);
    bucket.bytes += chunk.bytes;
    bucket.records += chunk.records;
  }
  if (i != n) return Status::Internal("shuffle: a key fell outside every bucket");
  arena_->Clear();
  return Status::OK();
}

Status BucketShuffle::EmitArena(const std::function<Status(std::string_view payload)>& emit) {
  arena_->SortByKey();
  for (size_t i = 0; i < arena_->size(); ++i) {
    TFQ_RETURN_IF_ERROR(emit(arena_->Payload(arena_->at(i))));
  }
  arena_->Clear();
  return Status::OK();
}

Status BucketShuffle::Drain(const std::function<Status(std::string_view payload)>& emit) {
  if (!spill_) return EmitArena(emit);  // everything fitted: the in-memory shuffle
  TFQ_RETURN_IF_ERROR(FlushArena(&buckets_));
  for (const Bucket& bucket : buckets_) TFQ_RETURN_IF_ERROR(DrainBucket(bucket, emit));
  return Status::OK();
}

Status BucketShuffle::DrainBucket(const Bucket& bucket,
                                  const std::function<Status(std::string_view payload)>& emit) {
  const auto cost_of = [](uint64_t bytes, uint64_t records) {
    return bytes + records * sizeof(RecordArena::IndexEntry);
  };
  arena_->Clear();
  if (cost_of(bucket.bytes, bucket.records) <= arena_->capacity()) {
    for (const Chunk& chunk : bucket.chunks) {
      TFQ_RETURN_IF_ERROR(spill_->ReadAt(chunk.offset, chunk.bytes, arena_->Extend(chunk.bytes)));
    }
    TFQ_RETURN_IF_ERROR(arena_->IndexNew());
    return EmitArena(emit);
  }
  // Too big: split its key range and pass its chunks through the arena into the sub-buckets.
  // Every chunk fits (it was one arena's worth when written), and keys are distinct, so the
  // ranges shrink until each bucket fits.
  ++splits_;
  std::vector<Bucket> parts =
      SplitRange(bucket.range, BucketsFor(cost_of(bucket.bytes, bucket.records)));
  for (const Chunk& chunk : bucket.chunks) {
    if (arena_->used() + cost_of(chunk.bytes, chunk.records) > arena_->capacity()) {
      TFQ_RETURN_IF_ERROR(FlushArena(&parts));
    }
    TFQ_RETURN_IF_ERROR(spill_->ReadAt(chunk.offset, chunk.bytes, arena_->Extend(chunk.bytes)));
    TFQ_RETURN_IF_ERROR(arena_->IndexNew());
  }
  TFQ_RETURN_IF_ERROR(FlushArena(&parts));
  for (const Bucket& part : parts) TFQ_RETURN_IF_ERROR(DrainBucket(part, emit));
  return Status::OK();
}

}  // namespace tfq::reshard
