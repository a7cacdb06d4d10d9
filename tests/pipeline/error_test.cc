// Errors: where they land in the order, what they name, the lowest position winning, and skip
// mode's counts. Corrupt inputs are made by editing the bytes of good files.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "common/test_env.h"
#include "pipeline_test_util.h"

namespace tfq::pipeline {
namespace {

using testing::DrainPipeline;
using testing::DrainStream;
using testing::Id;
using testing::OpenPipeline;
using testing::OpenStream;
using testing::ReferenceInterleave;
using testing::WriteRawFiles;

using ::tfq::testing::Contains;

// Raw payloads "fF-rR" are 5 bytes for single-digit F and R: 21 framed bytes per record.
constexpr uint64_t kFramed = 5 + 16;

void FlipByte(const std::string& path, uint64_t offset) {
  std::string bytes = tfq::testing::ReadFileOrDie(path);
  REQUIRE(offset < bytes.size());
  bytes[offset] = static_cast<char>(bytes[offset] ^ 0x40);
  tfq::testing::WriteFileOrDie(path, bytes);
}

void CorruptPayload(const std::string& path, uint64_t record) { FlipByte(path, record * kFramed + 12); }

std::vector<Id> Prefix(const std::vector<Id>& order, Id stop) {
  auto it = std::find(order.begin(), order.end(), stop);
  REQUIRE(it != order.end());
  return std::vector<Id>(order.begin(), it);
}

}  // namespace

TEST_CASE("a corrupt record in file 2, cycle_length 3: every element before it, then the error") {
  const std::vector<size_t> sizes = {6, 6, 6, 6};
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), sizes);
  CorruptPayload(paths[2], 3);
  // A second problem later in the order (file 0, record 5), which its reader may meet first.
  CorruptPayload(paths[0], 5);
  const std::vector<Id> expected = Prefix(ReferenceInterleave(sizes, 3, 1), {2, 3});
  const std::string message = paths[2] + ": record 3 (byte 63): data CRC mismatch";

  for (size_t threads : {1, 2, 3}) {
    for (size_t buffer : {1, 256}) {
      CAPTURE(threads);
      CAPTURE(buffer);
      ReadOptions read;
      read.inputs = paths;
      read.cycle_length = 3;
      read.reader_threads = threads;
      read.file_buffer_records = buffer;

      auto stream = OpenStream(read);
      CHECK(DrainStream(stream.get()) == expected);
      CHECK(stream->status().code() == StatusCode::kCorruption);
      CHECK(Contains(stream->status().message(), message));

      for (size_t batch_size : {1, 4}) {
        PipelineOptions o;
        o.read = read;
        o.batch_size = batch_size;
        auto pipeline = OpenPipeline(o);
        CHECK(DrainPipeline(pipeline.get()) == expected);
        CHECK(pipeline->status().code() == StatusCode::kCorruption);
        CHECK(Contains(pipeline->status().message(), message));
      }
    }
  }
}

TEST_CASE("an unreadable file fails at its first turn, naming it") {
  const std::string dir = tfq::testing::MakeTempDir();
  const auto paths = WriteRawFiles(dir, {3, 3});
  const std::string missing = dir + "/missing.tfrecord";
  ReadOptions o;
  o.inputs = {paths[0], missing, paths[1]};
  o.cycle_length = 2;
  auto stream = OpenStream(o);
  std::vector<Id> ids;
  Record record;
  while (stream->Next(&record)) ids.emplace_back(record.source.file, record.source.index);
  CHECK(ids == std::vector<Id>{{0, 0}});
  CHECK(stream->status().code() == StatusCode::kNotFound);
  CHECK(Contains(stream->status().message(), missing));
}

TEST_CASE("a truncated file: everything before the cut, then a truncation error") {
  const std::vector<size_t> sizes = {4, 4};
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), sizes);
  std::string bytes = tfq::testing::ReadFileOrDie(paths[1]);
  tfq::testing::WriteFileOrDie(paths[1], bytes.substr(0, 3 * kFramed + 10));
  ReadOptions o;
  o.inputs = paths;
  o.cycle_length = 2;
  auto stream = OpenStream(o);
  CHECK(DrainStream(stream.get()) == Prefix(ReferenceInterleave(sizes, 2, 1), {1, 3}));
  CHECK(stream->status().code() == StatusCode::kCorruption);
  CHECK(Contains(stream->status().message(), paths[1] + ": record 3 (byte 63): truncated"));
}

