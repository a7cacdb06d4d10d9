#include "imageset/shard_plan.h"

#include <algorithm>
#include <string>

namespace tfq::imageset {

Result<ShardPlan> ShardPlan::Create(uint64_t num_images, uint64_t num_shards, uint64_t task_index,
                                    uint64_t num_tasks) {
  if (num_shards < 1) return Status::InvalidArgument("the number of shards must be at least 1");
  if (num_tasks < 1) return Status::InvalidArgument("--num-tasks must be at least 1");
  if (task_index >= num_tasks) {
    return Status::InvalidArgument("--task-index " + std::to_string(task_index) +
                                   " must be below --num-tasks " + std::to_string(num_tasks));
  }
  ShardPlan p;
  p.num_images_ = num_images;
  p.num_shards_ = num_shards;
  p.task_index_ = task_index;
  p.num_tasks_ = num_tasks;
  return p;
}

uint64_t ShardPlan::Begin(uint64_t shard) const {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(shard) * num_images_ / num_shards_);
}

uint64_t ShardPlan::ShardOf(uint64_t position) const {
  // The largest k with Begin(k) <= position: start from the proportional guess and correct.
  uint64_t k = static_cast<uint64_t>(static_cast<unsigned __int128>(position) * num_shards_ / num_images_);
  while (k > 0 && Begin(k) > position) --k;
  while (k + 1 < num_shards_ && Begin(k + 1) <= position) ++k;
  return k;
}

uint64_t ShardPlan::OwnedImages() const {
  uint64_t n = 0;
  for (uint64_t k = task_index_; k < num_shards_; k += num_tasks_) n += End(k) - Begin(k);
  return n;
}

uint64_t ShardsForSize(uint64_t estimated_bytes, uint64_t shard_size, uint64_t num_images) {
  uint64_t n = shard_size ? (estimated_bytes + shard_size - 1) / shard_size : 1;
  return std::clamp<uint64_t>(n, 1, std::max<uint64_t>(num_images, 1));
}

}  // namespace tfq::imageset
