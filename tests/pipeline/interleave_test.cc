// The order of the record stages: tf.data's interleave order exactly, file and record sharding,
// seeded file shuffling, and the non-deterministic mode's multiset.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline_test_util.h"

namespace tfq::pipeline {
namespace {

using testing::DrainStream;
using testing::Id;
using testing::OpenStream;
using testing::ReferenceInterleave;
using testing::WriteRawFiles;

std::vector<Id> Sorted(std::vector<Id> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<Id> AllIds(const std::vector<size_t>& sizes) {
  std::vector<Id> ids;
  for (size_t f = 0; f < sizes.size(); ++f) {
    for (size_t r = 0; r < sizes[f]; ++r) ids.emplace_back(static_cast<uint32_t>(f), r);
  }
  return ids;
}

ReadOptions Options(const std::vector<std::string>& paths, size_t cycle, size_t block) {
  ReadOptions o;
  o.inputs = paths;
  o.cycle_length = cycle;
  o.block_length = block;
  return o;
}

}  // namespace

TEST_CASE("interleave order is tf.data's: the documented cycle_length=2 block_length=4 example") {
  // tf.data's docs: range(1, 6).interleave(lambda x: from_tensors(x).repeat(6), 2, 4) gives
  // 1111 2222 11 22 3333 4444 33 44 5555 55: files 0..4 of 6 records here.
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), {6, 6, 6, 6, 6});
  auto stream = OpenStream(Options(paths, 2, 4));
  std::vector<uint32_t> files;
  for (const Id& id : DrainStream(stream.get())) files.push_back(id.first);
  CHECK(stream->status().ok());
  const std::vector<uint32_t> expected = {0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 2, 2, 2, 2,
                                          3, 3, 3, 3, 2, 2, 3, 3, 4, 4, 4, 4, 4, 4};
  CHECK(files == expected);
}

TEST_CASE("a file that ends hands its slot to the next file, whose turn comes a round later") {
  // Slot 0 holds a one-record file: its exhaustion is found on its second turn, file 2 takes the
  // slot, and the turn passes to slot 1 first.
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), {1, 3, 3});
  auto stream = OpenStream(Options(paths, 2, 1));
  const std::vector<Id> expected = {{0, 0}, {1, 0}, {1, 1}, {2, 0}, {1, 2}, {2, 1}, {2, 2}};
  CHECK(DrainStream(stream.get()) == expected);
  CHECK(ReferenceInterleave({1, 3, 3}, 2, 1) == expected);
}

TEST_CASE("empty files cost a turn and yield nothing") {
  const std::vector<size_t> sizes = {0, 2, 0, 0, 3, 1};
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), sizes);
  for (size_t cycle : {1, 2, 3, 4, 8}) {
    auto stream = OpenStream(Options(paths, cycle, 2));
    CHECK(DrainStream(stream.get()) == ReferenceInterleave(sizes, cycle, 2));
  }
}

TEST_CASE("deterministic order equals tf.data's interleave for many cycle/block lengths and uneven files") {
  std::mt19937_64 rng(20240605);
  for (int set = 0; set < 12; ++set) {
    std::vector<size_t> sizes(1 + rng() % 7);
    for (size_t& s : sizes) s = rng() % 9;
    const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), sizes);
    for (int config = 0; config < 6; ++config) {
      ReadOptions o = Options(paths, 1 + rng() % 5, 1 + rng() % 4);
      o.reader_threads = 1 + rng() % 3;
      o.file_buffer_records = 1 + rng() % 4;  // tiny buffers: readers wait on the consumer a lot
      CAPTURE(o.cycle_length);
      CAPTURE(o.block_length);
      CAPTURE(o.reader_threads);
      auto stream = OpenStream(o);
      CHECK(DrainStream(stream.get()) == ReferenceInterleave(sizes, o.cycle_length, o.block_length));
      CHECK(stream->status().ok());
    }
  }
}

TEST_CASE("globs expand in byte order") {
  const std::string dir = tfq::testing::MakeTempDir();
  const auto paths = WriteRawFiles(dir, {2, 2, 2});
  ReadOptions o = Options({dir + "/part-*.tfrecord"}, 1, 1);
  auto stream = OpenStream(o);
  CHECK(stream->files() == paths);
  CHECK(DrainStream(stream.get()) == AllIds({2, 2, 2}));
}

TEST_CASE("non-deterministic mode delivers the same multiset") {
  const std::vector<size_t> sizes = {50, 0, 7, 120, 33, 1, 64};
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), sizes);
  for (size_t threads : {1, 2, 4}) {
    ReadOptions o = Options(paths, 3, 2);
    o.deterministic = false;
    o.reader_threads = threads;
    o.file_buffer_records = 5;
    auto stream = OpenStream(o);
    CHECK(Sorted(DrainStream(stream.get())) == AllIds(sizes));
    CHECK(stream->status().ok());
  }
}

TEST_CASE("file sharding keeps files i % n == index of the expanded list") {
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), {1, 2, 3, 4, 5, 6, 7});
  ReadOptions o = Options(paths, 2, 1);
  o.file_shard = {3, 1};
  auto stream = OpenStream(o);
  CHECK(stream->files() == std::vector<std::string>{paths[1], paths[4]});
  std::vector<Id> ids;
  Record record;
  while (stream->Next(&record)) ids.emplace_back(record.source.file, record.source.index);
  // Sources index the sharded list: file 0 is part-001 (2 records), file 1 is part-004 (5).
  CHECK(ids == ReferenceInterleave({2, 5}, 2, 1));
}

