// RunShard: where each record goes in every mode, how shards are named, compression both ways,
// and that a failed run leaves nothing behind.
#include "reshard/shard.h"

#include <unistd.h>

#include <doctest/doctest.h>

#include <cstdio>

#include "reshard_test_util.h"
#include "tfrecord/format.h"
#include "tfrecord/open.h"

namespace tfq::reshard {
namespace {

using testing::ListDir;
using testing::ReadRecords;
using testing::Rec;
using testing::Recs;
using testing::WriteRecords;

// Two inputs holding records 0..9 and 10..16.
struct ShardFixture {
  std::string dir = testing::MakeTempDir();
  std::vector<std::string> inputs = {dir + "/in-a", dir + "/in-b"};
  ShardFixture() {
    WriteRecords(inputs[0], Recs(0, 10));
    WriteRecords(inputs[1], Recs(10, 17));
  }
  ShardOptions Options() const {
    ShardOptions o;
    o.output.prefix = dir + "/out";
    return o;
  }
  std::vector<std::string> Shard(uint64_t k, uint64_t n, const std::string& suffix = "") const {
    return ReadRecords(tfrecord::ShardName(dir + "/out", k, n, suffix));
  }
};

std::vector<std::string> Pick(const std::vector<int>& ids) {
  std::vector<std::string> out;
  for (int i : ids) out.push_back(Rec(i));
  return out;
}

TEST_CASE("round-robin: record j goes to shard j % N, in order") {
  ShardFixture f;
  ShardOptions o = f.Options();
  o.shards = 3;
  RunSummary summary;
  REQUIRE(RunShard(f.inputs, o, &summary).ok());
  CHECK(f.Shard(0, 3) == Pick({0, 3, 6, 9, 12, 15}));
  CHECK(f.Shard(1, 3) == Pick({1, 4, 7, 10, 13, 16}));
  CHECK(f.Shard(2, 3) == Pick({2, 5, 8, 11, 14}));
  CHECK(summary.records_read == 17);
  CHECK(summary.expected == summary.written);
  CHECK(summary.shards.size() == 3);
  CHECK(summary.shards[1].records == 6);
  // Only the three shards and the inputs: no temporaries.
  CHECK(ListDir(f.dir) == std::vector<std::string>{"in-a", "in-b", "out-00000-of-00003",
                                                   "out-00001-of-00003", "out-00002-of-00003"});
}

TEST_CASE("contiguous --shards N: consecutive runs differing by at most one record") {
  ShardFixture f;
  ShardOptions o = f.Options();
  o.shards = 3;
  o.contiguous = true;
  RunSummary summary;
  REQUIRE(RunShard(f.inputs, o, &summary).ok());
  CHECK(f.Shard(0, 3) == Recs(0, 5));
  CHECK(f.Shard(1, 3) == Recs(5, 11));
  CHECK(f.Shard(2, 3) == Recs(11, 17));
}

TEST_CASE("--records-per-shard, contiguous and round-robin") {
  ShardFixture f;
  ShardOptions o = f.Options();
  o.records_per_shard = 5;
  o.contiguous = true;
  RunSummary summary;
  REQUIRE(RunShard(f.inputs, o, &summary).ok());
  CHECK(f.Shard(0, 4) == Recs(0, 5));
  CHECK(f.Shard(3, 4) == Recs(15, 17));

  ShardFixture g;
  o = g.Options();
  o.records_per_shard = 5;  // ceil(17 / 5) = 4 shards, dealt round-robin
  REQUIRE(RunShard(g.inputs, o, &summary).ok());
  CHECK(g.Shard(0, 4) == Pick({0, 4, 8, 12, 16}));
  CHECK(g.Shard(3, 4) == Pick({3, 7, 11, 15}));
}

TEST_CASE("--shard-size: contiguous fills up to the size, round-robin divides the total") {
  ShardFixture f;
  ShardOptions o = f.Options();
  // Records "rec-0".."rec-9" frame to 21 bytes, "rec-10".. to 22: 50 bytes hold two records.
  o.shard_bytes = 50;
  o.contiguous = true;
  o.output.suffix = ".tfrecord";
  RunSummary summary;
  REQUIRE(RunShard(f.inputs, o, &summary).ok());
  REQUIRE(summary.shards.size() == 9);
  CHECK(f.Shard(0, 9, ".tfrecord") == Recs(0, 2));
  CHECK(f.Shard(8, 9, ".tfrecord") == Recs(16, 17));
  for (const auto& s : summary.shards) CHECK(s.bytes <= 50);

  ShardFixture g;
  o = g.Options();
  o.shard_bytes = 100;  // 17 records, 364 framed bytes: ceil(364 / 100) = 4 shards
  REQUIRE(RunShard(g.inputs, o, &summary).ok());
  CHECK(summary.shards.size() == 4);
  CHECK(g.Shard(1, 4) == Pick({1, 5, 9, 13}));

  // A record larger than the size gets a shard of its own.
  ShardFixture h;
  WriteRecords(h.inputs[1], {Rec(10, 500), Rec(11)});
  o = h.Options();
  o.shard_bytes = 50;
  o.contiguous = true;
  REQUIRE(RunShard(h.inputs, o, &summary).ok());
  CHECK(summary.shards.size() == 7);
  CHECK(h.Shard(5, 7) == std::vector<std::string>{Rec(10, 500)});
}

TEST_CASE("--index i --num-shards n writes exactly tf.data's shard i") {
  ShardFixture f;
  ShardOptions o = f.Options();
  o.single = true;
  o.index = 1;
  o.num_shards = 4;
  RunSummary summary;
  REQUIRE(RunShard(f.inputs, o, &summary).ok());
  CHECK(ListDir(f.dir) == std::vector<std::string>{"in-a", "in-b", "out-00001-of-00004"});
  CHECK(f.Shard(1, 4) == Pick({1, 5, 9, 13}));
  CHECK(summary.records_read == 17);
  CHECK(summary.expected.count() == 4);
  CHECK(summary.written == summary.expected);
}

TEST_CASE("compression in and out are independent") {
  ShardFixture f;
  ShardOptions o = f.Options();
  o.shards = 2;
  o.output.compression = Compression::kGzip;
  o.output.suffix = ".gz";
  RunSummary summary;
  REQUIRE(RunShard(f.inputs, o, &summary).ok());
  const std::string gz = tfrecord::ShardName(f.dir + "/out", 0, 2, ".gz");
  CHECK(testing::ReadFileOrDie(gz).substr(0, 2) == "\x1f\x8b");
  // Back from gzip to plain zlib, inputs sniffed.
  ShardOptions back = f.Options();
  back.output.prefix = f.dir + "/again";
  back.output.compression = Compression::kZlib;
  back.shards = 1;
  REQUIRE(RunShard({gz, tfrecord::ShardName(f.dir + "/out", 1, 2, ".gz")}, back, &summary).ok());
  CHECK(ReadRecords(f.dir + "/again-00000-of-00001") == Pick({0, 2, 4, 6, 8, 10, 12, 14, 16, 1, 3, 5, 7, 9, 11, 13, 15}));
}

TEST_CASE("large records are copied by the kernel, in order with the small ones") {
  // Sizes alternate around kCopyMinBytes, so each round-robin shard mixes buffered writes and
  // copies; contiguous shards are copied whole (merged copies), whatever the sizes.
  const std::string dir = testing::MakeTempDir();
  std::vector<std::string> records;
  for (int i = 0; i < 60; ++i) {
    records.push_back(Rec(i, i % 3 == 0 ? kCopyMinBytes + 1000 : (i % 3 == 1 ? 100 : 9000)));
  }
  WriteRecords(dir + "/in", std::vector<std::string>(records.begin(), records.begin() + 35));
  WriteRecords(dir + "/in2", std::vector<std::string>(records.begin() + 35, records.end()));
  // On this file system (copy_file_range) and, where there is one, across to tmpfs (where the
  // writer thread falls back to read + write).
  for (const std::string& out_dir : {dir, std::string("/dev/shm")}) {
    if (access(out_dir.c_str(), W_OK) != 0) continue;
    CAPTURE(out_dir);
    for (bool contiguous : {false, true}) {
      ShardOptions o;
      o.output.prefix = out_dir + "/copied-" + std::to_string(getpid());
      o.shards = 4;
      o.contiguous = contiguous;
      RunSummary summary;
      REQUIRE(RunShard({dir + "/in", dir + "/in2"}, o, &summary).ok());
      std::vector<std::string> all;
      for (uint64_t k = 0; k < 4; ++k) {
        const std::string path = tfrecord::ShardName(o.output.prefix, k, 4);
        for (auto& r : ReadRecords(path)) all.push_back(std::move(r));
        std::remove(path.c_str());
      }
      if (!contiguous) {  // undo the round-robin deal
        std::vector<std::string> dealt;
        for (int k = 0; k < 4; ++k) {
          for (int i = k; i < 60; i += 4) dealt.push_back(records[i]);
        }
        records.swap(dealt);
        CHECK(all == records);
        records.swap(dealt);
      } else {
        CHECK(all == records);
      }
      CHECK(summary.expected == summary.written);
    }
  }
}

TEST_CASE("empty inputs still produce the shards") {
  const std::string dir = testing::MakeTempDir();
  WriteRecords(dir + "/empty", {});
  ShardOptions o;
  o.output.prefix = dir + "/out";
  o.shards = 2;
  RunSummary summary;
  REQUIRE(RunShard({dir + "/empty"}, o, &summary).ok());
  CHECK(ReadRecords(dir + "/out-00001-of-00002").empty());
  o.output.prefix = dir + "/c";
  o.shards = 0;
  o.records_per_shard = 10;
  o.contiguous = true;
  REQUIRE(RunShard({dir + "/empty"}, o, &summary).ok());
  CHECK(ReadRecords(dir + "/c-00000-of-00001").empty());
}

TEST_CASE("corrupt input: an error naming the place, and no output at all") {
  ShardFixture f;
  std::string bytes = testing::ReadFileOrDie(f.inputs[1]);
  bytes[tfrecord::kHeaderSize + 25] ^= 1;  // a payload byte of the second record
  testing::WriteFileOrDie(f.inputs[1], bytes);
  for (bool contiguous : {false, true}) {
    ShardOptions o = f.Options();
    o.shards = 3;
    o.contiguous = contiguous;
    RunSummary summary;
    Status s = RunShard(f.inputs, o, &summary);
    CHECK(s.code() == StatusCode::kCorruption);
    CHECK(s.message().find("in-b: record 1") != std::string::npos);
    CHECK(ListDir(f.dir) == std::vector<std::string>{"in-a", "in-b"});
  }
  // --skip-corrupt drops it and says so; the checksum covers what was kept.
  ShardOptions o = f.Options();
  o.shards = 2;
  o.input.reader.on_corruption = tfrecord::CorruptionPolicy::kSkipDataCrc;
  RunSummary summary;
  REQUIRE(RunShard(f.inputs, o, &summary).ok());
  CHECK(summary.records_read == 16);
  CHECK(summary.skipped.corrupt_records == 1);
}

TEST_CASE("option combinations are checked") {
  ShardOptions o;
  o.output.prefix = "out/x";
  CHECK(ValidateShardOptions(o).code() == StatusCode::kInvalidArgument);
  o.shards = 2;
  CHECK(ValidateShardOptions(o).ok());
  o.records_per_shard = 3;
  CHECK(ValidateShardOptions(o).code() == StatusCode::kInvalidArgument);
  ShardOptions one;
  one.output.prefix = "out/x";
  one.single = true;
  one.index = 4;
  one.num_shards = 4;
  CHECK(ValidateShardOptions(one).code() == StatusCode::kInvalidArgument);
  one.index = 3;
  CHECK(ValidateShardOptions(one).ok());
  one.contiguous = true;
  CHECK(ValidateShardOptions(one).code() == StatusCode::kInvalidArgument);
  one.contiguous = false;
  for (const char* bad : {"", "-", "out/"}) {
    one.output.prefix = bad;
    CHECK(ValidateShardOptions(one).code() == StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace tfq::reshard
