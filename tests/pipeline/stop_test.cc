// Stopping and destroying pipelines midway: every thread must be joined promptly, whatever each
// stage is doing (readers blocked on full buffers or in the middle of a burst from a slow pipe,
// parse threads on a full queue, the consumer on an empty one), with nothing leaked (the ASan
// build checks) and no race (the TSan build checks).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>

#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "pipeline_test_util.h"

namespace tfq::pipeline {
namespace {

using Clock = std::chrono::steady_clock;
using testing::OpenPipeline;
using testing::WriteExampleFiles;

// Generous: sanitizer builds on a loaded 2-core machine are slow, but a hang is forever.
constexpr auto kPrompt = std::chrono::seconds(10);

const std::vector<std::string>& Files() {
  static const std::vector<std::string> paths =
      WriteExampleFiles(tfq::testing::MakeTempDir(), {40, 0, 25, 60, 13, 31});
  return paths;
}

std::string ReadWholeFile(const std::string& path) {
  std::string bytes;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE(f != nullptr);
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) bytes.append(buffer, n);
  std::fclose(f);
  return bytes;
}

PipelineOptions RandomOptions(std::mt19937_64& rng) {
  PipelineOptions o;
  o.read.inputs = Files();
  o.read.cycle_length = 1 + rng() % 4;
  o.read.block_length = 1 + rng() % 3;
  o.read.reader_threads = 1 + rng() % 3;
  o.read.file_buffer_records = 1 + rng() % 8;
  o.read.deterministic = rng() % 3 != 0;
  o.read.shuffle_buffer_size = rng() % 2 ? 0 : 1 + rng() % 50;
  o.read.shuffle_files = rng() % 2;
  o.read.seed = rng();
  o.read.epochs = rng() % 2 ? kRepeatForever : 1 + static_cast<int64_t>(rng() % 3);
  o.batch_size = 1 + rng() % 20;
  o.drop_remainder = rng() % 2;
  o.parse_threads = 1 + rng() % 3;
  o.prefetch = rng() % 3;
  if (rng() % 4 != 0) o.features = {FixedLenInt64("index"), VarLenFloat("weights")};
  return o;
}

}  // namespace

TEST_CASE("destroying a pipeline whose queues are all full returns promptly") {
  PipelineOptions o;
  o.read.inputs = Files();
  o.read.epochs = kRepeatForever;
  o.read.file_buffer_records = 2;
  o.batch_size = 3;
  o.prefetch = 1;
  auto pipeline = OpenPipeline(o);
  Batch batch;
  REQUIRE(pipeline->Next(&batch));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // every stage fills up and blocks
  const auto start = Clock::now();
  pipeline.reset();
  CHECK(Clock::now() - start < kPrompt);
}

TEST_CASE("Stop from another thread ends a consumer inside Next") {
  for (int round = 0; round < 20; ++round) {
    PipelineOptions o;
    o.read.inputs = Files();
    o.read.epochs = kRepeatForever;
    o.read.cycle_length = 3;
    o.batch_size = 7;
    o.features = {FixedLenInt64("index")};
    auto pipeline = OpenPipeline(o);
    std::atomic<uint64_t> batches{0};
    std::thread consumer([&] {
      Batch batch;
      while (pipeline->Next(&batch)) batches.fetch_add(1);
    });
    std::this_thread::sleep_for(std::chrono::microseconds(200 * round));
    const auto start = Clock::now();
    pipeline->Stop();
    consumer.join();
    CHECK(Clock::now() - start < kPrompt);
    CHECK(pipeline->status().code() == StatusCode::kCancelled);
    Batch batch;
    CHECK_FALSE(pipeline->Next(&batch));
  }
}

TEST_CASE("stopping or destroying at random points finishes promptly (seeded)") {
  std::mt19937_64 rng(77);
  for (int iteration = 0; iteration < 150; ++iteration) {
    CAPTURE(iteration);
    const PipelineOptions o = RandomOptions(rng);
    auto pipeline = OpenPipeline(o);
    const uint64_t batches = rng() % 30;
    const int how = static_cast<int>(rng() % 3);
    const auto start = Clock::now();
    if (how == 2) {
      // Stop from a second thread while this one keeps calling Next.
      const auto delay = std::chrono::microseconds(rng() % 3000);
      std::thread stopper([&] {
        std::this_thread::sleep_for(delay);
        pipeline->Stop();
      });
      Batch batch;
      while (pipeline->Next(&batch)) {
      }
      stopper.join();
      const StatusCode code = pipeline->status().code();
      CHECK((code == StatusCode::kCancelled || code == StatusCode::kOk));
    } else {
      Batch batch;
      bool ended = false;
      for (uint64_t i = 0; i < batches && !ended; ++i) ended = !pipeline->Next(&batch);
      if (how == 1) {
        pipeline->Stop();
        CHECK_FALSE(pipeline->Next(&batch));
        // Stopping after the end changes nothing: the status stays what the end said.
        CHECK(pipeline->status().code() == (ended ? StatusCode::kOk : StatusCode::kCancelled));
      }
    }
    pipeline.reset();
    CHECK(Clock::now() - start < kPrompt);
  }
}

