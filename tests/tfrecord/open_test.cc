#include "tfrecord/open.h"

#include <doctest/doctest.h>

#include "common/test_env.h"
#include "record_test_util.h"

namespace tfq::tfrecord {
namespace {

std::string WriteRecords(const std::string& path, Compression c,
                         const std::vector<std::string>& records) {
  auto out = CreateRecordOutput(path, c);
  REQUIRE(out.ok());
  RecordWriter writer(out->get());
  for (const auto& r : records) REQUIRE(writer.Write(r).ok());
  REQUIRE((*out)->Close().ok());
  return path;
}

std::vector<std::string> ReadFile(const std::string& path, Compression c, Compression* used) {
  auto in = OpenRecordInput(path, c);
  REQUIRE(in.ok());
  *used = in->compression;
  RecordReader reader(std::move(in->stream), {});
  auto records = testing::ReadAll(reader);
  REQUIRE(reader.status().ok());
  return records;
}

}  // namespace

TEST_CASE("auto detects plain, gzip and zlib files written with each compression") {
  const std::string dir = tfq::testing::MakeTempDir();
  const std::vector<std::string> records = {"one", "two", std::string(70000, 'z')};
  for (Compression c : {Compression::kNone, Compression::kGzip, Compression::kZlib}) {
    CAPTURE(CompressionName(c));
    const std::string path = WriteRecords(dir + "/f-" + std::string(CompressionName(c)), c, records);
    Compression used = Compression::kAuto;
    CHECK(ReadFile(path, Compression::kAuto, &used) == records);
    CHECK(used == c);
    CHECK(ReadFile(path, c, &used) == records);
  }
}

TEST_CASE("auto picks the output compression from the extension") {
  const std::string dir = tfq::testing::MakeTempDir();
  Compression used = Compression::kAuto;
  WriteRecords(dir + "/a.tfrecord.gz", Compression::kAuto, {"x"});
  CHECK(ReadFile(dir + "/a.tfrecord.gz", Compression::kAuto, &used).size() == 1);
  CHECK(used == Compression::kGzip);
  WriteRecords(dir + "/a.tfrecord", Compression::kAuto, {"x"});
  ReadFile(dir + "/a.tfrecord", Compression::kAuto, &used);
  CHECK(used == Compression::kNone);
}

TEST_CASE("an empty file is an uncompressed file with no records") {
  const std::string dir = tfq::testing::MakeTempDir();
  tfq::testing::WriteFileOrDie(dir + "/empty", "");
  Compression used = Compression::kAuto;
  CHECK(ReadFile(dir + "/empty", Compression::kAuto, &used).empty());
  CHECK(used == Compression::kNone);
}

TEST_CASE("a missing file is NotFound naming the path") {
  auto in = OpenRecordInput("/nonexistent/x.tfrecord", Compression::kAuto);
  REQUIRE_FALSE(in.ok());
  CHECK(in.status().code() == StatusCode::kNotFound);
  CHECK(in.status().message().find("/nonexistent/x.tfrecord") != std::string::npos);
}

TEST_CASE("every read pattern reads the same records and finds a corrupt one at the same place") {
  // Larger than a few read-ahead blocks, with records that straddle blocks and records larger
  // than a block, so that kReadAhead stitches; then one payload byte is flipped.
  const std::string dir = tfq::testing::MakeTempDir();
  std::vector<std::string> records;
  for (size_t i = 0; i < 60; ++i) {
    records.push_back(std::string((i * 7919) % 300000 + i, static_cast<char>('a' + i % 26)));
  }
  const std::string path = WriteRecords(dir + "/f.tfrecord", Compression::kNone, records);
  std::string bytes = tfq::testing::ReadFileOrDie(path);
  REQUIRE(bytes.size() > (size_t{4} << 20));
  uint64_t corrupt_offset = 0;
  for (size_t i = 0; i < 41; ++i) corrupt_offset += records[i].size() + kFramingOverhead;
  bytes[corrupt_offset + kHeaderSize + 5] ^= 1;  // record 41's payload
  tfq::testing::WriteFileOrDie(dir + "/bad.tfrecord", bytes);

  for (ReadPattern pattern : {ReadPattern::kSequential, ReadPattern::kReadAhead}) {
    CAPTURE(static_cast<int>(pattern));
    auto good = OpenRecordInput(path, Compression::kAuto, DecompressionLimit::Default(), pattern);
    REQUIRE(good.ok());
    RecordReader reader(std::move(good->stream), {});
    CHECK(testing::ReadAll(reader) == records);
    CHECK(reader.status().ok());

    auto bad = OpenRecordInput(dir + "/bad.tfrecord", Compression::kAuto,
                               DecompressionLimit::Default(), pattern);
    REQUIRE(bad.ok());
    RecordReader bad_reader(std::move(bad->stream), {});
    CHECK(testing::ReadAll(bad_reader).size() == 41);
    CHECK(bad_reader.error() == ReadError::kDataCrcMismatch);
    CHECK(bad_reader.status().message().find("record 41 (byte " + std::to_string(corrupt_offset)) !=
          std::string::npos);
  }
}

}  // namespace tfq::tfrecord
