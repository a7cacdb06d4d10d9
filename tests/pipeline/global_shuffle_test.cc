// The global shuffle: IndexPermutation is a bijection that puts every element everywhere about
// equally often, and a pipeline with global_shuffle reads every record of every file exactly
// once per epoch, in an order that depends only on the seed and the epoch.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "common/random.h"
#include "pipeline/index_permutation.h"
#include "pipeline_test_util.h"

namespace tfq::pipeline {
namespace {

using testing::Id;
using testing::WriteExampleFiles;

std::vector<std::vector<Id>> Epochs(Pipeline* pipeline, size_t epochs) {
  std::vector<std::vector<Id>> out(epochs);
  Batch batch;
  while (pipeline->Next(&batch)) {
    for (const RecordSource& s : batch.sources) out.at(s.epoch).emplace_back(s.file, s.index);
    const Column* index = batch.column("index");
    const Column* file = batch.column("file");
    for (size_t r = 0; r < batch.rows; ++r) {  // the bytes are the named record's
      CHECK(index->int64_values[r] == static_cast<int64_t>(batch.sources[r].index));
      CHECK(file->int64_values[r] == static_cast<int64_t>(batch.sources[r].file));
    }
  }
  REQUIRE_MESSAGE(pipeline->status().ok(), pipeline->status().ToString());
  return out;
}

PipelineOptions GlobalOptions(const std::vector<std::string>& paths) {
  PipelineOptions o;
  o.read.inputs = paths;
  o.read.global_shuffle = true;
  o.read.seed = 5;
  o.read.epochs = 3;
  o.batch_size = 4;
  o.features = {FixedLenInt64("file"), FixedLenInt64("index")};
  return o;
}

}  // namespace

TEST_CASE("IndexPermutation is a bijection of [0, n) for every size") {
  SplitMix64 rng(3);
  for (uint64_t n : {0ull, 1ull, 2ull, 3ull, 4ull, 5ull, 15ull, 16ull, 17ull, 1000ull, 4097ull, 65537ull}) {
    CAPTURE(n);
    IndexPermutation p(n, rng.Next());
    std::vector<bool> hit(n, false);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t x = p(i);
      REQUIRE(x < n);
      CHECK_FALSE(hit[x]);
      hit[x] = true;
    }
  }
}

TEST_CASE("IndexPermutation puts each element at each position about equally often") {
  const uint64_t n = 10;
  const int trials = 20000;
  std::vector<std::vector<int>> count(n, std::vector<int>(n, 0));
  for (int t = 0; t < trials; ++t) {
    IndexPermutation p(n, static_cast<uint64_t>(t) * 0x9E3779B97F4A7C15ULL);
    for (uint64_t i = 0; i < n; ++i) ++count[i][p(i)];
  }
  // Expected 2000 per cell; a binomial's standard deviation is ~42. Allow 6 sigma.
  for (uint64_t i = 0; i < n; ++i) {
    for (uint64_t x = 0; x < n; ++x) {
      CAPTURE(i);
      CAPTURE(x);
      CHECK(std::abs(count[i][x] - trials / static_cast<int>(n)) < 260);
    }
  }
}

