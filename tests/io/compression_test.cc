// Compression: names, extensions, sniffing, and the gzip/zlib stream decorators, including the
// ways a compressed file goes bad (truncation, corruption, bombs).
#include "io/compression.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "common/test_env.h"
#include "io/file_streams.h"
#include "io_test_util.h"

namespace tfq {
namespace {

using testing::ReadAll;
using testing::TestBytes;
using testing::ZlibCompress;

std::string Compress(std::string_view data, Compression c, size_t write_size = 1000) {
  std::string out;
  auto s = NewCompressingStream(NewStringOutputStream("out", &out), c);
  for (size_t pos = 0; pos < data.size(); pos += write_size) {
    REQUIRE(s->Write(data.substr(pos, write_size)).ok());
  }
  CHECK(s->bytes_written() == data.size());
  REQUIRE(s->Close().ok());
  return out;
}

// Decompresses all of `compressed`; returns the status and leaves the bytes in *out.
Status Decompress(std::string compressed, Compression c, std::string* out,
                  uint64_t limit = 0, const std::string& name = "x.gz") {
  auto s = NewDecompressingStream(NewMemoryInputStream(name, std::move(compressed)), c, limit);
  return ReadAll(*s, out);
}

// ---- names, extensions, sniffing ----

TEST_CASE("compression names parse case-insensitively, and an empty name means none") {
  CHECK(ParseCompression("gzip").value() == Compression::kGzip);
  CHECK(ParseCompression("GZIP").value() == Compression::kGzip);
  CHECK(ParseCompression("ZLIB").value() == Compression::kZlib);
  CHECK(ParseCompression("None").value() == Compression::kNone);
  CHECK(ParseCompression("").value() == Compression::kNone);
  CHECK(ParseCompression("auto").value() == Compression::kAuto);
  for (Compression c : {Compression::kAuto, Compression::kNone, Compression::kGzip,
                        Compression::kZlib}) {
    CHECK(ParseCompression(CompressionName(c)).value() == c);
  }
}

TEST_CASE("an unknown compression name is kInvalidArgument naming it") {
  auto r = ParseCompression("snappy");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message().find("'snappy'") != std::string::npos);
  CHECK_FALSE(ParseCompression("gz").ok());
}

TEST_CASE("file extensions choose the compression for writing") {
  CHECK(CompressionFromExtension("a.tfrecord.gz") == Compression::kGzip);
  CHECK(CompressionFromExtension("dir/a.GZIP") == Compression::kGzip);
  CHECK(CompressionFromExtension("a.zz") == Compression::kZlib);
  CHECK(CompressionFromExtension("a.zlib") == Compression::kZlib);
  CHECK(CompressionFromExtension("a.tfrecord") == Compression::kNone);
  CHECK(CompressionFromExtension("gz") == Compression::kNone);
  CHECK(CompressionFromExtension("a.gz.tfrecord") == Compression::kNone);
  CHECK(CompressionFromExtension("") == Compression::kNone);
  CHECK(CompressionFromExtension("-") == Compression::kNone);
}

TEST_CASE("sniffing recognises gzip and zlib headers and nothing else") {
  CHECK(SniffCompression(ZlibCompress("abc", true)) == Compression::kGzip);
  CHECK(SniffCompression(ZlibCompress("abc", false)) == Compression::kZlib);
  CHECK(SniffCompression("\x1f\x8b") == Compression::kGzip);
  CHECK(SniffCompression("\x78\x01") == Compression::kZlib);  // levels 0-1
  CHECK(SniffCompression("\x78\x9c") == Compression::kZlib);  // default level
  CHECK(SniffCompression("\x78\xda") == Compression::kZlib);  // level 9
  CHECK(SniffCompression("\x08\x1d") == Compression::kZlib);  // 256-byte window
  CHECK(SniffCompression("\x78\x9d") == Compression::kNone);  // check bits wrong
  CHECK(SniffCompression("\x88\x98") == Compression::kNone);  // window too large (CINFO 8)
  CHECK(SniffCompression("\x79\x98") == Compression::kNone);  // method 9 is not deflate
  CHECK(SniffCompression("\x1f") == Compression::kNone);
  CHECK(SniffCompression("") == Compression::kNone);
  // A TFRecord header: 8-byte little-endian length, then its CRC.
  CHECK(SniffCompression(std::string("\x10\x00\x00\x00\x00\x00\x00\x00", 8)) == Compression::kNone);
}

// ---- round trips ----

TEST_CASE("gzip and zlib round-trip empty, small and multi-megabyte data") {
  for (Compression c : {Compression::kGzip, Compression::kZlib}) {
    for (size_t size : {size_t{0}, size_t{1}, size_t{1000}, (size_t{6} << 20) + 11}) {
      CAPTURE(CompressionName(c));
      CAPTURE(size);
      const std::string data = TestBytes(size, static_cast<uint32_t>(size));
      std::string compressed = Compress(data, c, 7777);
      CHECK(SniffCompression(compressed) == c);
      auto s = NewDecompressingStream(NewMemoryInputStream("in", compressed), c);
      std::string got;
      REQUIRE(ReadAll(*s, &got, 3000).ok());
      CHECK(got == data);
      CHECK(s->position() == data.size());
      CHECK(s->source_bytes_read() == compressed.size());
      CHECK(s->name() == "in");
    }
  }
}

TEST_CASE("compressed output is what the chosen encoder writes, however written") {
  // TestBytes is text-like, where the default encoder is zlib 6 (io/deflater.h). A stream shorter
  // than a block is one zlib stream with TensorFlow's parameters, byte for byte after the header
  // (tfq's gzip header carries its block layout: io/blocked_gzip.h); a longer one is the same for
  // every split into Writes.
  const std::string data = TestBytes(size_t{2} << 20, 5);
  for (Compression c : {Compression::kGzip, Compression::kZlib}) {
    const std::string small = data.substr(0, 100000);
    const bool gzip = c == Compression::kGzip;
    CHECK(Compress(small, c, 1).substr(gzip ? 25 : 0) == ZlibCompress(small, gzip).substr(gzip ? 10 : 0));
    const std::string expected = Compress(data, c, data.size());
    CHECK(Compress(data, c, 13) == expected);
    CHECK(Compress(data, c, size_t{1} << 20) == expected);
  }
  // gzip header: magic, deflate, an extra field only, mtime 0; the layout's subfield "TQ".
  const std::string x = Compress("x", Compression::kGzip);
  CHECK(x.substr(0, 8) == std::string("\x1f\x8b\x08\x04\x00\x00\x00\x00", 8));
  CHECK(x.substr(12, 2) == "TQ");
}

TEST_CASE("decompression works from a source that offers one byte at a time") {
  const std::string data = TestBytes(200000, 6);
  for (Compression c : {Compression::kGzip, Compression::kZlib}) {
    auto s = NewDecompressingStream(
        std::make_unique<testing::TrickleInputStream>(ZlibCompress(data, c == Compression::kGzip)),
        c);
    std::string got;
    REQUIRE(ReadAll(*s, &got, 1).ok());
    CHECK(got == data);
  }
}

TEST_CASE("a decompressing stream skips by decompressing and discarding") {
  const std::string data = TestBytes(size_t{3} << 20, 11);
  auto s = NewDecompressingStream(NewMemoryInputStream("x.gz", ZlibCompress(data, true)),
                                  Compression::kGzip);
  uint64_t skipped = 0;
  REQUIRE(s->Skip(2000000, &skipped).ok());
  CHECK(skipped == 2000000);
  std::string_view v;
  REQUIRE(s->Peek(10, &v).ok());
  CHECK(v.substr(0, 10) == std::string_view(data).substr(2000000, 10));
  REQUIRE(s->Skip(uint64_t{1} << 40, &skipped).ok());
  CHECK(skipped == data.size() - 2000000);
  CHECK(s->position() == data.size());
}

TEST_CASE("a gzip file written by the gzip tool, with a file name in its header, is read") {
  if (std::system("gzip --version >/dev/null 2>&1") != 0) return;
  std::string dir = testing::MakeTempDir();
  const std::string data = TestBytes(500000, 12);
  testing::WriteFileOrDie(dir + "/f", data);
  REQUIRE(std::system(("gzip -9 --name " + dir + "/f").c_str()) == 0);
  auto r = OpenInputFile(dir + "/f.gz");
  REQUIRE(r.ok());
  auto s = NewDecompressingStream(std::move(r).value(), Compression::kGzip);
  std::string got;
  REQUIRE(ReadAll(*s, &got).ok());
  CHECK(got == data);
}

TEST_CASE("a gzip file tfq writes is read by the gzip tool") {
  if (std::system("gzip --version >/dev/null 2>&1") != 0) return;
  std::string dir = testing::MakeTempDir();
  const std::string data = TestBytes(700000, 13);
  auto r = CreateOutputFile(dir + "/out.gz");
  REQUIRE(r.ok());
  auto s = NewCompressingStream(std::move(r).value(), Compression::kGzip);
  REQUIRE(s->Write(data).ok());
  REQUIRE(s->Close().ok());
  REQUIRE(std::system(("gzip -d " + dir + "/out.gz").c_str()) == 0);
  CHECK(testing::ReadFileOrDie(dir + "/out") == data);
}

TEST_CASE("a compressing stream destroyed without Close abandons its file") {
  std::string dir = testing::MakeTempDir();
  {
    auto r = CreateOutputFile(dir + "/out.gz");
    REQUIRE(r.ok());
    auto s = NewCompressingStream(std::move(r).value(), Compression::kGzip);
    REQUIRE(s->Write(TestBytes(100000)).ok());
  }
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("an invalid compression level is kInvalidArgument") {
  std::string out;
  auto s = NewCompressingStream(NewStringOutputStream("o", &out), Compression::kGzip, 12);
  CHECK(s->Write("x").code() == StatusCode::kInvalidArgument);
  CHECK(s->Close().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("kNone passes streams through unchanged; kAuto is a programming error") {
  auto in = NewMemoryInputStream("m", "abc");
  InputStream* raw_in = in.get();
  CHECK(NewDecompressingStream(std::move(in), Compression::kNone).get() == raw_in);
  std::string sink;
  auto out = NewStringOutputStream("o", &sink);
  OutputStream* raw_out = out.get();
  CHECK(NewCompressingStream(std::move(out), Compression::kNone).get() == raw_out);

  std::string got;
  CHECK(Decompress("abc", Compression::kAuto, &got).code() == StatusCode::kInternal);
  auto auto_out = NewCompressingStream(NewStringOutputStream("o", &sink), Compression::kAuto);
  CHECK(auto_out->Write("x").code() == StatusCode::kInternal);
}

// ---- multi-member gzip ----

TEST_CASE("concatenated gzip members are read as one stream") {
  const std::string a = TestBytes(300000, 21), b = TestBytes(1000, 22);
  std::string both = ZlibCompress(a, true) + ZlibCompress("", true) + ZlibCompress(b, true);
  std::string got;
  REQUIRE(Decompress(both, Compression::kGzip, &got).ok());
  CHECK(got == a + b);
  auto s = NewDecompressingStream(
      std::make_unique<testing::TrickleInputStream>(both), Compression::kGzip);
  REQUIRE(ReadAll(*s, &got, 1).ok());
  CHECK(got == a + b);
  CHECK(s->source_bytes_read() == both.size());
}

TEST_CASE("an empty input decompresses to an empty stream") {
  std::string got = "x";
  CHECK(Decompress("", Compression::kGzip, &got).ok());
  CHECK(got.empty());
  CHECK(Decompress("", Compression::kZlib, &got).ok());
}

// ---- truncation and corruption ----

TEST_CASE("truncated gzip and zlib are kCorruption naming the compressed offset") {
  const std::string data = TestBytes(100000, 31);
  for (Compression c : {Compression::kGzip, Compression::kZlib}) {
    const bool gzip = c == Compression::kGzip;
    const std::string whole = ZlibCompress(data, gzip);
    const std::string fmt(CompressionName(c));
    for (size_t cut : {size_t{1}, size_t{2}, size_t{5}, size_t{11}, whole.size() / 2,
                       whole.size() - 5, whole.size() - 4, whole.size() - 1}) {
      CAPTURE(fmt);
      CAPTURE(cut);
      std::string got;
      Status s = Decompress(whole.substr(0, cut), c, &got, 0, "cut.gz");
      CHECK(s.code() == StatusCode::kCorruption);
      CHECK(s.message() == "cut.gz: " + fmt + " stream truncated at compressed byte " +
                               std::to_string(cut) + ": the file ends before the " + fmt +
                               " trailer (cut short while copying or writing?)");
      CHECK(data.compare(0, got.size(), got) == 0);  // what came out before was right
    }
  }
}

TEST_CASE("a gzip stream truncated inside its second member is kCorruption") {
  std::string first = ZlibCompress("first member", true);
  std::string both = first + ZlibCompress(TestBytes(5000), true);
  std::string got;
  Status s = Decompress(both.substr(0, first.size() + 3), Compression::kGzip, &got);
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(s.message().find("truncated at compressed byte " + std::to_string(first.size() + 3)) !=
        std::string::npos);
}

TEST_CASE("reading a stream with the wrong compression names what its bytes look like") {
  const std::string plain = std::string("\x10\0\0\0\0\0\0\0", 8) + TestBytes(100, 3);
  const std::string gzip = ZlibCompress(plain, true);
  struct Case { std::string bytes; Compression c; const char* says; };
  for (const Case& k : {Case{plain, Compression::kGzip, "not gzip data (incorrect header check at compressed byte "},
                        Case{plain, Compression::kZlib, "look like uncompressed binary data (a plain TFRecord file?"},
                        Case{gzip, Compression::kZlib, "look like gzip data (read it with -c gzip or -c auto)"},
                        Case{"id,name\n1,a\n", Compression::kGzip, "look like text (a CSV or JSON lines file?"},
                        Case{"BZh91AY&SY", Compression::kGzip, "bzip2 data, which tfq does not read"}}) {
    CAPTURE(k.says);
    std::string got;
    Status s = Decompress(k.bytes, k.c, &got, 0, "x.tfrecord");
    CHECK(s.code() == StatusCode::kCorruption);
    CHECK(s.message().rfind("x.tfrecord: not ", 0) == 0);
    CHECK(s.message().find(k.says) != std::string::npos);
  }
}

TEST_CASE("corrupt compressed bytes are kCorruption with zlib's message and the offset") {
  const std::string data = TestBytes(100000, 41);
  for (Compression c : {Compression::kGzip, Compression::kZlib}) {
    const std::string whole = ZlibCompress(data, c == Compression::kGzip);
    const size_t header = c == Compression::kGzip ? 10 : 2;
    const size_t checksum = whole.size() - (c == Compression::kGzip ? 6 : 3);
    // The magic, bytes of the deflate data, the checksum, and the last byte (gzip: the length).
    for (size_t at : {size_t{0}, header + 1, whole.size() / 2, checksum, whole.size() - 1}) {
      CAPTURE(CompressionName(c));
      CAPTURE(at);
      std::string bad = whole;
      bad[at] = static_cast<char>(bad[at] ^ 0x55);
      std::string got;
      Status s = Decompress(bad, c, &got, 0, "bad.gz");
      CHECK(s.code() == StatusCode::kCorruption);
      // A damaged magic number reads as "not this format", naming what the bytes look like.
      const std::string what = at == 0 ? "not " : "corrupt ";
      CHECK(s.message().find("bad.gz: " + what + std::string(CompressionName(c)) + " data") == 0);
    }
  }
  std::string got;
  Status s = Decompress(std::string("\x1f\x8b\x09", 3) + std::string(20, 'x'),
                        Compression::kGzip, &got);
  CHECK(s.message().find("unknown compression method") != std::string::npos);
}

TEST_CASE("garbage after a gzip member or a zlib stream is kCorruption") {
  std::string got;
  auto gz = NewDecompressingStream(NewMemoryInputStream("g", ZlibCompress("abc", true) + "junk"),
                                   Compression::kGzip);
  Status s = ReadAll(*gz, &got, 1);
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(got == "abc");  // the complete member is delivered before the error
  std::string z = ZlibCompress("abc", false);
  s = Decompress(z + "junk", Compression::kZlib, &got);
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(s.message().find("after the end of the zlib stream at compressed byte " +
                         std::to_string(z.size())) != std::string::npos);
}

TEST_CASE("decompressing beyond the output limit is kResourceExhausted") {
  const std::string zeros(size_t{10} << 20, '\0');
  const std::string bomb = ZlibCompress(zeros, true);  // about 10 KB
  std::string got;
  Status s = Decompress(bomb, Compression::kGzip, &got, 1 << 20, "bomb.gz");
  CHECK(s.code() == StatusCode::kResourceExhausted);
  CHECK(s.message().find("bomb.gz: ") == 0);
  CHECK(got.size() <= (size_t{1} << 20));
  CHECK(Decompress(bomb, Compression::kGzip, &got, zeros.size()).ok());
  CHECK(got.size() == zeros.size());
  CHECK(Decompress(bomb, Compression::kGzip, &got, zeros.size() - 1).code() ==
        StatusCode::kResourceExhausted);
}

TEST_CASE("a decompression error is sticky") {
  std::string whole = ZlibCompress(TestBytes(1000), false);
  auto s = NewDecompressingStream(NewMemoryInputStream("z", whole.substr(0, 20)),
                                  Compression::kZlib);
  std::string got;
  CHECK(ReadAll(*s, &got, 1).code() == StatusCode::kCorruption);
  CHECK_FALSE(got.empty());
  std::string_view v;
  CHECK(s->Peek(1, &v).code() == StatusCode::kCorruption);
  uint64_t skipped = 0;
  CHECK(s->Skip(10, &skipped).code() == StatusCode::kCorruption);
  CHECK(skipped == 0);
}

}  // namespace

TEST_CASE("a stream expanding beyond the ratio stops with the flag in the message") {
  const std::string zeros(size_t{8} << 20, '\0');
  const std::string bomb = ZlibCompress(zeros, true);  // about 1000:1
  DecompressionLimit limit;
  limit.max_ratio = 100;
  limit.ratio_floor = 1 << 20;  // small here; 16 MiB by default
  auto s = NewDecompressingStream(NewMemoryInputStream("bomb.gz", bomb), Compression::kGzip, limit);
  std::string got;
  Status status = ReadAll(*s, &got, 1 << 16);
  CHECK(status.code() == StatusCode::kResourceExhausted);
  CHECK(status.message().find("bomb.gz: gzip data expands to more than 100 times its compressed size") == 0);
  CHECK(status.message().find("--max-decompressed") != std::string::npos);
  CHECK(got.size() < (size_t{2} << 20));  // stopped soon after the floor
  // A generous ratio reads it whole.
  limit.max_ratio = 2000;
  s = NewDecompressingStream(NewMemoryInputStream("bomb.gz", bomb), Compression::kGzip, limit);
  CHECK(ReadAll(*s, &got, 1 << 16).ok());
  CHECK(got.size() == zeros.size());
}

}  // namespace tfq
