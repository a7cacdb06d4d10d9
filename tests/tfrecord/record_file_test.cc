// RecordFile: Get(i) equals sequential reading for every kind of file, indexes are written, read
// back and refused when stale, damage is reported where it is, and Get is safe from several threads.
#include "tfrecord/record_file.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <thread>

#include "common/test_env.h"
#include "io/io_test_util.h"
#include "record_test_util.h"

namespace tfq::tfrecord {
namespace {

using tfq::testing::MakeTempDir;
using tfq::testing::ReadFileOrDie;
using tfq::testing::WriteFileOrDie;
using tfq::testing::ZlibCompress;

std::vector<std::string> RandomRecords(size_t n, size_t max_size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> records;
  for (size_t i = 0; i < n; ++i) {
    std::string r(rng() % (max_size + 1), '\0');
    // Compressible, as real Examples are: a few distinct bytes.
    for (char& c : r) c = static_cast<char>("abcdefgh"[rng() % 8]);
    records.push_back(std::move(r));
  }
  return records;
}

RecordFileOptions NoIndexFiles() {
  RecordFileOptions o;
  o.read_index = false;
  o.access_point_span = 64 << 10;  // many points in small test files
  return o;
}

std::unique_ptr<RecordFile> OpenOrDie(const std::string& path, const RecordFileOptions& options) {
  auto f = RecordFile::Open(path, options);
  REQUIRE_MESSAGE(f.ok(), f.status().ToString());
  return std::move(f).value();
}

// Every record by Get in a shuffled order, by ReadAt, and by GetMany, against the records written.
void CheckEveryRecord(const RecordFile& file, const std::vector<std::string>& want) {
  REQUIRE(file.size() == want.size());
  std::vector<uint64_t> order(want.size());
  for (uint64_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(3));
  std::string record;
  for (uint64_t i : order) {
    REQUIRE_MESSAGE(file.Get(i, &record).ok(), i);
    REQUIRE(record == want[i]);
    REQUIRE(file.ReadAt(file.offset(i), &record).ok());
    REQUIRE(record == want[i]);
  }
  std::vector<uint64_t> some;
  for (uint64_t i = 0; i < want.size(); i += 3) some.push_back(i);
  std::vector<std::string> many;
  REQUIRE(file.GetMany(some, &many).ok());
  for (size_t k = 0; k < some.size(); ++k) REQUIRE(many[k] == want[some[k]]);
}

struct Kind {
  const char* name;
  Compression compression;
};

std::string Encode(const std::string& framed, Compression c) {
  if (c == Compression::kNone) return framed;
  return ZlibCompress(framed, c == Compression::kGzip);
}

TEST_CASE("Get(i) equals sequential reading: plain, gzip, zlib, gzip members, empty, one huge record") {
  const std::string dir = MakeTempDir();
  const std::vector<std::string> records = RandomRecords(2000, 600, 1);
  const std::string framed = testing::Frame(records);
  const std::vector<std::string> huge = {std::string(3 << 20, 'x') + "end"};
  for (Kind kind : {Kind{"plain", Compression::kNone}, Kind{"gzip", Compression::kGzip},
                    Kind{"zlib", Compression::kZlib}}) {
    CAPTURE(kind.name);
    const std::string path = dir + "/" + kind.name;
    WriteFileOrDie(path, Encode(framed, kind.compression));
    auto file = OpenOrDie(path, NoIndexFiles());
    CHECK(file->compression() == kind.compression);
    CHECK(file->index_origin() == RecordFile::IndexOrigin::kBuilt);
    CheckEveryRecord(*file, records);

    WriteFileOrDie(path + ".empty", kind.compression == Compression::kNone ? "" : Encode("", kind.compression));
    CHECK(OpenOrDie(path + ".empty", NoIndexFiles())->size() == 0);

    WriteFileOrDie(path + ".huge", Encode(testing::Frame(huge), kind.compression));
    CheckEveryRecord(*OpenOrDie(path + ".huge", NoIndexFiles()), huge);
  }
  // `cat a.gz b.gz c.gz`: records cross member boundaries.
  const std::string members = ZlibCompress(framed.substr(0, 10001), true) +
                              ZlibCompress(framed.substr(10001, 50000), true) +
                              ZlibCompress(framed.substr(60001), true);
  WriteFileOrDie(dir + "/members.gz", members);
  CheckEveryRecord(*OpenOrDie(dir + "/members.gz", NoIndexFiles()), records);
  // A zero-byte file is an empty plain file.
  CHECK(OpenOrDie(dir + "/plain.empty", NoIndexFiles())->compression() == Compression::kNone);
}

TEST_CASE("indexes are written, read back, and rebuilt when the file was appended to or rewritten") {
  const std::string dir = MakeTempDir();
  const std::vector<std::string> records = RandomRecords(500, 3000, 2);
  for (Kind kind : {Kind{"plain", Compression::kNone}, Kind{"gzip", Compression::kGzip},
                    Kind{"zlib", Compression::kZlib}}) {
    CAPTURE(kind.name);
    const std::string path = dir + "/" + kind.name;
    WriteFileOrDie(path, Encode(testing::Frame(records), kind.compression));
    RecordFileOptions write = NoIndexFiles();
    write.write_index = true;
    OpenOrDie(path, write);
    REQUIRE(std::filesystem::exists(DaliIndexPath(path)));
    CHECK(std::filesystem::exists(AccessPointIndexPath(path)) == (kind.compression != Compression::kNone));

    RecordFileOptions read;  // the default: use the index beside the file
    auto again = OpenOrDie(path, read);
    CHECK(again->index_origin() == RecordFile::IndexOrigin::kRead);
    CHECK(again->index_rejected().empty());
    CheckEveryRecord(*again, records);

    // Appended to: the stored index no longer ends where the file does.
    std::vector<std::string> more = records;
    more.push_back("one more record");
    if (kind.compression == Compression::kZlib) {
      WriteFileOrDie(path, Encode(testing::Frame(more), kind.compression));
    } else {
      WriteFileOrDie(path, ReadFileOrDie(path) + Encode(testing::Frame({more.back()}), kind.compression));
    }
    auto appended = OpenOrDie(path, read);
    CHECK(appended->index_origin() == RecordFile::IndexOrigin::kBuilt);
    CHECK(appended->index_rejected().find("stale") != std::string::npos);
    CheckEveryRecord(*appended, more);

    // Rewritten with other records of the same total size: the headers disagree with the index.
    std::vector<std::string> same_size = records;
    same_size[0].push_back('+');
    same_size[1].pop_back();
    WriteFileOrDie(path, Encode(testing::Frame(records), kind.compression));
    write.read_index = false;
    OpenOrDie(path, write);
    WriteFileOrDie(path, Encode(testing::Frame(same_size), kind.compression));
    auto rewritten = OpenOrDie(path, read);
    CHECK(rewritten->index_origin() == RecordFile::IndexOrigin::kBuilt);
    CHECK_FALSE(rewritten->index_rejected().empty());
    CheckEveryRecord(*rewritten, same_size);
  }
}

TEST_CASE("an index that passes the cheap checks but lies is caught by Get, naming the index") {
  const std::string dir = MakeTempDir();
  const std::string path = dir + "/f.tfrecord";
  const std::vector<std::string> records = {std::string(84, 'a'), std::string(184, 'b'),
                                            std::string(284, 'c'), std::string(84, 'd')};
  WriteFileOrDie(path, testing::Frame(records));
  // Records of 100, 200, 300 and 100 bytes listed as 100, 300, 200, 100: same first, last, end.
  WriteFileOrDie(DaliIndexPath(path), "0 100\n100 300\n400 200\n600 100\n");
  auto file = OpenOrDie(path, {});
  REQUIRE(file->index_origin() == RecordFile::IndexOrigin::kRead);
  std::string record;
  const Status s = file->Get(1, &record);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(s.message().find("f.tfrecord: record 1 (byte 100)") != std::string::npos);
  CHECK(s.message().find(DaliIndexPath(path)) != std::string::npos);
  CHECK(file->Get(2, &record).message().find(DaliIndexPath(path)) != std::string::npos);
  REQUIRE(file->Get(3, &record).ok());
  CHECK(record == records[3]);
}

TEST_CASE("a corrupt record is reported by Get(i) with the file, the record and its offset") {
  const std::string dir = MakeTempDir();
  const std::vector<std::string> records = RandomRecords(300, 400, 3);
  std::string framed = testing::Frame(records);
  auto plain = OpenOrDie((WriteFileOrDie(dir + "/ok", framed), dir + "/ok"), NoIndexFiles());
  const uint64_t bad = 123;
  const uint64_t offset = plain->offset(bad);
  framed[offset + kHeaderSize + 1] ^= 0x40;  // a payload byte: the data CRC fails
  for (Kind kind : {Kind{"plain", Compression::kNone}, Kind{"gzip", Compression::kGzip}}) {
    CAPTURE(kind.name);
    const std::string path = dir + "/bad-" + kind.name;
    WriteFileOrDie(path, Encode(framed, kind.compression));
    auto file = OpenOrDie(path, NoIndexFiles());  // the header walk does not read payloads
    std::string record;
    const Status s = file->Get(bad, &record);
    REQUIRE_FALSE(s.ok());
    CHECK(s.code() == StatusCode::kCorruption);
    CHECK(s.message().find(path + ": record 123 (byte " + std::to_string(offset) + "): data CRC mismatch") == 0);
    REQUIRE(file->Get(bad + 1, &record).ok());
    CHECK(record == records[bad + 1]);
  }
  std::string record;
  const Status out = plain->Get(300, &record);
  CHECK(out.code() == StatusCode::kInvalidArgument);
  CHECK(out.message().find("record 300 is out of range: the file has 300 records") != std::string::npos);
  CHECK(plain->ReadAt(offset + 1, &record).code() == StatusCode::kInvalidArgument);
  std::vector<std::string> many;
  CHECK(plain->GetMany({5, 4}, &many).code() == StatusCode::kInvalidArgument);
}

TEST_CASE("a damaged header stops Open with the reader's message") {
  const std::string dir = MakeTempDir();
  std::string framed = testing::Frame(RandomRecords(50, 100, 4));
  framed[framed.size() / 2] ^= 0x01;
  WriteFileOrDie(dir + "/f", framed.substr(0, framed.size() - 5));
  auto f = RecordFile::Open(dir + "/f", NoIndexFiles());
  REQUIRE_FALSE(f.ok());
  CHECK(f.status().code() == StatusCode::kCorruption);
  CHECK(f.status().message().find(dir + "/f: record ") == 0);
  CHECK(RecordFile::Open(dir + "/missing").status().code() == StatusCode::kNotFound);
}

TEST_CASE("Get from 4 threads at once") {
  const std::string dir = MakeTempDir();
  const std::vector<std::string> records = RandomRecords(800, 2000, 5);
  for (Kind kind : {Kind{"plain", Compression::kNone}, Kind{"gzip", Compression::kGzip}}) {
    CAPTURE(kind.name);
    const std::string path = dir + "/" + kind.name;
    WriteFileOrDie(path, Encode(testing::Frame(records), kind.compression));
    auto file = OpenOrDie(path, NoIndexFiles());
    std::vector<int> failures(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        std::mt19937 rng(static_cast<uint32_t>(t));
        std::string record;
        for (int k = 0; k < 300; ++k) {
          const uint64_t i = rng() % records.size();
          if (!file->Get(i, &record).ok() || record != records[i]) ++failures[static_cast<size_t>(t)];
        }
      });
    }
    for (auto& th : threads) th.join();
    CHECK(failures == std::vector<int>(4, 0));
  }
}

}  // namespace
}  // namespace tfq::tfrecord
