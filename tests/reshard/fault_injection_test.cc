// A full disk under `tfq shard` and `tfq shuffle`: the shard set writes through its own
// descriptors (and a writer thread), so the failure is made by the kernel itself: RLIMIT_FSIZE
// (tests/common/fault_streams.h) makes write() fail once a file would grow past the limit, as a
// full device does. The error must name the file and stop the run; nothing may be left under a
// final name, and no temporary at all.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <string>
#include <vector>

#include "common/test_env.h"
#include "common/fault_streams.h"
#include "reshard/shard.h"
#include "reshard/shard_set.h"
#include "reshard/shuffle.h"
#include "reshard_test_util.h"

namespace tfq::reshard {
namespace {

using testing::ListDir;
using testing::Recs;
using testing::WriteRecords;
using tfq::testing::FileSizeLimit;

constexpr uint64_t kLimit = 256 << 10;

using ::tfq::testing::Contains;

// Inputs of `records` KB in `dir` (written before any limit is set); outputs go to `dir`/out.
struct Fixture {
  std::string dir = testing::MakeTempDir();
  std::vector<std::string> inputs = {dir + "/a", dir + "/b"};
  std::string out = dir + "/out";
  explicit Fixture(int records = 2000) {
    WriteRecords(inputs[0], Recs(0, records / 2, 1000));
    WriteRecords(inputs[1], Recs(records / 2, records, 1000));
    REQUIRE(mkdir(out.c_str(), 0777) == 0);
  }
};

void CheckFileTooLarge(const Status& s) {
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(Contains(s.message(), "/out/.tfq-partial.train-0000"));  // the shard being written
  CHECK(Contains(s.message(), "file too large for this process's file-size limit (ulimit -f)"));
}

TEST_CASE("ShardSet: a write that fails on the writer thread is reported and nothing is left") {
  for (bool writer_thread : {true, false}) {
    CAPTURE(writer_thread);
    Fixture f;
    Status s;
    {
      FileSizeLimit limit(kLimit);
      ShardSetOptions o;
      o.prefix = f.out + "/train";
      o.writer_thread = writer_thread;
      o.buffer_bytes = 64 << 10;
      auto set = ShardSet::Create(o);
      REQUIRE(set.ok());
      const std::string record(4000, 'r');
      for (int i = 0; i < 1000 && s.ok(); ++i) s = (*set)->Write(i % 3, record);
      if (s.ok()) s = (*set)->Commit(3);
    }
    CheckFileTooLarge(s);
    CHECK(ListDir(f.out).empty());
  }
}

TEST_CASE("RunShard: a full disk stops the run with no shard and no temporary left") {
  for (bool contiguous : {false, true}) {
    CAPTURE(contiguous);
    Fixture f;
    ShardOptions o;
    o.shards = 3;
    o.contiguous = contiguous;
    o.output.prefix = f.out + "/train";
    RunSummary summary;
    Status s;
    {
      FileSizeLimit limit(kLimit);
      s = RunShard(f.inputs, o, &summary);
    }
    CheckFileTooLarge(s);
    CHECK(ListDir(f.out).empty());
  }
}

TEST_CASE("RunShuffle: a full disk while spilling or writing leaves nothing behind") {
  for (uint64_t memory : {kMinShuffleMemory, uint64_t{512} << 20}) {  // buckets spilled; in memory
    CAPTURE(memory);
    Fixture f(memory == kMinShuffleMemory ? 30000 : 2000);  // 30 MB do not fit in 24 MiB
    ShuffleOptions o;
    o.seed = 7;
    o.shards = 2;
    o.memory = memory;
    o.method = ShuffleMethod::kBuckets;
    o.output.prefix = f.out + "/train";
    RunSummary summary;
    Status s;
    {
      FileSizeLimit limit(kLimit);
      s = RunShuffle(f.inputs, o, &summary);
    }
    CHECK(s.code() == StatusCode::kIoError);
    CHECK(Contains(s.message(), "file too large for this process's file-size limit (ulimit -f)"));
    CHECK(ListDir(f.out).empty());
  }
}

}  // namespace
}  // namespace tfq::reshard
