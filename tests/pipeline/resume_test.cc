// Exact resume and ranks. Resume: a pipeline stopped after k batches, saved (after the k-th, or
// after an earlier one, as a consumer with a queue saves), destroyed and opened again from its
// state yields exactly the batches an uninterrupted run yields after that, for random
// configurations (file shuffling, interleave, shuffle buffer, epochs, batching, record shards,
// ranks, gzip files) and random stop points, several stops per run. Ranks: disjoint shares that
// cover every record of an epoch, the same number of batches on every rank, padding marked.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "common/random.h"
#include "pipeline_test_util.h"

namespace tfq::pipeline {
namespace {

using testing::WriteExampleFiles;

// What identifies a row: where it came from and whether it is padding, plus its parsed "index"
// column value (so that the bytes really are that record's).
using Row = std::tuple<uint32_t, uint32_t, uint64_t, bool, int64_t>;

std::vector<std::vector<Row>> Rows(Pipeline* pipeline, size_t max_batches, bool* ended) {
  std::vector<std::vector<Row>> batches;
  Batch batch;
  *ended = false;
  while (batches.size() < max_batches) {
    if (!pipeline->Next(&batch)) {
      REQUIRE_MESSAGE(pipeline->status().ok(), pipeline->status().ToString());
      *ended = true;
      break;
    }
    const Column* index = batch.column("index");
    REQUIRE(index != nullptr);
    std::vector<Row> rows;
    for (size_t r = 0; r < batch.rows; ++r) {
      const RecordSource& s = batch.sources[r];
      rows.emplace_back(s.file, s.epoch, s.index, s.padding, index->int64_values[r]);
    }
    batches.push_back(std::move(rows));
  }
  return batches;
}

std::unique_ptr<Pipeline> Resume(const PipelineOptions& o, const std::string& state) {
  Result<std::unique_ptr<Pipeline>> p = Pipeline::Open(o, state);
  REQUIRE_MESSAGE(p.ok(), p.status().ToString());
  return std::move(p).value();
}

// Writes `sizes` record files (gzip ones where asked) under a fresh folder.
std::vector<std::string> WriteFiles(const std::vector<size_t>& sizes, bool gzip) {
  std::vector<std::string> paths = WriteExampleFiles(tfq::testing::MakeTempDir(), sizes);
  if (!gzip) return paths;
  for (std::string& path : paths) {
    REQUIRE(std::system(("gzip -n -f " + path).c_str()) == 0);
    path += ".gz";
  }
  return paths;
}

struct Config {
  std::vector<size_t> sizes;
  PipelineOptions options;
  bool gzip = false;
};

Config RandomConfig(SplitMix64& rng) {
  Config c;
  const size_t files = 1 + rng.Below(5);
  for (size_t f = 0; f < files; ++f) c.sizes.push_back(rng.Below(4) == 0 ? 0 : rng.Below(30));
  c.gzip = rng.Below(4) == 0;
  ReadOptions& r = c.options.read;
  r.cycle_length = 1 + rng.Below(4);
  r.block_length = 1 + rng.Below(3);
  r.shuffle_files = rng.Below(2) == 0;
  const size_t buffers[] = {0, 0, 1, 2, 7, 50};
  r.shuffle_buffer_size = buffers[rng.Below(6)];
  r.reshuffle_each_epoch = rng.Below(3) != 0;
  r.seed = rng.Below(1000);
  r.epochs = static_cast<int64_t>(1 + rng.Below(3));
  if (rng.Below(3) == 0) {
    r.world_size = 1 + rng.Below(4);
    r.rank = rng.Below(r.world_size);
    r.rank_split = static_cast<RankSplit>(rng.Below(3));
    r.rank_balance = rng.Below(2) == 0 ? RankBalance::kDrop : RankBalance::kPad;
  } else if (rng.Below(3) == 0) {
    r.record_shard = Shard{2, rng.Below(2)};
  }
  if (rng.Below(4) == 0 && r.record_shard.count == 1) {
    r.global_shuffle = true;
    r.shuffle_buffer_size = 0;
  }
  // Small buffers and chunks make the threads run far ahead of the consumer at every stop.
  r.file_buffer_records = 1 + rng.Below(8);
  r.reader_threads = 1 + rng.Below(3);
  c.options.batch_size = 1 + rng.Below(7);
  c.options.drop_remainder = rng.Below(3) == 0;
  c.options.parse_threads = 1 + rng.Below(3);
  c.options.prefetch = rng.Below(3);
  c.options.features = {FixedLenInt64("index")};
  if (rng.Below(4) == 0) {  // bucketing by the length of "weights" (index % 4 values)
    c.options.features.push_back(VarLenFloat("weights"));
    BucketOptions b;
    b.length_key = "weights";
    b.boundaries = {1 + rng.Below(2), 3};
    b.batch_sizes = {1 + rng.Below(3), 1 + rng.Below(3), 1 + rng.Below(3)};
    b.pad = rng.Below(2) == 0;
    b.drop_remainder = rng.Below(2) == 0;
    c.options.bucketing = b;
    c.options.batch_size = 1;
    c.options.drop_remainder = false;
  }
  return c;
}

std::string Describe(const Config& c) {
  const ReadOptions& r = c.options.read;
  std::string s = "sizes";
  for (size_t n : c.sizes) {
    s += ' ';
    s += std::to_string(n);
  }
  s += c.gzip ? " gzip" : "";
  s += " cycle " + std::to_string(r.cycle_length) + " block " + std::to_string(r.block_length) +
       " shuffle_files " + std::to_string(r.shuffle_files) + " buffer " +
       std::to_string(r.shuffle_buffer_size) + " reshuffle " + std::to_string(r.reshuffle_each_epoch) +
       " epochs " + std::to_string(r.epochs) + " rank " + std::to_string(r.rank) + "/" +
       std::to_string(r.world_size) + " split " + std::to_string(int(r.rank_split)) + " balance " +
       std::to_string(int(r.rank_balance)) + " record_shard " + std::to_string(r.record_shard.index) +
       "/" + std::to_string(r.record_shard.count) + " batch " + std::to_string(c.options.batch_size) +
       " drop " + std::to_string(c.options.drop_remainder) + " global " + std::to_string(r.global_shuffle) +
       " bucketing " + std::to_string(c.options.bucketing.has_value());
  return s;
}

}  // namespace

TEST_CASE("a resumed pipeline yields exactly the batches that would have come next") {
  SplitMix64 rng(20261126);
  for (int trial = 0; trial < 80; ++trial) {
    Config c = RandomConfig(rng);
    CAPTURE(trial);
    const std::string what = Describe(c);
    CAPTURE(what);
    c.options.read.inputs = WriteFiles(c.sizes, c.gzip);
    bool ended = false;
    std::vector<std::vector<Row>> expected;
    {
      Result<std::unique_ptr<Pipeline>> p = Pipeline::Open(c.options);
      if (!p.ok() && p.status().message().find("no records to pad with") != std::string::npos) {
        continue;  // a configuration the ranks test covers
      }
      REQUIRE_MESSAGE(p.ok(), p.status().ToString());
      expected = Rows(p->get(), ~size_t{0}, &ended);
      REQUIRE(ended);
    }
    // Stop, save, reopen at random points until the end; compare everything delivered.
    std::vector<std::vector<Row>> got;
    std::unique_ptr<Pipeline> p = testing::OpenPipeline(c.options);
    ended = false;
    for (int stops = 0; !ended; ++stops) {
      const size_t take = rng.Below(expected.size() / 3 + 2);
      std::vector<std::vector<Row>> part = Rows(p.get(), take, &ended);
      // Sometimes as a consumer with a queue would: the last `lag` batches were never used, and
      // the state is the one after the batches before them.
      const size_t lag = rng.Below(std::min<size_t>(part.size(), 5) + 1);
      got.insert(got.end(), part.begin(), part.end() - static_cast<std::ptrdiff_t>(lag));
      if (lag > 0) ended = false;
      Result<std::string> state = p->SaveStateAfter(p->batches_delivered() - lag);
      REQUIRE_MESSAGE(state.ok(), state.status().ToString());
      p.reset();
      p = Resume(c.options, *state);
      REQUIRE(stops < 1000);
    }
    for (size_t b = 0; b < std::min(got.size(), expected.size()); ++b) {
      CAPTURE(b);
      REQUIRE(got[b] == expected[b]);
    }
    REQUIRE(got.size() == expected.size());
    // A finished pipeline's state resumes to nothing.
    Result<std::string> state = p->SaveState();
    REQUIRE(state.ok());
    auto after = Resume(c.options, *state);
    Batch batch;
    CHECK_FALSE(after->Next(&batch));
    CHECK(after->status().ok());
  }
}

TEST_CASE("a state is refused by other options, and bad state text names the problem") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {5, 5});
  PipelineOptions o;
  o.read.inputs = paths;
  o.batch_size = 2;
  o.features = {FixedLenInt64("index")};
  auto p = testing::OpenPipeline(o);
  Batch batch;
  REQUIRE(p->Next(&batch));
  Result<std::string> state = p->SaveState();
  REQUIRE(state.ok());
  PipelineOptions other = o;
  other.read.seed = 7;
  Result<std::unique_ptr<Pipeline>> reopened = Pipeline::Open(other, *state);
  REQUIRE_FALSE(reopened.ok());
  CHECK(reopened.status().code() == StatusCode::kInvalidArgument);
  CHECK(reopened.status().message().find("other files or options") != std::string::npos);
  for (const std::string& bad : {std::string("{"), std::string("[]"), std::string("{\"tfq_pipeline_state\":1}")}) {
    Result<std::unique_ptr<Pipeline>> r = Pipeline::Open(o, bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().message().find("pipeline state") != std::string::npos);
  }
  // Thread counts do not matter.
  PipelineOptions threads = o;
  threads.parse_threads = 5;
  threads.read.reader_threads = 1;
  CHECK(Pipeline::Open(threads, *state).ok());
  // Non-deterministic order has no state.
  PipelineOptions loose = o;
  loose.read.deterministic = false;
  auto q = testing::OpenPipeline(loose);
  CHECK_FALSE(q->SaveState().ok());
}

