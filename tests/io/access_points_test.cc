// Access points (zran) into gzip and zlib streams: built while inflating, stored, and used to read
// any range of the uncompressed bytes, which must equal what inflating from the start gives.
#include "io/access_points.h"
#include "io/blocked_gzip.h"

#include <doctest/doctest.h>

#include <random>

#include "common/test_env.h"
#include "io/compression.h"
#include "io/deflate_pool.h"
#include "io/deflater.h"
#include "io/file_streams.h"
#include "io/io_test_util.h"
#include "io/random_access_file.h"
#include "io/random_inflate.h"

namespace tfq {
namespace {

using testing::MakeTempDir;
using testing::TestBytes;
using testing::WriteFileOrDie;
using testing::ZlibCompress;

// Inflates `compressed` whole through the indexing stream; returns the output, fills *index.
std::string InflateIndexing(const std::string& compressed, Compression c, uint64_t span,
                            AccessPointIndex* index) {
  index->span = span;
  auto stream = NewIndexingDecompressingStream(NewMemoryInputStream("mem", compressed), c, {}, index);
  std::string out;
  REQUIRE(testing::ReadAll(*stream, &out).ok());
  return out;
}

// Every range read through the points equals the same bytes of the whole output.
void CheckRandomReads(const std::string& path, const AccessPointIndex& index, const std::string& whole) {
  auto file = RandomAccessFile::Open(path);
  REQUIRE(file.ok());
  PointInflater inflater(**file, index);
  std::mt19937_64 rng(7);
  std::string got;
  for (int k = 0; k < 200; ++k) {
    const uint64_t offset = whole.empty() ? 0 : rng() % whole.size();
    const size_t n = static_cast<size_t>(rng() % 5000);
    REQUIRE(inflater.Read(offset, n, &got).ok());
    REQUIRE(got == whole.substr(static_cast<size_t>(offset), n));
  }
  // The end: fewer bytes, then none.
  REQUIRE(inflater.Read(whole.size() - std::min<size_t>(whole.size(), 10), 100, &got).ok());
  CHECK(got == whole.substr(whole.size() - std::min<size_t>(whole.size(), 10)));
  REQUIRE(inflater.Read(whole.size(), 100, &got).ok());
  CHECK(got.empty());
}

TEST_CASE("access points: random reads equal sequential inflation (gzip, zlib, multi-member)") {
  const std::string dir = MakeTempDir();
  const std::string a = TestBytes(3 << 20, 1), b = TestBytes(700 << 10, 2), c = TestBytes(2 << 20, 3);
  struct Case {
    const char* name;
    Compression compression;
    std::string compressed;
    std::string plain;
  };
  const Case cases[] = {
      {"gzip", Compression::kGzip, ZlibCompress(a, true), a},
      {"zlib", Compression::kZlib, ZlibCompress(a, false), a},
      {"gzip members", Compression::kGzip,
       ZlibCompress(a, true) + ZlibCompress(b, true) + ZlibCompress("", true) + ZlibCompress(c, true),
       a + b + c},
  };
  for (const Case& t : cases) {
    CAPTURE(t.name);
    AccessPointIndex index;
    const std::string whole = InflateIndexing(t.compressed, t.compression, 256 << 10, &index);
    REQUIRE(whole == t.plain);
    CHECK(index.uncompressed_size == whole.size());
    CHECK(index.compression == t.compression);
    REQUIRE(index.points.size() >= whole.size() / (512 << 10));
    CHECK(index.points[0].uncompressed_offset == 0);
    const std::string path = dir + "/" + t.name;
    WriteFileOrDie(path, t.compressed);
    CheckRandomReads(path, index, whole);
    // Stored and read back, it works the same.
    auto file = RandomAccessFile::Open(path);
    REQUIRE(file.ok());
    auto fingerprint = FingerprintOf(**file);
    REQUIRE(fingerprint.ok());
    index.file = fingerprint.value();
    auto decoded = DecodeAccessPointIndex(EncodeAccessPointIndex(index), "x.tfqgzidx");
    REQUIRE(decoded.ok());
    CHECK(decoded->points.size() == index.points.size());
    CHECK(decoded->file == index.file);
    CheckRandomReads(path, decoded.value(), whole);
  }
}

TEST_CASE("access points: an empty stream and an empty file") {
  const std::string dir = MakeTempDir();
  for (const std::string& compressed : {ZlibCompress("", true), std::string()}) {
    AccessPointIndex index;
    CHECK(InflateIndexing(compressed, Compression::kGzip, 1 << 20, &index).empty());
    CHECK(index.uncompressed_size == 0);
    WriteFileOrDie(dir + "/e", compressed);
    auto file = RandomAccessFile::Open(dir + "/e");
    REQUIRE(file.ok());
    PointInflater inflater(**file, index);
    std::string got = "x";
    REQUIRE(inflater.Read(0, 10, &got).ok());
    CHECK(got.empty());
  }
}

TEST_CASE("access points: forward reads continue instead of starting again") {
  const std::string dir = MakeTempDir();
  const std::string a = TestBytes(4 << 20, 5);
  AccessPointIndex index;
  InflateIndexing(ZlibCompress(a, true), Compression::kGzip, 1 << 20, &index);
  WriteFileOrDie(dir + "/f.gz", ZlibCompress(a, true));
  auto file = RandomAccessFile::Open(dir + "/f.gz");
  REQUIRE(file.ok());
  PointInflater inflater(**file, index);
  std::string got;
  for (uint64_t offset = 0; offset < a.size(); offset += 100000) {
    REQUIRE(inflater.Read(offset, 100, &got).ok());
    REQUIRE(got == a.substr(offset, 100));
  }
  CHECK(inflater.bytes_inflated() <= a.size());
}

TEST_CASE("access points: a damaged index is refused, naming it") {
  AccessPointIndex index;
  InflateIndexing(ZlibCompress(TestBytes(1 << 20, 9), true), Compression::kGzip, 1 << 18, &index);
  std::string bytes = EncodeAccessPointIndex(index);
  for (size_t at : {size_t{0}, size_t{20}, bytes.size() / 2, bytes.size() - 1}) {
    std::string bad = bytes;
    bad[at] ^= 0x20;
    auto decoded = DecodeAccessPointIndex(bad, "f.gz.tfqgzidx");
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.status().code() == StatusCode::kCorruption);
    CHECK(decoded.status().message().find("f.gz.tfqgzidx") != std::string::npos);
  }
  CHECK_FALSE(DecodeAccessPointIndex(bytes.substr(0, bytes.size() - 9), "x").ok());
  CHECK_FALSE(DecodeAccessPointIndex("", "x").ok());
}

TEST_CASE("access points: a changed file changes its fingerprint") {
  const std::string dir = MakeTempDir();
  const std::string gz = ZlibCompress(TestBytes(300 << 10, 4), true);
  WriteFileOrDie(dir + "/a", gz);
  WriteFileOrDie(dir + "/b", gz + ZlibCompress("more", true));
  std::string flipped = gz;
  flipped[gz.size() - 3] ^= 1;  // the trailer's length field
  WriteFileOrDie(dir + "/c", flipped);
  auto fa = FingerprintOf(*RandomAccessFile::Open(dir + "/a").value());
  auto fb = FingerprintOf(*RandomAccessFile::Open(dir + "/b").value());
  auto fc = FingerprintOf(*RandomAccessFile::Open(dir + "/c").value());
  REQUIRE((fa.ok() && fb.ok() && fc.ok()));
  CHECK_FALSE(fa.value() == fb.value());
  CHECK_FALSE(fa.value() == fc.value());
  CHECK(fa.value() == FingerprintOf(*RandomAccessFile::Open(dir + "/a").value()).value());
}

TEST_CASE("RandomAccessFile: refuses what it cannot read at offsets") {
  const std::string dir = MakeTempDir();
  CHECK(RandomAccessFile::Open(dir + "/missing").status().code() == StatusCode::kNotFound);
  CHECK(RandomAccessFile::Open(dir).status().code() == StatusCode::kInvalidArgument);
  testing::PipeFeeder pipe("abc");
  auto p = RandomAccessFile::Open(pipe.path());
  REQUIRE_FALSE(p.ok());
  CHECK(p.status().message().find("regular file") != std::string::npos);
}

// ---- the points a tfq-written gzip file announces (io/blocked_gzip.h) ----

std::string TfqGzip(std::string_view data, DeflatePool* pool = nullptr) {
  std::string out;
  auto s = NewCompressingStream(NewStringOutputStream("o", &out), Compression::kGzip, -1, pool);
  REQUIRE(s->Write(data).ok());
  REQUIRE(s->Close().ok());
  return out;
}

TEST_CASE("blocked gzip: tfq's header announces its layout; other headers do not") {
  const std::string ours = TfqGzip("abc");
  Result<BlockedGzipStart> start = ParseBlockedGzipHeader(ours);
  REQUIRE(start.ok());
  CHECK(start->layout.block_bytes == kDeflateBlock);
  CHECK(start->layout.independent_every == kDeflateIndependentEvery);
  CHECK(start->data_offset == 25);
  CHECK(ParseBlockedGzipHeader(ZlibCompress("abc", true)).status().code() == StatusCode::kNotFound);
  CHECK(ParseBlockedGzipHeader("not gzip at all").status().code() == StatusCode::kCorruption);
  CHECK(ParseBlockedGzipHeader(ours.substr(0, 20)).status().code() == StatusCode::kCorruption);
  // Another subfield before ours, and a version from the future.
  std::string other = ours.substr(0, 10) + std::string("\x12\x00" "AB\x01\x00" "x", 7) + ours.substr(12);
  other[10] = static_cast<char>(13 + 5);
  REQUIRE(ParseBlockedGzipHeader(other).ok());
  CHECK(ParseBlockedGzipHeader(other)->data_offset == 30);
  std::string future = ours;
  future[16] = 2;
  CHECK(ParseBlockedGzipHeader(future).status().code() == StatusCode::kNotFound);
}

TEST_CASE("blocked gzip: the announced points read the same bytes as inflating from the start") {
  const std::string dir = MakeTempDir();
  DeflatePool pool(2);
  // Text (zlib 6) and numbers (ISA-L where built in); sizes around whole blocks and points.
  const size_t point = kDeflateBlock * kDeflateIndependentEvery;
  for (size_t size : {size_t{0}, size_t{1000}, point, point + 1, 3 * point - kDeflateBlock, 3 * point + 12345}) {
    for (bool text : {true, false}) {
      CAPTURE(size);
      CAPTURE(text);
      std::string data = TestBytes(size, 9);
      if (!text) {
        std::mt19937 rng(3);
        for (char& ch : data) ch = static_cast<char>(rng() % 16);
      }
      WriteFileOrDie(dir + "/t.gz", TfqGzip(data, &pool));
      auto file = RandomAccessFile::Open(dir + "/t.gz");
      REQUIRE(file.ok());
      Result<AccessPointIndex> index = BlockedGzipAccessPoints(**file);
      REQUIRE(index.ok());
      CHECK(index->uncompressed_size == size);
      CHECK(index->points.size() == std::max<size_t>(1, (size + point - 1) / point));
      for (size_t k = 0; k < index->points.size(); ++k) {
        CHECK(index->points[k].uncompressed_offset == k * point);
        CHECK(index->points[k].window.empty());
      }
      if (!data.empty()) CheckRandomReads(dir + "/t.gz", *index, data);
    }
  }
}

TEST_CASE("blocked gzip: no points where the markers do not add up, or the header is another's") {
  const std::string dir = MakeTempDir();
  const std::string data = TestBytes(5 << 20, 4);
  std::string gz = TfqGzip(data);
  // The trailer's size off by 2^24: more than a block. (Off by less, the points are found and the
  // size is wrong: the stretches' sums then disagree with the trailer, tests/e2e/inspect_parallel_test.sh.)
  gz[gz.size() - 1] ^= 1;
  WriteFileOrDie(dir + "/bad-size.gz", gz);
  WriteFileOrDie(dir + "/zlib-written.gz", ZlibCompress(data, true));
  WriteFileOrDie(dir + "/two-members.gz", TfqGzip(data) + TfqGzip(data.substr(0, 3 << 20)));
  // Built to hurt: tfq's header, then nothing but markers (more than blocks could make).
  std::string flood = TfqGzip("").substr(0, 25);
  for (int i = 0; i < (1 << 18); ++i) flood += std::string("\0\0\xff\xff", 4);
  WriteFileOrDie(dir + "/flood.gz", flood + std::string(8, '\0'));
  for (std::string name : {"bad-size.gz", "zlib-written.gz", "two-members.gz", "flood.gz"}) {
    CAPTURE(name);
    auto file = RandomAccessFile::Open(dir + "/" + name);
    REQUIRE(file.ok());
    CHECK(BlockedGzipAccessPoints(**file).status().code() == StatusCode::kNotFound);
  }
}

}  // namespace
}  // namespace tfq
