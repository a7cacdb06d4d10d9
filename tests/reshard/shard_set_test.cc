// ShardSet: hidden staging names, all-or-nothing commit, and the windowed input it is fed from.
#include "reshard/shard_set.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "io/random_access_file.h"
#include "reshard/file_sink.h"
#include "reshard_test_util.h"
#include "tfrecord/format.h"

namespace tfq::reshard {
namespace {

using testing::ListDir;
using testing::ReadRecords;
using testing::Recs;

std::unique_ptr<ShardSet> MakeSet(const std::string& prefix, const std::string& suffix = "") {
  ShardSetOptions o;
  o.prefix = prefix;
  o.suffix = suffix;
  auto set = ShardSet::Create(o);
  REQUIRE(set.ok());
  return std::move(set).value();
}

TEST_CASE("shards are hidden until Commit names them all") {
  const std::string dir = testing::MakeTempDir();
  auto set = MakeSet(dir + "/train", ".tfrecord");
  REQUIRE(set->Write(0, "a").ok());
  REQUIRE(set->Write(2, "c").ok());
  REQUIRE(set->Open(1).ok());
  for (const auto& name : ListDir(dir)) CHECK(name.rfind(".tfq-partial.train-0000", 0) == 0);
  CHECK(ListDir(dir).size() == 3);
  REQUIRE(set->Commit(3).ok());
  CHECK(ListDir(dir) == std::vector<std::string>{"train-00000-of-00003.tfrecord",
                                                 "train-00001-of-00003.tfrecord",
                                                 "train-00002-of-00003.tfrecord"});
  CHECK(ReadRecords(dir + "/train-00002-of-00003.tfrecord") == std::vector<std::string>{"c"});
  CHECK(ReadRecords(dir + "/train-00001-of-00003.tfrecord").empty());
  CHECK(set->checksum().count() == 2);
  CHECK(set->shards()[0].bytes == 17);
}

TEST_CASE("an uncommitted set leaves nothing; a failed commit takes back what it renamed") {
  const std::string dir = testing::MakeTempDir();
  {
    auto set = MakeSet(dir + "/x");
    REQUIRE(set->Write(0, "a").ok());
    REQUIRE(set->Finish(0).ok());
    REQUIRE(set->Write(1, "b").ok());
  }
  CHECK(ListDir(dir).empty());
  // The second final name is taken by a non-empty directory: rename fails there.
  REQUIRE(mkdir((dir + "/x-00001-of-00002").c_str(), 0755) == 0);
  testing::WriteFileOrDie(dir + "/x-00001-of-00002/keep", "");
  auto set = MakeSet(dir + "/x");
  REQUIRE(set->Write(0, "a").ok());
  REQUIRE(set->Write(1, "b").ok());
  CHECK(set->Commit(2).code() == StatusCode::kIoError);
  set.reset();
  CHECK(ListDir(dir) == std::vector<std::string>{"x-00001-of-00002"});
}

TEST_CASE("WriteFramedRecords writes runs of framed records as WriteFramed writes each") {
  const std::string dir = testing::MakeTempDir();
  const std::vector<std::string> records = Recs(0, 3000, 700);
  std::string framed;
  RecordChecksum sum;
  for (const std::string& r : records) {
    char header[tfrecord::kHeaderSize], footer[tfrecord::kFooterSize];
    tfrecord::EncodeHeader(r.size(), header);
    tfrecord::EncodeFixed32(footer, tfrecord::MaskedCrc(r.data(), r.size()));
    framed.append(header, sizeof header).append(r).append(footer, sizeof footer);
    sum.Add(r);
  }
  for (bool writer_thread : {false, true}) {
    CAPTURE(writer_thread);
    ShardSetOptions options;
    options.prefix = dir + "/runs" + std::to_string(writer_thread);
    options.writer_thread = writer_thread;
    options.buffer_bytes = 64 << 10;
    auto set = ShardSet::Create(options);
    REQUIRE(set.ok());
    // Two runs of 1500 records (over 1 MB each: many pieces of the buffer), one per shard.
    const uint64_t each = 700 + tfrecord::kFramingOverhead;
    const uint64_t half = records.size() / 2 * each;
    RecordChecksum first, rest;
    for (size_t i = 0; i < records.size(); ++i) (i < records.size() / 2 ? first : rest).Add(records[i]);
    REQUIRE((*set)->WriteFramedRecords(0, std::string_view(framed).substr(0, half), first).ok());
    REQUIRE((*set)->WriteFramedRecords(1, std::string_view(framed).substr(half), rest).ok());
    REQUIRE((*set)->Commit(2).ok());
    CHECK((*set)->checksum() == sum);
    CHECK((*set)->bytes_written() == framed.size());
    const auto shards = (*set)->shards();
    REQUIRE(shards.size() == 2);
    CHECK(shards[0].records + shards[1].records == records.size());
    CHECK(testing::ReadFileOrDie(shards[0].path) + testing::ReadFileOrDie(shards[1].path) == framed);
  }
}

TEST_CASE("a prefix must name files") {
  ShardSetOptions o;
  o.prefix = "dir/";
  CHECK(ShardSet::Create(o).status().code() == StatusCode::kInvalidArgument);
  o.prefix = "";
  CHECK(ShardSet::Create(o).status().code() == StatusCode::kInvalidArgument);
  const std::string dir = testing::MakeTempDir();
  testing::WriteFileOrDie(dir + "/file", "");
  o.prefix = dir + "/file/x";  // under a file, not a folder
  auto set = ShardSet::Create(o);
  REQUIRE(set.ok());
  const Status s = (*set)->Open(0);
  CHECK_FALSE(s.ok());
  CHECK(s.message().rfind(dir + "/file/x: cannot create shard 0", 0) == 0);
}

TEST_CASE("a prefix in folders that do not exist yet creates them") {
  ShardSetOptions o;
  const std::string dir = testing::MakeTempDir();
  o.prefix = dir + "/a/b/x";
  auto set = ShardSet::Create(o);
  REQUIRE(set.ok());
  CHECK((*set)->Open(0).ok());
}

}  // namespace
}  // namespace tfq::reshard