TEST_CASE("a global shuffle reads every record once per epoch, reshuffled, the same for a seed") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {7, 0, 30, 1, 12});
  std::set<Id> all;
  for (uint32_t f : {0u, 2u, 3u, 4u}) {
    const size_t sizes[] = {7, 0, 30, 1, 12};
    for (uint64_t i = 0; i < sizes[f]; ++i) all.insert({f, i});
  }
  PipelineOptions o = GlobalOptions(paths);
  auto p = testing::OpenPipeline(o);
  const auto epochs = Epochs(p.get(), 3);
  for (const auto& epoch : epochs) {
    CHECK(epoch.size() == all.size());
    CHECK(std::set<Id>(epoch.begin(), epoch.end()) == all);
  }
  CHECK(epochs[0] != epochs[1]);
  CHECK(epochs[1] != epochs[2]);
  // Files are mixed: the first ten records do not all come from one file.
  std::set<uint32_t> first_files;
  for (size_t i = 0; i < 10; ++i) first_files.insert(epochs[0][i].first);
  CHECK(first_files.size() > 1);
  // Same seed, any thread count: the same order. Another seed: another order.
  PipelineOptions threads = o;
  threads.parse_threads = 3;
  auto q = testing::OpenPipeline(threads);
  CHECK(Epochs(q.get(), 3) == epochs);
  PipelineOptions other = o;
  other.read.seed = 6;
  auto r = testing::OpenPipeline(other);
  CHECK(Epochs(r.get(), 3)[0] != epochs[0]);
  // Without reshuffling every epoch repeats the first one's order.
  PipelineOptions same = o;
  same.read.reshuffle_each_epoch = false;
  auto s = testing::OpenPipeline(same);
  const auto fixed = Epochs(s.get(), 3);
  CHECK(fixed[0] == fixed[1]);
  CHECK(fixed[1] == fixed[2]);
}

TEST_CASE("a global shuffle over gzip files, split between ranks") {
  const auto plain = WriteExampleFiles(tfq::testing::MakeTempDir(), {9, 14, 3});
  std::vector<std::string> paths;
  for (const std::string& path : plain) {
    REQUIRE(std::system(("gzip -n -k -f " + path).c_str()) == 0);
    paths.push_back(path + ".gz");
  }
  std::map<Id, int> seen;
  for (uint64_t rank = 0; rank < 3; ++rank) {
    PipelineOptions o = GlobalOptions(paths);
    o.read.epochs = 1;
    o.read.world_size = 3;
    o.read.rank = rank;
    o.read.rank_balance = RankBalance::kDrop;
    auto p = testing::OpenPipeline(o);
    CHECK(p->epoch_quota() == 26 / 3);
    const auto epoch = Epochs(p.get(), 1)[0];
    CHECK(epoch.size() == 26 / 3);
    for (const Id& id : epoch) ++seen[id];
  }
  CHECK(seen.size() == 3 * (26 / 3));
  for (const auto& [id, count] : seen) CHECK(count == 1);
}

TEST_CASE("a global shuffle names a corrupt record, or skips it and counts it") {
  const std::string dir = tfq::testing::MakeTempDir();
  const auto paths = WriteExampleFiles(dir, {20});
  {  // flip a payload byte of record 5 (records of this file are the same size)
    std::FILE* f = std::fopen(paths[0].c_str(), "r+b");
    REQUIRE(f != nullptr);
    std::fseek(f, 0, SEEK_END);
    const long record = std::ftell(f) / 20;
    std::fseek(f, 5 * record + 14, SEEK_SET);
    const int c = std::fgetc(f);
    std::fseek(f, 5 * record + 14, SEEK_SET);
    std::fputc(c ^ 0x55, f);
    std::fclose(f);
  }
  PipelineOptions o = GlobalOptions(paths);
  o.read.epochs = 1;
  {
    auto p = testing::OpenPipeline(o);
    Batch batch;
    while (p->Next(&batch)) {
    }
    CHECK(p->status().code() == StatusCode::kCorruption);
    CHECK_MESSAGE(p->status().message().find("record 5") != std::string::npos, p->status().ToString());
  }
  o.read.on_error = OnError::kSkip;
  auto p = testing::OpenPipeline(o);
  const auto epoch = Epochs(p.get(), 1)[0];
  CHECK(epoch.size() == 19);
  CHECK(p->skip_stats().corrupt_records == 1);
}

TEST_CASE("a global shuffle refuses a shuffle buffer and record shards") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {3});
  PipelineOptions o = GlobalOptions(paths);
  o.read.shuffle_buffer_size = 10;
  CHECK(Pipeline::Open(o).status().code() == StatusCode::kInvalidArgument);
  o.read.shuffle_buffer_size = 0;
  o.read.record_shard = Shard{2, 1};
  CHECK(Pipeline::Open(o).status().code() == StatusCode::kInvalidArgument);
}

}  // namespace tfq::pipeline