TEST_CASE("record sharding keeps interleaved element i iff i % n == index, disjointly") {
  const std::vector<size_t> sizes = {5, 9, 3, 7};
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), sizes);
  const std::vector<Id> all = ReferenceInterleave(sizes, 3, 2);
  std::vector<Id> union_of_shards;
  for (uint64_t index = 0; index < 3; ++index) {
    ReadOptions o = Options(paths, 3, 2);
    o.record_shard = {3, index};
    auto stream = OpenStream(o);
    std::vector<Id> expected;
    for (size_t i = index; i < all.size(); i += 3) expected.push_back(all[i]);
    const std::vector<Id> got = DrainStream(stream.get());
    CHECK(got == expected);
    union_of_shards.insert(union_of_shards.end(), got.begin(), got.end());
  }
  CHECK(Sorted(union_of_shards) == AllIds(sizes));
}

TEST_CASE("record sharding is refused in non-deterministic mode") {
  ReadOptions o;
  o.inputs = {"x.tfrecord"};
  o.deterministic = false;
  o.record_shard = {2, 0};
  Result<std::unique_ptr<RecordStream>> stream = RecordStream::Open(o);
  REQUIRE_FALSE(stream.ok());
  CHECK(stream.status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("bad options are kInvalidArgument") {
  ReadOptions o;
  o.inputs = {"x.tfrecord"};
  SUBCASE("cycle") { o.cycle_length = 0; }
  SUBCASE("block") { o.block_length = 0; }
  SUBCASE("shard") { o.file_shard = {2, 2}; }
  SUBCASE("epochs") { o.epochs = -2; }
  SUBCASE("no inputs") { o.inputs.clear(); }
  CHECK(RecordStream::Open(o).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("a glob matching nothing fails at Open") {
  ReadOptions o;
  o.inputs = {tfq::testing::MakeTempDir() + "/none-*.tfrecord"};
  CHECK(RecordStream::Open(o).status().code() == StatusCode::kNotFound);
}

TEST_CASE("seeded file shuffling: a permutation, the same for a seed, reshuffled per epoch") {
  const std::vector<size_t> sizes(12, 1);
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), sizes);
  auto file_order = [&](uint64_t seed, int64_t epochs, bool reshuffle) {
    ReadOptions o = Options(paths, 1, 1);
    o.shuffle_files = true;
    o.seed = seed;
    o.epochs = epochs;
    o.reshuffle_each_epoch = reshuffle;
    auto stream = OpenStream(o);
    std::vector<uint32_t> files;
    for (const Id& id : DrainStream(stream.get())) files.push_back(id.first);
    return files;
  };
  const std::vector<uint32_t> a = file_order(7, 1, true);
  CHECK(a == file_order(7, 1, true));
  CHECK(a != file_order(8, 1, true));
  std::vector<uint32_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < 12; ++i) CHECK(sorted[i] == i);

  const std::vector<uint32_t> two = file_order(7, 2, true);
  REQUIRE(two.size() == 24);
  CHECK(std::vector<uint32_t>(two.begin(), two.begin() + 12) == a);  // epoch 0 as before
  CHECK(std::vector<uint32_t>(two.begin() + 12, two.end()) != a);
  const std::vector<uint32_t> same = file_order(7, 2, false);
  CHECK(std::vector<uint32_t>(same.begin() + 12, same.end()) ==
        std::vector<uint32_t>(same.begin(), same.begin() + 12));
}

TEST_CASE("the next file is opened and read ahead while the one before it is still being consumed") {
  // cycle_length 1: file 1 (a FIFO) takes the slot only once file 0 is exhausted, but the
  // look-ahead opens it at once (the writer's open() returns as soon as a reader opens the FIFO).
  const std::string dir = tfq::testing::MakeTempDir();
  const auto sources = WriteRawFiles(dir, {3, 2});
  const std::string fifo = dir + "/next.fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::string bytes;
  {
    std::ifstream in(sources[1], std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::atomic<bool> opened{false};
  std::atomic<bool> go{false};
  std::thread writer([&] {
    const int fd = open(fifo.c_str(), O_WRONLY);
    if (fd < 0) return;
    opened.store(true);
    while (!go.load()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const ssize_t written = write(fd, bytes.data(), bytes.size());
    (void)written;
    close(fd);
  });
  auto stream = OpenStream(Options({sources[0], fifo}, 1, 1));
  Record record;
  REQUIRE(stream->Next(&record));
  CHECK(record.source.file == 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!opened.load() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  const bool opened_early = opened.load();
  go.store(true);
  if (!opened_early) {  // unblock the writer so that the test ends either way
    const int fd = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    writer.join();
    if (fd >= 0) close(fd);
  }
  CHECK(opened_early);
  std::vector<Id> rest = DrainStream(stream.get());
  if (opened_early) writer.join();
  CHECK(stream->status().ok());
  const std::vector<Id> expected = {{0, 1}, {0, 2}, {1, 0}, {1, 1}};
  CHECK(rest == expected);
}

}  // namespace tfq::pipeline
