// Which image goes to which shard, and which shards a task writes.
//
// After the shuffle, the n images are cut into `num_shards` contiguous runs, shard k holding
// positions [k*n/N, (k+1)*n/N) (sizes differ by at most one, as build_image_data's ranges do).
// Contiguous runs let a task of a scale-out run read and convert only the images of its own
// shards: task i of m writes the shards k with k % m == i, under their global names, so m tasks
// together write exactly the files one run writes.
#ifndef TFQ_IMAGESET_SHARD_PLAN_H_
#define TFQ_IMAGESET_SHARD_PLAN_H_

#include <cstdint>

#include "common/status.h"

namespace tfq::imageset {

class ShardPlan {
 public:
  // kInvalidArgument unless num_shards >= 1, num_tasks >= 1 and task_index < num_tasks.
  static Result<ShardPlan> Create(uint64_t num_images, uint64_t num_shards, uint64_t task_index = 0,
                                  uint64_t num_tasks = 1);

  uint64_t num_images() const { return num_images_; }
  uint64_t num_shards() const { return num_shards_; }
  uint64_t task_index() const { return task_index_; }
  uint64_t num_tasks() const { return num_tasks_; }

  // Positions [begin, end) of shard k in the shuffled order.
  uint64_t Begin(uint64_t shard) const;
  uint64_t End(uint64_t shard) const { return Begin(shard + 1); }
  // The shard holding position i (< num_images).
  uint64_t ShardOf(uint64_t position) const;
  bool Owns(uint64_t shard) const { return shard % num_tasks_ == task_index_; }
  // Images in the shards this task owns.
  uint64_t OwnedImages() const;

 private:
  uint64_t num_images_ = 0, num_shards_ = 1, task_index_ = 0, num_tasks_ = 1;
};

// Shards for --shard-size: ceil(estimated_bytes / shard_size), at least 1 and at most the image
// count (never an empty shard because of the estimate).
uint64_t ShardsForSize(uint64_t estimated_bytes, uint64_t shard_size, uint64_t num_images);

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_SHARD_PLAN_H_
