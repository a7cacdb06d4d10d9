// The offsets index: DALI's tfrecord2idx text read and written, built by the header walk, compared;
// against the oracle's .idx files and DALI's own on ../shared.
#include "tfrecord/record_index.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "common/test_env.h"
#include "io/io_test_util.h"
#include "record_test_util.h"
#include "tfrecord/open.h"
#include "tfrecord/record_file.h"

namespace tfq::tfrecord {
namespace {

using tfq::testing::MakeTempDir;
using tfq::testing::ReadFileOrDie;
using tfq::testing::WriteFileOrDie;

TEST_CASE("tfrecord2idx text: written as DALI writes it, read as DALI reads it") {
  RecordIndex index;
  index.Add(3127);
  index.Add(16);
  index.Add(40000);
  const std::string text = FormatDaliIndex(index);
  CHECK(text == "0 3127\n3127 16\n3143 40000\n");
  auto parsed = ParseDaliIndex(text, "f.idx");
  REQUIRE(parsed.ok());
  CHECK(parsed.value() == index);
  // Any white space between numbers, CRLF lines, no final newline.
  auto loose = ParseDaliIndex("0\t3127\r\n3127   16\n\n3143 40000", "f.idx");
  REQUIRE(loose.ok());
  CHECK(loose.value() == index);
  CHECK(ParseDaliIndex("", "f.idx")->size() == 0);
  CHECK(index.Find(3127) == 1);
  CHECK(index.Find(3128) == RecordIndex::npos);
  CHECK(index.Find(index.end()) == RecordIndex::npos);
}

TEST_CASE("tfrecord2idx text: what is not an index of a TFRecord file is refused, naming the line") {
  struct Bad {
    const char* text;
    const char* says;
  };
  for (Bad bad : {Bad{"0 100\n100\n", "line 2 (record 1): expected"},
                  Bad{"0 100\n101 50\n", "line 2 (record 1): the record starts at byte 101, the one before ends at 100"},
                  Bad{"0 15\n", "line 1 (record 0): a record of 15 bytes is smaller"},
                  Bad{"5 100\n", "the record starts at byte 5"},
                  Bad{"0 -100\n", "expected"},
                  Bad{"0 100x\n", "expected"},
                  Bad{"0 99999999999999999999999\n", "expected"}}) {
    CAPTURE(std::string(bad.text));
    CAPTURE(ParseDaliIndex(bad.text, "f.idx").status().message());
    auto parsed = ParseDaliIndex(bad.text, "f.idx");
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().code() == StatusCode::kCorruption);
    CHECK(parsed.status().message().find(std::string("f.idx: ")) == 0);
    CHECK(parsed.status().message().find(bad.says) != std::string::npos);
  }
}

TEST_CASE("the header walk gives each record's offset and framed size, as a full read does") {
  const std::string dir = MakeTempDir();
  const std::vector<std::string> records = {"", "a", std::string(1000, 'b'), "cc"};
  const std::string framed = testing::Frame(records);
  for (bool gzip : {false, true}) {
    const std::string path = dir + (gzip ? "/f.gz" : "/f");
    WriteFileOrDie(path, gzip ? tfq::testing::ZlibCompress(framed, true) : framed);
    auto built = BuildIndexes(path, {});
    REQUIRE(built.ok());
    CHECK(built->compression == (gzip ? Compression::kGzip : Compression::kNone));
    CHECK(built->access_points.has_value() == gzip);
    CHECK(FormatDaliIndex(built->records) == "0 16\n16 17\n33 1016\n1049 18\n");
    REQUIRE(WriteIndexes(path, built.value()).ok());
    CHECK(ReadFileOrDie(DaliIndexPath(path)) == "0 16\n16 17\n33 1016\n1049 18\n");
  }
}

TEST_CASE("CompareIndexes names the first record that differs") {
  RecordIndex a, b;
  for (uint64_t s : {100, 200, 300}) a.Add(s);
  for (uint64_t s : {100, 250, 250}) b.Add(s);
  CHECK(CompareIndexes(a, a, "x.idx").ok());
  const Status s = CompareIndexes(a, b, "x.idx");
  CHECK(s.message() == "x.idx: record 1: the index says byte 100 (200 bytes), the file has byte 100 (250 bytes)");
  RecordIndex shorter;
  shorter.Add(100);
  CHECK(CompareIndexes(shorter, a, "x.idx").message() ==
        "x.idx: record 1: the index lists 1 records, the file has 3");
}

// Every TFRecord file of the corpus that has an oracle index: the walk gives it byte for byte,
// and every record read through RecordFile (with that index beside it) equals sequential reading.
TEST_CASE("corpus: indexes equal the oracle's, Get equals sequential reading" * doctest::test_suite("shared")) {
  const std::string shared = tfq::testing::SharedDir();
  REQUIRE_FALSE(shared.empty());
  const std::string dir = MakeTempDir();
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(shared + "/corpus")) {
    const std::string oracle = entry.path().string();
    const std::string suffix = ".oracle.idx";
    if (oracle.size() < suffix.size() || oracle.compare(oracle.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    const std::string path = oracle.substr(0, oracle.size() - suffix.size());
    CAPTURE(path);
    auto built = BuildIndexes(path, {});
    REQUIRE_MESSAGE(built.ok(), built.status().ToString());
    CHECK(FormatDaliIndex(built->records) == ReadFileOrDie(oracle));
    // A copy with its indexes beside it, read back through them.
    const std::string copy = dir + "/" + std::to_string(files);
    std::filesystem::copy_file(path, copy);
    REQUIRE(WriteIndexes(copy, built.value()).ok());
    auto file = RecordFile::Open(copy);
    REQUIRE(file.ok());
    CHECK((*file)->index_origin() == RecordFile::IndexOrigin::kRead);
    auto opened = OpenRecordInput(path, Compression::kAuto);
    REQUIRE(opened.ok());
    RecordReader reader(std::move(opened->stream), {});
    // Every record by one forward GetMany, every 7th alone by Get.
    std::vector<uint64_t> all((*file)->size());
    for (uint64_t i = 0; i < all.size(); ++i) all[i] = i;
    std::vector<std::string> many;
    REQUIRE((*file)->GetMany(all, &many).ok());
    std::string_view want;
    std::string got;
    uint64_t i = 0;
    while (reader.Read(&want)) {
      REQUIRE(i < many.size());
      REQUIRE(many[i] == want);
      if (i % 7 == 0) {
        REQUIRE((*file)->Get(i, &got).ok());
        REQUIRE(got == want);
      }
      ++i;
    }
    REQUIRE(reader.status().ok());
    CHECK(i == (*file)->size());
    ++files;
  }
  CHECK(files >= 10);
}

// DALI's own index files (DALI_extra; their data files are Git LFS pointers here) parse.
TEST_CASE("corpus: DALI_extra's .idx files parse as indexes" * doctest::test_suite("shared")) {
  const std::string shared = tfq::testing::SharedDir();
  REQUIRE_FALSE(shared.empty());
  for (const char* name : {"/corpus/dali_extra/db_tfrecord/train.idx",
                           "/corpus/dali_extra/coco_dummy/small_coco_index.idx"}) {
    CAPTURE(name);
    auto index = ReadDaliIndex(shared + name);
    REQUIRE_MESSAGE(index.ok(), index.status().ToString());
    CHECK(index->size() > 0);
    CHECK(FormatDaliIndex(index.value()) == ReadFileOrDie(shared + name));
  }
}

}  // namespace
}  // namespace tfq::tfrecord