TEST_CASE("a changed file is reported when a saved shuffle buffer is refetched") {
  const std::string dir = tfq::testing::MakeTempDir();
  const auto paths = WriteExampleFiles(dir, {40});
  PipelineOptions o;
  o.read.inputs = paths;
  o.read.shuffle_buffer_size = 10;
  o.batch_size = 4;
  o.features = {FixedLenInt64("index")};
  auto p = testing::OpenPipeline(o);
  Batch batch;
  REQUIRE(p->Next(&batch));
  Result<std::string> state = p->SaveState();
  REQUIRE(state.ok());
  p.reset();
  WriteExampleFiles(dir, {3});  // the file is rewritten shorter
  Result<std::unique_ptr<Pipeline>> r = Pipeline::Open(o, *state);
  REQUIRE_FALSE(r.ok());
  CHECK_MESSAGE(r.status().message().find("ex-0.tfrecord") != std::string::npos, r.status().ToString());
}

TEST_CASE("ranks: disjoint shares covering each epoch, the same batch count on every rank") {
  SplitMix64 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<size_t> sizes;
    const size_t files = 1 + rng.Below(6);
    for (size_t f = 0; f < files; ++f) sizes.push_back(rng.Below(25));
    const uint64_t world = 1 + rng.Below(5);
    const RankBalance balance = rng.Below(2) == 0 ? RankBalance::kDrop : RankBalance::kPad;
    const bool shuffle = rng.Below(2) == 0;
    CAPTURE(trial);
    CAPTURE(files);
    CAPTURE(world);
    CAPTURE(int(balance));
    const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), sizes);
    uint64_t total = 0;
    for (size_t n : sizes) total += n;
    std::map<std::pair<uint32_t, uint64_t>, int> seen;  // by (expanded file index, record)
    std::set<size_t> batch_counts;
    uint64_t real_rows = 0, padding_rows = 0, quota = 0;
    for (uint64_t rank = 0; rank < world; ++rank) {
      PipelineOptions o;
      o.read.inputs = paths;
      o.read.world_size = world;
      o.read.rank = rank;
      o.read.rank_balance = balance;
      o.read.shuffle_buffer_size = shuffle ? 5 : 0;
      o.read.shuffle_files = shuffle;
      o.batch_size = 3;
      o.features = {FixedLenInt64("file"), FixedLenInt64("index")};
      auto p = testing::OpenPipeline(o);
      quota = p->epoch_quota();
      Batch batch;
      size_t batches = 0;
      while (p->Next(&batch)) {
        ++batches;
        for (size_t r = 0; r < batch.rows; ++r) {
          const uint32_t file = static_cast<uint32_t>(batch.columns[0].int64_values[r]);
          const uint64_t index = static_cast<uint64_t>(batch.columns[1].int64_values[r]);
          if (batch.sources[r].padding) {
            ++padding_rows;
          } else {
            ++real_rows;
            ++seen[{file, index}];
          }
        }
      }
      REQUIRE(p->status().ok());
      batch_counts.insert(batches);
    }
    CHECK(batch_counts.size() == 1);  // every rank the same number of batches
    for (const auto& [id, count] : seen) CHECK(count == 1);  // disjoint
    if (world == 1) {
      CHECK(real_rows == total);
      CHECK(padding_rows == 0);
    } else if (balance == RankBalance::kPad) {
      CHECK(real_rows == total);  // every record lands on exactly one rank
      CHECK(real_rows + padding_rows == quota * world);
    } else {
      CHECK(real_rows == quota * world);
      CHECK(padding_rows == 0);
    }
  }
}

