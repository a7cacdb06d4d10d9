#include "imageset/run_manifest.h"

#include <doctest/doctest.h>

#include "common/test_env.h"

namespace tfq::imageset {
namespace {

RunManifest Task(uint64_t t) {
  RunManifest m;
  m.files_found = 10;
  m.num_shards = 4;
  m.task_index = t;
  m.num_tasks = 2;
  m.class_names = {"a", "b"};
  m.label_offset = 1;
  m.options["quality"] = 90;
  m.options["filter"] = "triangle";
  for (uint64_t k = t; k < 4; k += 2) m.shards.push_back({k, "p-0000" + std::to_string(k), 2, 100 + k, "h"});
  m.failures.push_back({7 - t * 5, "x" + std::to_string(t), "bad"});
  return m;
}

TEST_CASE("run manifest: JSON round trip keeps everything, options in order") {
  const RunManifest m = Task(1);
  auto back = ManifestFromJson(ManifestToJson(m), "mem");
  REQUIRE(back.ok());
  CHECK(ManifestToJson(back.value()).dump() == ManifestToJson(m).dump());
  CHECK(back->options.begin().key() == "quality");
  CHECK(back->label_offset == 1);
  CHECK(back->records() == 4);
}

TEST_CASE("run manifest: merging task manifests gives the one-run manifest") {
  const std::string prefix = tfq::testing::MakeTempDir() + "/p";
  REQUIRE(WriteManifest(Task(0), ManifestPath(prefix, 0, 2)).ok());
  CHECK(MergeTaskManifests(prefix, 2).status().code() == StatusCode::kNotFound);
  REQUIRE(WriteManifest(Task(1), ManifestPath(prefix, 1, 2)).ok());
  auto merged = MergeTaskManifests(prefix, 2);
  REQUIRE(merged.ok());
  CHECK(merged->num_tasks == 1);
  REQUIRE(merged->shards.size() == 4);
  for (uint64_t k = 0; k < 4; ++k) CHECK(merged->shards[k].index == k);
  REQUIRE(merged->failures.size() == 2);
  CHECK(merged->failures[0].position == 2);  // sorted by position
  CHECK(ManifestToJson(merged.value()).contains("task") == false);

  RunManifest other = Task(1);
  other.options["quality"] = 80;  // a task run with different options
  REQUIRE(WriteManifest(other, ManifestPath(prefix, 1, 2)).ok());
  CHECK(MergeTaskManifests(prefix, 2).status().code() == StatusCode::kInvalidData);
}

}  // namespace
}  // namespace tfq::imageset