TEST_CASE("with a shuffle buffer the records before the error drain first") {
  const std::vector<size_t> sizes = {8, 8, 8};
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), sizes);
  CorruptPayload(paths[1], 6);
  ReadOptions o;
  o.inputs = paths;
  o.cycle_length = 3;
  o.shuffle_buffer_size = 5;
  auto stream = OpenStream(o);
  std::vector<Id> got = DrainStream(stream.get());
  std::vector<Id> expected = Prefix(ReferenceInterleave(sizes, 3, 1), {1, 6});
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  CHECK(got == expected);
  CHECK(stream->status().code() == StatusCode::kCorruption);
}

TEST_CASE("non-deterministic mode stops at the first error") {
  const auto paths = WriteRawFiles(tfq::testing::MakeTempDir(), {9, 9, 9});
  CorruptPayload(paths[1], 4);
  PipelineOptions o;
  o.read.inputs = paths;
  o.read.cycle_length = 3;
  o.read.deterministic = false;
  o.batch_size = 2;
  auto pipeline = OpenPipeline(o);
  const std::vector<Id> ids = DrainPipeline(pipeline.get());
  CHECK(ids.size() < 27);
  CHECK(pipeline->status().code() == StatusCode::kCorruption);
  CHECK(Contains(pipeline->status().message(), paths[1] + ": record 4 (byte 84)"));
}

TEST_CASE("skip mode drops bad records and files, counts them, and delivers the rest") {
  const std::string dir = tfq::testing::MakeTempDir();
  const std::vector<size_t> sizes = {6, 6, 6, 6};
  const auto paths = WriteRawFiles(dir, sizes);
  CorruptPayload(paths[0], 2);    // data CRC: that record is dropped
  FlipByte(paths[1], 4 * kFramed);  // a bad header: scanned past
  std::string bytes = tfq::testing::ReadFileOrDie(paths[3]);
  tfq::testing::WriteFileOrDie(paths[3], bytes.substr(0, 4 * kFramed + 3));  // cut in record 4
  const std::string missing = dir + "/missing.tfrecord";

  PipelineOptions o;
  o.read.inputs = {paths[0], paths[1], missing, paths[2], paths[3]};
  o.read.cycle_length = 3;
  o.read.on_error = OnError::kSkip;
  o.batch_size = 5;
  auto pipeline = OpenPipeline(o);
  std::vector<Id> ids = DrainPipeline(pipeline.get());
  CHECK_MESSAGE(pipeline->status().ok(), pipeline->status().ToString());

  // Files of the list: 0 = part-000, 1 = part-001, 2 = missing, 3 = part-002, 4 = part-003.
  std::set<Id> expected;
  for (uint64_t r = 0; r < 6; ++r) {
    if (r != 2) expected.insert({0, r});
    if (r < 5) expected.insert({1, r});  // after a resync, records are counted anew from 4
    expected.insert({3, r});
    if (r < 4) expected.insert({4, r});
  }
  CHECK(std::set<Id>(ids.begin(), ids.end()) == expected);
  CHECK(ids.size() == expected.size());

  const SkipStats stats = pipeline->skip_stats();
  CHECK(stats.corrupt_records == 1);
  CHECK(stats.resyncs == 1);
  CHECK(stats.files_failed == 2);  // the missing file and the truncated one
  CHECK(stats.examples_failed == 0);
  CHECK(stats.messages.size() == 4);
}

TEST_CASE("skip mode drops records that do not parse and counts them") {
  std::vector<std::string> records;
  for (int i = 0; i < 10; ++i) {
    ExampleEncoder encoder;
    if (i % 3 != 0) encoder.AddInt64("x", i);  // records 0, 3, 6, 9 lack x
    encoder.Finish(&records.emplace_back());
  }
  records[5] = "\xff\xff";  // not an Example at all
  const std::string path = tfq::testing::MakeTempDir() + "/x.tfrecord";
  testing::WriteRecordFile(path, records);
  PipelineOptions o;
  o.read.inputs = {path};
  o.read.on_error = OnError::kSkip;
  o.batch_size = 4;
  o.features = {FixedLenInt64("x")};
  auto pipeline = OpenPipeline(o);
  std::vector<int64_t> xs;
  std::vector<size_t> rows;
  Batch batch;
  while (pipeline->Next(&batch)) {
    rows.push_back(batch.rows);
    for (int64_t v : batch.column("x")->int64_values) xs.push_back(v);
  }
  CHECK(pipeline->status().ok());
  CHECK(xs == std::vector<int64_t>{1, 2, 4, 7, 8});
  CHECK(rows == std::vector<size_t>{4, 1});  // batches stay full across skipped records
  const SkipStats stats = pipeline->skip_stats();
  CHECK(stats.examples_failed == 5);
  REQUIRE(!stats.messages.empty());
  CHECK(Contains(stats.messages[0], path + ": record 0 (byte 0): feature 'x': missing"));
}

}  // namespace tfq::pipeline
