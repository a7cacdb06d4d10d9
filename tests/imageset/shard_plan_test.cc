#include "imageset/shard_plan.h"

#include <doctest/doctest.h>

#include <set>

#include "imageset/run_manifest.h"
#include "tfrecord/open.h"

namespace tfq::imageset {
namespace {

TEST_CASE("shard plan: contiguous runs differing by at most one, ShardOf inverts them") {
  for (uint64_t n : {0, 1, 5, 10, 37, 1000}) {
    for (uint64_t shards : {1, 2, 3, 7, 16}) {
      auto plan = ShardPlan::Create(n, shards);
      REQUIRE(plan.ok());
      CHECK(plan->Begin(0) == 0);
      CHECK(plan->End(shards - 1) == n);
      for (uint64_t k = 0; k < shards; ++k) {
        const uint64_t size = plan->End(k) - plan->Begin(k);
        CHECK(size >= n / shards);
        CHECK(size <= n / shards + 1);
        for (uint64_t p = plan->Begin(k); p < plan->End(k); ++p) CHECK(plan->ShardOf(p) == k);
      }
    }
  }
}

TEST_CASE("shard plan: tasks own shard k when k % n == i, and together own every image once") {
  const uint64_t n = 101, shards = 8, tasks = 3;
  uint64_t total = 0;
  std::set<uint64_t> owned;
  for (uint64_t t = 0; t < tasks; ++t) {
    auto plan = ShardPlan::Create(n, shards, t, tasks);
    REQUIRE(plan.ok());
    total += plan->OwnedImages();
    for (uint64_t k = 0; k < shards; ++k) {
      CHECK(plan->Owns(k) == (k % tasks == t));
      if (plan->Owns(k)) CHECK(owned.insert(k).second);
    }
  }
  CHECK(total == n);
  CHECK(owned.size() == shards);
  CHECK(!ShardPlan::Create(10, 2, 3, 3).ok());
  CHECK(!ShardPlan::Create(10, 0).ok());
}

TEST_CASE("shard plan: shard count for a size") {
  CHECK(ShardsForSize(1000, 100, 50) == 10);
  CHECK(ShardsForSize(1001, 100, 50) == 11);
  CHECK(ShardsForSize(10, 100, 50) == 1);
  CHECK(ShardsForSize(100000, 1, 50) == 50);  // never more shards than images
  CHECK(ShardsForSize(0, 100, 0) == 1);
}

TEST_CASE("names: shards and manifests") {
  CHECK(tfrecord::ShardName("out/train", 3, 10, ".tfrecord") == "out/train-00003-of-00010.tfrecord");
  CHECK(ManifestPath("out/train", 0, 1) == "out/train.manifest.json");
  CHECK(ManifestPath("out/train", 2, 3) == "out/train.manifest-00002-of-00003.json");
}

}  // namespace
}  // namespace tfq::imageset
