// ShardedOutput: names, task partition, dealing records in turn, and the all-or-nothing commit
// under injected disk-full errors (the error names the file; no output is left behind).
#include "convert/sharded_output.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/fault_streams.h"
#include "common/test_env.h"
#include "io/file_streams.h"
#include "tfrecord/open.h"
#include "tfrecord/record_writer.h"

namespace tfq {
namespace {

using tfq::testing::FailingOutputStream;
using tfrecord::ShardName;

constexpr std::string_view kDiskFull = ": disk full (No space left on device)";

using ::tfq::testing::Contains;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Four shards of which shard `failing` runs out of space after `budget` bytes, in Write or in
// Close (written to real temporaries, so the test sees what is left on disk).
ShardedOutputOptions FailingShardOptions(const std::string& prefix, uint64_t failing, uint64_t budget,
                                         FailingOutputStream::FailAt at = FailingOutputStream::FailAt::kWrite) {
  ShardedOutputOptions o;
  o.path = prefix;
  o.num_shards = 4;
  o.create_file = [=](const std::string& path) -> Result<std::unique_ptr<OutputStream>> {
    auto real = CreateOutputFile(path);
    if (!real.ok()) return real.status();
    if (path != ShardName(prefix, failing, 4)) return real;
    return std::unique_ptr<OutputStream>(
        std::make_unique<FailingOutputStream>(path, budget, std::move(real).value(), ENOSPC, at));
  };
  return o;
}

TEST_CASE("ShardedOutput: disk full in Write leaves no shard and no temporary") {
  const std::string dir = tfq::testing::MakeTempDir();
  Status s;
  {
    auto w = ShardedOutput::Create(FailingShardOptions(dir + "/train", 2, 500));
    REQUIRE(w.ok());
    for (uint64_t i = 0; i < 400 && s.ok(); ++i) s = (*w)->WriteRecord(i % 4, "record " + std::to_string(i));
  }
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(Contains(s.message(), ShardName(dir + "/train", 2, 4) + std::string(kDiskFull)));
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("ShardedOutput: disk full in Close takes back the shards already completed") {
  const std::string dir = tfq::testing::MakeTempDir();
  auto w = ShardedOutput::Create(
      FailingShardOptions(dir + "/train", 1, 100, FailingOutputStream::FailAt::kClose));
  REQUIRE(w.ok());
  for (uint64_t i = 0; i < 40; ++i) REQUIRE((*w)->WriteRecord(i % 4, "rec " + std::to_string(1000 + i)).ok());
  Status s = (*w)->Close();  // shard 0 is renamed into place, then shard 1 fails
  CHECK(Contains(s.message(), ShardName(dir + "/train", 1, 4) + std::string(kDiskFull)));
  w->reset();
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("ShardedOutput: records dealt in turn; a task writes only its shards, under global names") {
  const std::string dir = tfq::testing::MakeTempDir();
  std::string framed;
  std::vector<size_t> ends;
  for (int i = 0; i < 10; ++i) {
    tfrecord::AppendFramedRecord("r" + std::to_string(i), &framed);
    ends.push_back(framed.size());
  }
  ShardedOutputOptions o;
  o.path = dir + "/t";
  o.num_shards = 3;
  o.suffix = ".tfrecord";
  o.task_index = 1;
  o.num_tasks = 2;
  auto w = ShardedOutput::Create(o);
  REQUIRE(w.ok());
  CHECK(!(*w)->owns(0));
  CHECK((*w)->owns(1));
  CHECK(!(*w)->owns(2));
  // Two calls: the turn goes on across them.
  REQUIRE((*w)->WriteInTurn(std::string_view(framed).substr(0, ends[3]), std::span(ends).first(4)).ok());
  std::vector<size_t> rest;
  for (size_t i = 4; i < ends.size(); ++i) rest.push_back(ends[i] - ends[3]);
  REQUIRE((*w)->WriteInTurn(std::string_view(framed).substr(ends[3]), rest).ok());
  REQUIRE((*w)->Close().ok());
  CHECK((*w)->paths() == std::vector<std::string>{dir + "/t-00001-of-00003.tfrecord"});
  CHECK((*w)->records() == 3);  // records 1, 4, 7
  std::string expected;
  for (int i : {1, 4, 7}) tfrecord::AppendFramedRecord("r" + std::to_string(i), &expected);
  CHECK(ReadFile(dir + "/t-00001-of-00003.tfrecord") == expected);
  CHECK(!std::filesystem::exists(dir + "/t-00000-of-00003.tfrecord"));
}

TEST_CASE("ShardedOutput: Commit names the files and the extra outputs together; the observer sees the disk bytes") {
  const std::string dir = tfq::testing::MakeTempDir();
  ShardedOutputOptions o;
  o.path = dir + "/sub/dir/one.tfrecord.gz";
  o.compression = Compression::kAuto;
  o.make_parent_dirs = true;
  std::string seen;
  o.on_file_bytes = [&](uint64_t k, std::string_view bytes) {
    CHECK(k == 0);
    seen += bytes;
  };
  auto w = ShardedOutput::Create(o);
  REQUIRE(w.ok());
  REQUIRE((*w)->WriteRecord(0, "payload").ok());
  auto manifest = CreateOutputFile(dir + "/manifest.json");
  REQUIRE(manifest.ok());
  REQUIRE((*manifest)->Write("{}").ok());
  REQUIRE((*w)->Finish().ok());
  CHECK(!std::filesystem::exists(o.path));  // finished, not yet committed
  CHECK((*w)->files()[0].file_bytes == seen.size());
  REQUIRE((*w)->Commit({manifest->get(), nullptr}).ok());
  CHECK(ReadFile(o.path) == seen);
  CHECK(seen.substr(0, 2) == "\x1f\x8b");  // gzip, from the name
  CHECK(std::filesystem::exists(dir + "/manifest.json"));
}

TEST_CASE("ShardedOutput: a task index not below the task count is refused") {
  ShardedOutputOptions o;
  o.path = "unused";
  o.num_shards = 2;
  o.task_index = 2;
  o.num_tasks = 2;
  CHECK(ShardedOutput::Create(o).status().code() == StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tfq