namespace tfq::reshard {
namespace {

// The shard files' sink takes ranges of an input as any OutputStream does: with the writer
// thread (merged, copied on it) and without (copied at once), in order with buffered writes.
TEST_CASE("file sink: AppendRange with and without the writer thread") {
  const std::string dir = testing::MakeTempDir();
  std::string bytes(3 << 20, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 + (i >> 9));
  testing::WriteFileOrDie(dir + "/in", bytes);
  std::shared_ptr<const RandomAccessFile> in = RandomAccessFile::Open(dir + "/in").value();
  const std::string expected = "a" + bytes.substr(5, 1000) + bytes.substr(1005, 2 << 20) + "b" + bytes.substr(0, 9);
  for (bool threaded : {false, true}) {
    CAPTURE(threaded);
    WriteQueue queue(2);
    const std::string path = dir + (threaded ? "/threaded" : "/direct");
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    REQUIRE(fd >= 0);
    std::unique_ptr<OutputStream> sink = NewFileSink(fd, path, 4096, threaded ? &queue : nullptr);
    REQUIRE(sink->Write("a").ok());
    REQUIRE(sink->AppendRange(in, 5, 1000).ok());
    REQUIRE(sink->AppendRange(in, 1005, 2 << 20).ok());  // adjacent: one copy on the thread
    REQUIRE(sink->Write("b").ok());
    REQUIRE(sink->AppendRange(in, 0, 9).ok());
    CHECK(sink->bytes_written() == expected.size());
    REQUIRE(sink->Close().ok());
    CHECK(RandomAccessFile::ReadAll(path).value() == expected);
  }
}

}  // namespace
}  // namespace tfq::reshard