TEST_CASE("ranks: bad options are refused") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {3});
  PipelineOptions o;
  o.read.inputs = paths;
  o.read.world_size = 2;
  o.read.rank = 2;
  CHECK(Pipeline::Open(o).status().message().find("rank 2 is not below world_size 2") != std::string::npos);
  o.read.rank = 0;
  o.read.file_shard = Shard{2, 0};
  CHECK_FALSE(Pipeline::Open(o).ok());
  o.read.file_shard = Shard{};
  o.read.deterministic = false;  // one file, two ranks: by record, which needs order
  CHECK(Pipeline::Open(o).status().message().find("deterministic") != std::string::npos);
}

TEST_CASE("a state further back than the window is refused, naming it") {
  const auto paths = WriteExampleFiles(tfq::testing::MakeTempDir(), {60});
  PipelineOptions o;
  o.read.inputs = paths;
  o.batch_size = 1;
  o.features = {FixedLenInt64("index")};
  auto p = testing::OpenPipeline(o);
  Batch batch;
  for (int i = 0; i < 30; ++i) REQUIRE(p->Next(&batch));
  CHECK(p->SaveStateAfter(30 - Pipeline::kStateWindow).ok());
  Result<std::string> old = p->SaveStateAfter(30 - Pipeline::kStateWindow - 1);
  REQUIRE_FALSE(old.ok());
  CHECK(old.status().message().find("the last 16 can be saved") != std::string::npos);
  CHECK_FALSE(p->SaveStateAfter(31).ok());
}