TEST_CASE("a record stream shut down while its consumer waits returns kCancelled") {
  ReadOptions o;
  o.inputs = Files();
  o.epochs = kRepeatForever;
  o.file_buffer_records = 1;
  auto stream = testing::OpenStream(o);
  std::thread consumer([&] {
    Record record;
    while (stream->Next(&record)) {
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  stream->Shutdown();
  consumer.join();
  CHECK(stream->status().code() == StatusCode::kCancelled);
}

TEST_CASE("a pipeline opened and destroyed at once, or after its end, is fine") {
  PipelineOptions o;
  o.read.inputs = Files();
  { auto pipeline = OpenPipeline(o); }
  auto pipeline = OpenPipeline(o);
  const auto ids = testing::DrainPipeline(pipeline.get());
  CHECK(ids.size() == 169);
  CHECK(pipeline->status().ok());
  pipeline->Stop();
  pipeline->Stop();
  CHECK(pipeline->status().ok());  // stopping after the end changes nothing
}

TEST_CASE("stopping a reader in the middle of a burst from a slow pipe is prompt") {
  // A FIFO fed one record every 50 ms: a 32-record burst would take 1.6 s; Stop must not wait it out.
  const std::string dir = tfq::testing::MakeTempDir();
  const std::string fifo = dir + "/slow.fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::vector<std::string> source = WriteExampleFiles(dir, {200});
  const std::string bytes = ReadWholeFile(source[0]);
  const size_t record = bytes.size() / 200;  // the records of this file are all the same size
  std::atomic<bool> done{false};
  std::thread writer([&] {
    const int fd = open(fifo.c_str(), O_WRONLY);
    if (fd < 0) return;
    for (size_t i = 0; i < 200 && !done.load(); ++i) {
      if (write(fd, bytes.data() + i * record, record) != static_cast<ssize_t>(record)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    close(fd);
  });
  PipelineOptions o;
  o.read.inputs = {fifo};
  o.batch_size = 1;
  o.parse_threads = 1;
  o.features = {FixedLenInt64("index")};
  auto pipeline = OpenPipeline(o);
  Batch batch;
  REQUIRE(pipeline->Next(&batch));  // the reader is now inside a burst, waiting for the pipe
  const auto start = Clock::now();
  pipeline->Stop();
  const auto took = Clock::now() - start;
  done.store(true);
  pipeline.reset();
  writer.join();
  CHECK(took < std::chrono::milliseconds(1000));
}

TEST_CASE("NextFor gives up after its timeout while the input is silent, and misses nothing") {
  const std::string dir = tfq::testing::MakeTempDir();
  const std::string fifo = dir + "/silent.fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::vector<std::string> source = WriteExampleFiles(dir, {50});
  const std::string bytes = ReadWholeFile(source[0]);
  std::atomic<bool> go{false};
  std::thread writer([&] {
    const int fd = open(fifo.c_str(), O_WRONLY);
    if (fd < 0) return;
    while (!go.load()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const ssize_t written = write(fd, bytes.data(), bytes.size());
    (void)written;
    close(fd);
  });
  PipelineOptions o;
  o.read.inputs = {fifo};
  o.batch_size = 4;
  o.features = {FixedLenInt64("index")};
  auto pipeline = OpenPipeline(o);
  Batch batch;
  for (int i = 0; i < 3; ++i) {
    const auto start = Clock::now();
    CHECK(pipeline->NextFor(&batch, std::chrono::milliseconds(20)) == Pipeline::Wait::kTimeout);
    CHECK(Clock::now() - start >= std::chrono::milliseconds(20));
    CHECK(batch.rows == 0);
  }
  go.store(true);
  std::vector<int64_t> seen;
  Pipeline::Wait wait;
  size_t timeouts = 0;
  while ((wait = pipeline->NextFor(&batch, std::chrono::milliseconds(5))) != Pipeline::Wait::kEnd) {
    if (wait == Pipeline::Wait::kTimeout) {
      REQUIRE(++timeouts < 10000);
      continue;
    }
    const std::vector<int64_t>& index = batch.columns[0].int64_values;
    seen.insert(seen.end(), index.begin(), index.end());
  }
  writer.join();
  CHECK(pipeline->status().ok());
  REQUIRE(seen.size() == 50);
  for (size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == static_cast<int64_t>(i));
  CHECK(pipeline->NextFor(&batch, std::chrono::milliseconds(5)) == Pipeline::Wait::kEnd);
}

}  // namespace tfq::pipeline
