// RunShuffle and RunWindowShuffle over real files: shards, determinism across memory sizes and
// directories, the window shuffle's locality, and no temporaries left behind.
#include "reshard/shuffle.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "reshard_test_util.h"
#include "shuffle_stats.h"
#include "tfrecord/open.h"

namespace tfq::reshard {
namespace {

using testing::ListDir;
using testing::ReadRecords;
using testing::Recs;
using testing::WriteRecords;

struct ShuffleFixture {
  std::string dir = testing::MakeTempDir();
  std::vector<std::string> inputs = {dir + "/in-a", dir + "/in-b", dir + "/in-c"};
  explicit ShuffleFixture(size_t size = 0) {
    WriteRecords(inputs[0], Recs(0, 300, size));
    WriteRecords(inputs[1], Recs(300, 301, size));
    WriteRecords(inputs[2], Recs(301, 1000, size));
  }
  // All output records, shard after shard.
  std::vector<std::string> Run(ShuffleOptions o, RunSummary* summary = nullptr) {
    RunSummary local;
    if (!summary) summary = &local;
    REQUIRE(RunShuffle(inputs, o, summary).ok());
    std::vector<std::string> all;
    for (uint64_t k = 0; k < o.shards; ++k) {
      auto shard = ReadRecords(tfrecord::ShardName(o.output.prefix, k, o.shards, o.output.suffix));
      all.insert(all.end(), shard.begin(), shard.end());
    }
    return all;
  }
  ShuffleOptions Options(const std::string& name, uint64_t seed) const {
    ShuffleOptions o;
    o.seed = seed;
    o.output.prefix = dir + "/" + name;
    return o;
  }
};

TEST_CASE("a shuffled permutation of all inputs, cut into near-equal shards") {
  ShuffleFixture f;
  ShuffleOptions o = f.Options("out", 1);
  o.shards = 3;
  RunSummary summary;
  std::vector<std::string> all = f.Run(o, &summary);
  CHECK(summary.method == "in memory");
  CHECK(summary.expected == summary.written);
  CHECK(all != Recs(0, 1000));
  std::vector<std::string> sorted = all, expected = Recs(0, 1000);
  std::sort(sorted.begin(), sorted.end());
  std::sort(expected.begin(), expected.end());
  CHECK(sorted == expected);
  REQUIRE(summary.shards.size() == 3);
  CHECK(summary.shards[0].records == 333);
  CHECK(summary.shards[1].records == 333);
  CHECK(summary.shards[2].records == 334);
}

TEST_CASE("the same bytes out in memory, through buckets, by re-reading and by re-scanning") {
  ShuffleFixture big(40000);  // 1000 records of 40 KB: twice the 20 MiB arena of the smallest --memory
  ShuffleOptions roomy = big.Options("roomy", 7);
  roomy.memory = 256 << 20;
  ShuffleOptions buckets = big.Options("buckets", 7);
  buckets.memory = kMinShuffleMemory;
  buckets.method = ShuffleMethod::kBuckets;
  buckets.tmp_dir = testing::MakeTempDir();
  ShuffleOptions reread = big.Options("reread", 7);
  reread.memory = kMinShuffleMemory;
  reread.method = ShuffleMethod::kIndexed;
  ShuffleOptions automatic = big.Options("auto", 7);
  automatic.memory = kMinShuffleMemory;
  for (ShuffleOptions* o : {&roomy, &buckets, &reread, &automatic}) o->shards = 2;
  RunSummary s_roomy, s_buckets, s_reread, s_auto;
  const auto expected = big.Run(roomy, &s_roomy);
  CHECK(big.Run(buckets, &s_buckets) == expected);
  CHECK(big.Run(reread, &s_reread) == expected);
  CHECK(big.Run(automatic, &s_auto) == expected);
  CHECK(s_roomy.method == "in memory");
  CHECK(s_buckets.method.find("buckets") != std::string::npos);
  CHECK(s_buckets.temporary_bytes > 40000000);
  CHECK(s_reread.method.find("re-read in") == 0);
  CHECK(s_reread.temporary_bytes == 0);
  CHECK(s_auto.method.find("re-scanned in") == 0);  // plain files the page cache holds
  CHECK(s_auto.temporary_bytes == 0);
  for (uint64_t k = 0; k < 2; ++k) {
    const std::string bytes = testing::ReadFileOrDie(tfrecord::ShardName(roomy.output.prefix, k, 2));
    CHECK(testing::ReadFileOrDie(tfrecord::ShardName(buckets.output.prefix, k, 2)) == bytes);
    CHECK(testing::ReadFileOrDie(tfrecord::ShardName(reread.output.prefix, k, 2)) == bytes);
    CHECK(testing::ReadFileOrDie(tfrecord::ShardName(automatic.output.prefix, k, 2)) == bytes);
  }
  CHECK(ListDir(buckets.tmp_dir).empty());  // the spill file never had a name
}

TEST_CASE("auto re-scans what the page cache holds, re-reads large records beyond it, else buckets") {
  constexpr uint64_t kGiB = uint64_t{1} << 30;
  const uint64_t arena = uint64_t{488} << 20;  // --memory 512MB
  const auto survey = [](uint64_t file_bytes, uint64_t record_bytes) {
    InputSurvey s;
    s.file_bytes = file_bytes;
    s.sampled_records = 64;
    s.sampled_bytes = 64 * record_bytes;
    return s;
  };
  uint64_t records = 0;
  // 4 GiB of 64 KiB records: re-scanned while the cache holds them twice over, else re-read.
  CHECK(ChooseShuffleMethod(survey(4 * kGiB, 64 << 10), arena, 24 * kGiB, &records) == ShuffleMethod::kScan);
  CHECK(records == 65536);
  CHECK(ChooseShuffleMethod(survey(4 * kGiB, 64 << 10), arena, 8 * kGiB, &records) == ShuffleMethod::kScan);
  CHECK(ChooseShuffleMethod(survey(4 * kGiB, 64 << 10), arena, 8 * kGiB - 1, &records) ==
        ShuffleMethod::kIndexed);
  // 1 KiB records are never re-read one by one: beyond the cache they go through buckets.
  CHECK(ChooseShuffleMethod(survey(4 * kGiB, 1 << 10), arena, 24 * kGiB, &records) == ShuffleMethod::kScan);
  CHECK(ChooseShuffleMethod(survey(4 * kGiB, 1 << 10), arena, 4 * kGiB, &records) == ShuffleMethod::kBuckets);
  // More than kScanMaxPasses passes (about 32 times the budget) go back to re-reading.
  CHECK(ChooseShuffleMethod(survey(64 * kGiB, 1 << 20), arena, 256 * kGiB, &records) ==
        ShuffleMethod::kIndexed);
  // What fits in memory, compressed inputs and standard input go through buckets.
  CHECK(ChooseShuffleMethod(survey(arena, 64 << 10), arena, 24 * kGiB, &records) == ShuffleMethod::kBuckets);
  InputSurvey compressed = survey(4 * kGiB, 64 << 10);
  compressed.sizes_exact = false;
  CHECK(ChooseShuffleMethod(compressed, arena, 24 * kGiB, &records) == ShuffleMethod::kBuckets);
  InputSurvey piped = survey(4 * kGiB, 64 << 10);
  piped.rereadable = false;
  CHECK(ChooseShuffleMethod(piped, arena, 24 * kGiB, &records) == ShuffleMethod::kBuckets);
}

TEST_CASE("small records and compressed inputs go through buckets; re-reading can be forced") {
  ShuffleFixture f(100);
  ShuffleOptions o = f.Options("small", 3);
  o.memory = kMinShuffleMemory;
  RunSummary summary;
  const auto expected = f.Run(o, &summary);
  CHECK(summary.method == "in memory");
  ShuffleOptions forced = f.Options("forced", 3);
  forced.method = ShuffleMethod::kIndexed;
  CHECK(f.Run(forced, &summary) == expected);
  CHECK(summary.method == "re-read in 1 run");
  // A gzip input cannot be re-read at offsets.
  const std::string gz = testing::WriteGzipShard(f.dir + "/gz", Recs(0, 10));
  forced.output.prefix = f.dir + "/from-gz";
  CHECK(RunShuffle({gz}, forced, &summary).code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("different seeds differ, equal seeds agree") {
  ShuffleFixture f;
  CHECK(f.Run(f.Options("seed8", 8)) != f.Run(f.Options("seed7", 7)));
  CHECK(f.Run(f.Options("again", 7)) == f.Run(f.Options("seed7b", 7)));
}

TEST_CASE("the window shuffle: a permutation, local, first output uniform over the window") {
  ShuffleFixture f;
  ShuffleOptions o = f.Options("w", 3);
  o.window = 50;
  o.shards = 2;
  RunSummary summary;
  REQUIRE(RunShuffle(f.inputs, o, &summary).ok());
  const auto s0 = ReadRecords(f.dir + "/w-00000-of-00002");
  const auto s1 = ReadRecords(f.dir + "/w-00001-of-00002");
  CHECK(s0.size() == 500);
  CHECK(s1.size() == 500);
  std::vector<std::string> all;  // dealt round-robin: interleave back
  for (size_t i = 0; i < 500; ++i) {
    all.push_back(s0[i]);
    all.push_back(s1[i]);
  }
  std::map<std::string, int> index;
  for (int i = 0; i < 1000; ++i) index[testing::Rec(i)] = i;
  for (size_t p = 0; p < all.size(); ++p) {
    // At output p only records up to p + window - 1 have been read.
    CHECK(index.at(all[p]) <= static_cast<int>(p) + 49);
  }
  std::vector<std::string> sorted = all, expected = Recs(0, 1000);
  std::sort(sorted.begin(), sorted.end());
  std::sort(expected.begin(), expected.end());
  CHECK(sorted == expected);
}

TEST_CASE("window shuffle: the first output is uniform over the first N records") {
  const std::string dir = testing::MakeTempDir();
  WriteRecords(dir + "/in", Recs(0, 20));
  std::vector<double> counts(8, 0);
  for (uint64_t seed = 0; seed < 4000; ++seed) {
    ShuffleOptions o;
    o.seed = seed;
    o.window = 8;
    o.output.prefix = dir + "/o" + std::to_string(seed);
    RunSummary summary;
    REQUIRE(RunShuffle({dir + "/in"}, o, &summary).ok());
    const auto out = ReadRecords(o.output.prefix + "-00000-of-00001");
    counts[std::stoi(out[0].substr(4))] += 1;  // "rec-<i>", i < 8
    std::remove((o.output.prefix + "-00000-of-00001").c_str());
  }
  CHECK(testing::ChiSquareUniform(counts) < testing::ChiSquareCritical(7));
}

// A record as large as --memory allows (ShuffleMaxRecordBytes), two of them, among small ones.
struct LargeRecords {
  std::string dir = testing::MakeTempDir();
  uint64_t max = ShuffleMaxRecordBytes(kMinShuffleMemory);
  LargeRecords() {
    std::vector<std::string> fits = Recs(0, 40, 1000);
    fits[7] = testing::Rec(7, max);
    fits[30] = testing::Rec(30, max);
    WriteRecords(dir + "/fits", fits);
    std::vector<std::string> over = Recs(0, 3, 1000);
    over[1] = testing::Rec(1, max + 1);
    WriteRecords(dir + "/over", over);
  }
};

TEST_CASE("every method takes a record as large as ShuffleMaxRecordBytes, and none one byte more") {
  LargeRecords f;
  CHECK(f.max == (uint64_t{12} << 20) - 32);  // 24 MiB less 8 MiB to read and 4 MiB to write
  CHECK(ShuffleArenaBytes(kMinShuffleMemory) == uint64_t{12} << 20);
  ShuffleOptions roomy;
  roomy.memory = 256 << 20;
  roomy.output.prefix = f.dir + "/roomy";
  RunSummary roomy_summary;
  REQUIRE(RunShuffle({f.dir + "/fits"}, roomy, &roomy_summary).ok());
  const std::string expected = testing::ReadFileOrDie(roomy.output.prefix + "-00000-of-00001");
  for (ShuffleMethod method : {ShuffleMethod::kAuto, ShuffleMethod::kBuckets, ShuffleMethod::kIndexed, ShuffleMethod::kScan}) {
    CAPTURE(static_cast<int>(method));
    ShuffleOptions o;
    o.memory = kMinShuffleMemory;
    o.method = method;
    o.tmp_dir = f.dir;
    o.output.prefix = f.dir + "/out" + std::to_string(static_cast<int>(method));
    RunSummary summary;
    const Status s = RunShuffle({f.dir + "/fits"}, o, &summary);
    REQUIRE_MESSAGE(s.ok(), s.message());
    CHECK(summary.method.find("too little room") == std::string::npos);
    CHECK(testing::ReadFileOrDie(o.output.prefix + "-00000-of-00001") == expected);
    o.output.prefix = f.dir + "/over" + std::to_string(static_cast<int>(method));
    const size_t files = ListDir(f.dir).size();
    const Status over = RunShuffle({f.dir + "/over"}, o, &summary);
    CHECK(over.code() == StatusCode::kResourceExhausted);
    CHECK(over.message() == f.dir + "/over: record 1 (byte 1016): " + std::to_string(f.max + 1) +
                                " bytes, more than the " + std::to_string(f.max) +
                                " bytes --memory 24.0 MiB leaves for one record; raise --memory to 25.0 MiB or more");
    CHECK(ListDir(f.dir).size() == files);  // nothing written
  }
}

TEST_CASE("re-reading hands over to buckets when its references leave the largest record no room") {
  // 400 000 references (9.6 MB) and a record of 12 MiB exceed the 20 MiB re-reading holds.
  const std::string dir = testing::MakeTempDir();
  std::vector<std::string> records = Recs(0, 400000);
  records[123456] = testing::Rec(123456, ShuffleMaxRecordBytes(kMinShuffleMemory));
  WriteRecords(dir + "/in", records);
  ShuffleOptions roomy;
  roomy.memory = 256 << 20;
  roomy.output.prefix = dir + "/roomy";
  RunSummary summary;
  REQUIRE(RunShuffle({dir + "/in"}, roomy, &summary).ok());
  ShuffleOptions o = roomy;
  o.memory = kMinShuffleMemory;
  o.method = ShuffleMethod::kIndexed;
  o.output.prefix = dir + "/reread";
  const Status s = RunShuffle({dir + "/in"}, o, &summary);
  REQUIRE_MESSAGE(s.ok(), s.message());
  const bool handed_over = summary.method.find(" buckets, ") != std::string::npos &&
                           summary.method.find("; the largest record left re-reading too little room") != std::string::npos;
  CHECK_MESSAGE(handed_over, summary.method);
  CHECK(summary.records_read == 400000);
  CHECK(summary.written == summary.expected);
  CHECK(testing::ReadFileOrDie(o.output.prefix + "-00000-of-00001") ==
        testing::ReadFileOrDie(roomy.output.prefix + "-00000-of-00001"));
}

TEST_CASE("shuffle options are checked") {
  ShuffleOptions o;
  o.output.prefix = "x";
  o.memory = 1 << 20;
  CHECK(ValidateShuffleOptions(o).code() == StatusCode::kInvalidArgument);
  o.memory = kMinShuffleMemory;
  CHECK(ValidateShuffleOptions(o).ok());
  o.shards = 0;
  CHECK(ValidateShuffleOptions(o).code() == StatusCode::kInvalidArgument);
  o.shards = 1;
  o.tmp_dir = "/nonexistent/dir";
  CHECK(ValidateShuffleOptions(o).code() == StatusCode::kNotFound);
  CHECK(ShuffleTmpDir(o) == "/nonexistent/dir");
  o.tmp_dir = "";
  o.output.prefix = "a/b/c";
  CHECK(ShuffleTmpDir(o) == "a/b");
  o.output.prefix = "c";
  CHECK(ShuffleTmpDir(o) == ".");
}

TEST_CASE("the compressing threads take their memory out of --memory, at most an eighth of it") {
  ShardSetOptions out;
  out.compression = Compression::kGzip;
  out.threads = 16;
  const uint64_t MiB = uint64_t{1} << 20;
  CHECK(ShuffleCompressionReserve(512 * MiB, out) == 16 * kDeflateMemoryPerThread);
  CHECK(ShuffleCompressThreads(512 * MiB, out) == 16);
  CHECK(ShuffleCompressionReserve(64 * MiB, out) == 5 * MiB);  // (64 - 24) / 8
  CHECK(ShuffleCompressThreads(64 * MiB, out) == 2);
  CHECK(ShuffleCompressionReserve(kMinShuffleMemory, out) == 0);
  CHECK(ShuffleCompressThreads(kMinShuffleMemory, out) == 1);
  ShardSetOptions plain = out;
  plain.compression = Compression::kNone;
  CHECK(ShuffleCompressionReserve(512 * MiB, plain) == 0);
  ShardSetOptions one = out;
  one.threads = 1;
  CHECK(ShuffleCompressionReserve(512 * MiB, one) == 0);
  // What is left for records never shrinks as --memory grows (the least --memory a record needs
  // is found by bisection over it).
  uint64_t last = 0;
  for (uint64_t m = kMinShuffleMemory; m < 600 * MiB; m += MiB / 4) {
    ShuffleOptions o;
    o.memory = m;
    o.output = out;
    const uint64_t left = ShuffleRecordMemory(o);
    CHECK(left >= last);
    CHECK(left + ShuffleCompressionReserve(m, out) == m);
    last = left;
  }
}

TEST_CASE("a compressed shuffle is the same for any number of compressing threads") {
  const std::string dir = testing::MakeTempDir();
  std::vector<std::string> records;
  for (int i = 0; i < 4000; ++i) records.push_back(testing::Rec(i, 300 + i % 700));
  WriteRecords(dir + "/in", records);
  std::map<int, std::string> shards;
  for (int threads : {1, 2, 3}) {
    ShuffleOptions o;
    o.seed = 9;
    o.memory = 100 << 20;
    o.output.prefix = dir + "/t" + std::to_string(threads);
    o.output.compression = Compression::kGzip;
    o.output.threads = threads;
    RunSummary summary;
    REQUIRE(RunShuffle({dir + "/in"}, o, &summary).ok());
    shards[threads] = testing::ReadFileOrDie(o.output.prefix + "-00000-of-00001");
  }
  CHECK(shards[1] == shards[2]);
  CHECK(shards[1] == shards[3]);
  CHECK(shards[1].size() > 1000);
}

}  // namespace
}  // namespace tfq::reshard