TEST_CASE("the backlog of logged steps hands them out in order across logs, and gives used-up logs back") {
  auto log_of = [](std::initializer_list<uint64_t> values) {
    std::vector<StreamEvent> log;
    for (uint64_t v : values) log.emplace_back().a = v;
    return log;
  };
  StreamBacklog backlog;
  CHECK(backlog.empty());
  backlog.Append(log_of({1, 2}));
  backlog.Append(log_of({}));  // nothing to replay: not kept
  backlog.Append(log_of({3}));
  backlog.Append(log_of({4, 5, 6}));
  std::vector<std::vector<StreamEvent>> spent;
  std::vector<uint64_t> seen;
  backlog.ForEach([&](const StreamEvent& e) {
    seen.push_back(e.a);
    return e.a != 5;  // stops after 5
  });
  CHECK(seen == std::vector<uint64_t>{1, 2, 3, 4, 5});
  CHECK(backlog.front().a == 1);
  backlog.PopFront(&spent);
  CHECK(spent.empty());
  CHECK(backlog.front().a == 2);
  seen.clear();
  backlog.ForEach([&](const StreamEvent& e) {  // from the middle of the first log into the next ones
    seen.push_back(e.a);
    return true;
  });
  CHECK(seen == std::vector<uint64_t>{2, 3, 4, 5, 6});
  backlog.PopFront(&spent);  // the first log is used up
  REQUIRE(spent.size() == 1);
  CHECK(spent[0].empty());
  CHECK(spent[0].capacity() >= 2);
  seen.clear();
  backlog.ForEach([&](const StreamEvent& e) {  // from the front, which is now in the second log
    seen.push_back(e.a);
    return true;
  });
  CHECK(seen == std::vector<uint64_t>{3, 4, 5, 6});
  backlog.PopFront(&spent);
  backlog.PopFront(&spent);
  CHECK(backlog.front().a == 5);
  backlog.PopFront(&spent);
  backlog.PopFront(&spent);
  CHECK(backlog.empty());
  CHECK(spent.size() == 3);
}

}  // namespace tfq::pipeline
