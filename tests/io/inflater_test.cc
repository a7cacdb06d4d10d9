// The Inflater implementations (io/inflater.h), all run against one table of cases, as crc32c's
// variants are: zlib, zlib stopping at block boundaries, and ISA-L where tfq was built with it.
#include "io/inflater.h"

#include <doctest/doctest.h>
#include <zlib.h>

#include <functional>
#include <string>
#include <vector>

#include "io_test_util.h"

namespace tfq {
namespace {

using testing::TestBytes;
using testing::ZlibCompress;

struct Implementation {
  const char* name;
  std::function<std::unique_ptr<Inflater>()> make;
};

std::vector<Implementation> Implementations() {
  std::vector<Implementation> all = {{"zlib", [] { return NewZlibInflater(false); }},
                                     {"zlib blocks", [] { return NewZlibInflater(true); }}};
  if (NewIsalInflater() != nullptr) all.push_back({"isa-l", [] { return NewIsalInflater(); }});
  return all;
}

struct Outcome {
  Inflater::Outcome last = Inflater::Outcome::kOk;
  std::string out;
  size_t used = 0;  // input bytes up to the end of the last complete stream or member
  int members = 0;
  std::string error;
};

// Inflates `in` fed `in_chunk` bytes at a time into `out_chunk`-byte buffers, member after member
// (gzip) until the input is used up or something other than kOk/kEnd comes back.
Outcome InflateAll(Inflater& inflater, DeflateWrapper wrapper, std::string_view in,
                   size_t in_chunk = 1 << 16, size_t out_chunk = 1 << 16) {
  Outcome r;
  REQUIRE(inflater.Reset(wrapper));
  std::string buffer(out_chunk, '\0');
  size_t pos = 0;
  for (int guard = 0; guard < 10000000; ++guard) {
    const std::string_view piece = in.substr(pos, in_chunk);
    const Inflater::Step step = inflater.Inflate(piece, buffer.data(), buffer.size());
    REQUIRE(step.consumed <= piece.size());
    REQUIRE(step.produced <= buffer.size());  // what the decompression-bomb limit relies on
    pos += step.consumed;
    r.out.append(buffer.data(), step.produced);
    r.last = step.outcome;
    if (step.outcome == Inflater::Outcome::kEnd) {
      REQUIRE(step.overread <= pos);
      pos -= step.overread;
      r.used = pos;
      ++r.members;
      if (pos == in.size() || wrapper != DeflateWrapper::kGzip) return r;
      REQUIRE(inflater.Reset(wrapper));
      continue;
    }
    if (step.outcome != Inflater::Outcome::kOk) {
      r.error = inflater.error();
      return r;
    }
    if (piece.empty() && step.produced == 0) return r;  // needs input that is not there
  }
  FAIL("no progress");
  return r;
}

std::string RawDeflate(std::string_view data, std::string_view dictionary = {}) {
  z_stream z = {};
  REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) == Z_OK);
  if (!dictionary.empty()) {
    deflateSetDictionary(&z, reinterpret_cast<const Bytef*>(dictionary.data()), static_cast<uInt>(dictionary.size()));
  }
  std::string out(deflateBound(&z, data.size()) + 16, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST_CASE("inflaters: gzip and zlib streams, fed and drained in any piece sizes") {
  const std::string data = TestBytes(700000, 3);
  for (const Implementation& impl : Implementations()) {
    for (bool gzip : {true, false}) {
      const std::string compressed = ZlibCompress(data, gzip);
      for (size_t in_chunk : {size_t{1}, size_t{7}, size_t{4096}, compressed.size()}) {
        for (size_t out_chunk : {size_t{1}, size_t{100}, size_t{1} << 18}) {
          if (in_chunk == 1 && out_chunk == 1) continue;  // slow and adds nothing
          CAPTURE(std::string(impl.name));
          CAPTURE(gzip);
          CAPTURE(in_chunk);
          CAPTURE(out_chunk);
          auto inflater = impl.make();
          const Outcome r = InflateAll(*inflater, gzip ? DeflateWrapper::kGzip : DeflateWrapper::kZlib,
                                       compressed, in_chunk, out_chunk);
          CHECK(r.last == Inflater::Outcome::kEnd);
          CHECK(r.out == data);
          CHECK(r.used == compressed.size());  // nothing taken past the trailer, once given back
        }
      }
    }
  }
}

TEST_CASE("inflaters: multi-member and concatenated gzip, with empty members") {
  const std::string a = TestBytes(300000, 4), b = TestBytes(5000, 5);
  const std::string members = ZlibCompress("", true) + ZlibCompress(a, true) + ZlibCompress("", true) +
                              ZlibCompress(b, true) + ZlibCompress("", true);
  for (const Implementation& impl : Implementations()) {
    for (size_t in_chunk : {size_t{3}, size_t{1000}, members.size()}) {
      CAPTURE(std::string(impl.name));
      CAPTURE(in_chunk);
      auto inflater = impl.make();
      const Outcome r = InflateAll(*inflater, DeflateWrapper::kGzip, members, in_chunk);
      CHECK(r.last == Inflater::Outcome::kEnd);
      CHECK(r.members == 5);
      CHECK(r.out == a + b);
      CHECK(r.used == members.size());
    }
  }
}

TEST_CASE("inflaters: a gzip header with extra field, name, comment and header CRC") {
  const std::string data = "records";
  const std::string plain = ZlibCompress(data, true);
  std::string header("\x1f\x8b\x08\x1e\0\0\0\0\0\x03", 10);  // FEXTRA | FNAME | FCOMMENT | FHCRC
  header += std::string("\x04\0abcd", 6) + "name.tfrecord" + '\0' + "a comment" + '\0';
  const uLong crc = crc32(0, reinterpret_cast<const Bytef*>(header.data()), static_cast<uInt>(header.size()));
  header += static_cast<char>(crc & 0xff);
  header += static_cast<char>((crc >> 8) & 0xff);
  const std::string compressed = header + plain.substr(10);
  for (const Implementation& impl : Implementations()) {
    for (size_t in_chunk : {size_t{5}, compressed.size()}) {
      CAPTURE(std::string(impl.name));
      CAPTURE(in_chunk);
      auto inflater = impl.make();
      const Outcome r = InflateAll(*inflater, DeflateWrapper::kGzip, compressed, in_chunk);
      CHECK(r.last == Inflater::Outcome::kEnd);
      CHECK(r.error == "");
      CHECK(r.out == data);
    }
  }
}

TEST_CASE("inflaters: every truncation ends without kEnd and with a prefix of the data") {
  const std::string data = TestBytes(20000, 6);
  for (const Implementation& impl : Implementations()) {
    for (bool gzip : {true, false}) {
      const std::string compressed = ZlibCompress(data, gzip);
      for (size_t cut = 0; cut < compressed.size(); cut += cut < 40 || cut + 40 > compressed.size() ? 1 : 97) {
        CAPTURE(std::string(impl.name));
        CAPTURE(gzip);
        CAPTURE(cut);
        auto inflater = impl.make();
        const Outcome r = InflateAll(*inflater, gzip ? DeflateWrapper::kGzip : DeflateWrapper::kZlib,
                                     std::string_view(compressed).substr(0, cut));
        CHECK(r.members == 0);
        CHECK(r.last == Inflater::Outcome::kOk);
        CHECK(data.compare(0, r.out.size(), r.out) == 0);
      }
    }
  }
}

TEST_CASE("inflaters: corruption is kBadData in zlib's words, whichever library decodes") {
  const std::string data = TestBytes(100000, 7);
  struct Case {
    bool gzip;
    const char* what;
    std::function<void(std::string&)> damage;
    const char* error;  // empty: any kBadData message
  };
  const Case cases[] = {
      {true, "magic", [](std::string& s) { s[0] = 'x'; }, "incorrect header check"},
      {false, "header check bits", [](std::string& s) { s[1] = static_cast<char>(s[1] ^ 1); }, "incorrect header check"},
      {true, "method", [](std::string& s) { s[2] = 9; }, "unknown compression method"},
      {false, "method", [](std::string& s) { s[0] = 0x79; s[1] = 0x5f; }, ""},
      {true, "crc", [](std::string& s) { s[s.size() - 8] ^= 1; }, "incorrect data check"},
      {false, "adler32", [](std::string& s) { s[s.size() - 1] ^= 1; }, "incorrect data check"},
      {true, "block type 3", [](std::string& s) { s[10] = static_cast<char>(s[10] | 6); }, ""},
  };
  for (const Implementation& impl : Implementations()) {
    for (const Case& k : cases) {
      CAPTURE(std::string(impl.name));
      CAPTURE(k.what);
      std::string bad = ZlibCompress(data, k.gzip);
      k.damage(bad);
      auto inflater = impl.make();
      const Outcome r = InflateAll(*inflater, k.gzip ? DeflateWrapper::kGzip : DeflateWrapper::kZlib, bad);
      CHECK(r.last == Inflater::Outcome::kBadData);
      if (*k.error != '\0') CHECK(r.error == k.error);
      CHECK(!r.error.empty());
    }
  }
}

TEST_CASE("inflaters: a corrupt stream on which ISA-L 2.30 loses count of its input is kBadData") {
  // Found by the tfrecord_reader fuzzer (tests/fuzz/regressions/tfrecord_reader/
  // isal_block_header_input_count): ISA-L returned more input left than it was given.
  const std::string bad(
      "\x78\x9c\xcb\x66\x80\x80\xf6\xf7\xcb\x1e\x72\x65\x72\xc9\x71\x31\x65\xa6\x08\x49\x48\x89\x71\x89"
      "\x30\xfe\x87\x01\x38\xab\x9e\x4b\x94\x8b\x25\x2c\x31\x37\x55\x88\x97\x8b\x9b\x8b\xb5\x24\x35\x2f"
      "\x39\x83\x8b\xe9\x3f\x03\x97\x24\x17\x6b\x71\x72\x7e\x51\xaa\x90\x80\x10\x1f\x17\x0f\xd0\x38\x7b"
      "\x06\x86\x86\x7a\x20\xdd\x00\x52\x97\x9a\x5b\x50\x52\x29\xc4\xc4\xc5\xc0\xc5\xc1\xc5\x74\x78\xa5"
      "\x10\x93\x10\xc3\x67\xa5\x3f\x1b\xa1\x36\x33\x68\x32\xcf\x60\xbf\xf1\xaa\x69\x91\x0e\x23\x84\xff"
      "\xe9\x5f\xf4\xa0\xdc\x8a\x51\x40\x51\x40\x34\x38\xdb\x34\x45\xa9\xdd\xbc\xa4",
      139);
  for (const Implementation& impl : Implementations()) {
    CAPTURE(std::string(impl.name));
    auto inflater = impl.make();
    const Outcome r = InflateAll(*inflater, DeflateWrapper::kZlib, bad);  // checks what was consumed
    CHECK(r.last == Inflater::Outcome::kBadData);
    CHECK(r.error == "invalid distance too far back");
  }
}

TEST_CASE("inflaters: a decompression bomb comes out one output buffer at a time") {
  const std::string bomb = ZlibCompress(std::string(size_t{20} << 20, '\0'), true);
  REQUIRE(bomb.size() < 40000);
  for (const Implementation& impl : Implementations()) {
    CAPTURE(std::string(impl.name));
    auto inflater = impl.make();
    REQUIRE(inflater->Reset(DeflateWrapper::kGzip));
    std::string out(65536, '\0');
    const Inflater::Step step = inflater->Inflate(bomb, out.data(), out.size());
    CHECK(step.produced <= out.size());
    CHECK(step.outcome == Inflater::Outcome::kOk);
  }
}

TEST_CASE("inflaters: a zlib stream with a preset dictionary is kNeedsWindow") {
  z_stream z = {};
  REQUIRE(deflateInit(&z, 6) == Z_OK);
  deflateSetDictionary(&z, reinterpret_cast<const Bytef*>("dictionary"), 10);
  std::string out(256, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>("dictionary words"));
  z.avail_in = 16;
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  for (const Implementation& impl : Implementations()) {
    CAPTURE(std::string(impl.name));
    auto inflater = impl.make();
    CHECK(InflateAll(*inflater, DeflateWrapper::kZlib, out).last == Inflater::Outcome::kNeedsWindow);
  }
}

TEST_CASE("inflaters: raw deflate entered mid-byte with a window, as from an access point") {
  const std::string window = TestBytes(32768, 8), data = TestBytes(200000, 9);
  const std::string raw = RawDeflate(data, window);
  for (const Implementation& impl : Implementations()) {
    for (int bits = 0; bits < 8; ++bits) {
      CAPTURE(std::string(impl.name));
      CAPTURE(bits);
      // The stream's first `bits` bits go to Prime; the rest, shifted down, is the input.
      std::string rest = raw;
      if (bits > 0) {
        for (size_t i = 0; i < raw.size(); ++i) {
          const unsigned next = i + 1 < raw.size() ? static_cast<unsigned char>(raw[i + 1]) : 0;
          rest[i] = static_cast<char>((static_cast<unsigned char>(raw[i]) >> bits) | (next << (8 - bits)));
        }
      }
      auto inflater = impl.make();
      REQUIRE(inflater->Reset(DeflateWrapper::kRaw));
      if (bits > 0) inflater->Prime(bits, static_cast<unsigned char>(raw[0]) & ((1 << bits) - 1));
      inflater->SetWindow(window);
      std::string out(data.size() + 10, '\0');
      size_t made = 0, used = 0;
      Inflater::Step step;
      do {
        step = inflater->Inflate(std::string_view(rest).substr(used, 5000), out.data() + made, 1000);
        used += step.consumed;
        made += step.produced;
      } while (step.outcome == Inflater::Outcome::kOk && (step.consumed > 0 || step.produced > 0));
      CHECK(step.outcome == Inflater::Outcome::kEnd);
      out.resize(made);
      CHECK(out == data);
    }
  }
}

TEST_CASE("inflaters: only the block-stopping zlib inflater reports block boundaries") {
  const std::string data = TestBytes(1 << 20, 10);
  const std::string compressed = ZlibCompress(data, true);
  for (const Implementation& impl : Implementations()) {
    CAPTURE(std::string(impl.name));
    auto inflater = impl.make();
    REQUIRE(inflater->Reset(DeflateWrapper::kGzip));
    std::string out(1 << 20, '\0');
    size_t used = 0, made = 0;
    int boundaries = 0;
    Inflater::Step step;
    do {
      step = inflater->Inflate(std::string_view(compressed).substr(used), out.data(), out.size());
      used += step.consumed;
      made += step.produced;
      int bits = -1;
      if (inflater->AtBlockBoundary(&bits)) {
        ++boundaries;
        CHECK(bits >= 0);
        CHECK(bits < 8);
        CHECK(inflater->Window().size() == std::min<size_t>(made, 32768));
      }
    } while (step.outcome == Inflater::Outcome::kOk);
    CHECK(made == data.size());
    CHECK((boundaries > 1) == (std::string(impl.name) == "zlib blocks"));
  }
}

TEST_CASE("NewInflater picks ISA-L where built in, zlib for block boundaries") {
  const bool have_isal = NewIsalInflater() != nullptr;
  CHECK(InflateLibrary().rfind(have_isal ? "isa-l " : "zlib ", 0) == 0);
  int bits = 0;
  auto blocks = NewInflater(InflaterUse::kBlockBoundaries);
  REQUIRE(blocks->Reset(DeflateWrapper::kGzip));
  std::string out(1 << 16, '\0');
  const std::string compressed = ZlibCompress(TestBytes(1 << 18, 11), true);
  blocks->Inflate(compressed, out.data(), out.size());
  blocks->Inflate(std::string_view(compressed).substr(0, 0), out.data(), out.size());
  (void)bits;
}

}  // namespace
}  // namespace tfq

TEST_CASE("GzipCrc32: zlib's crc32, from any start and in any pieces") {
  std::string bytes(100000, '\0');
  uint64_t x = 88172645463325252ull;
  for (char& c : bytes) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c = static_cast<char>(x);
  }
  for (size_t n : {size_t{0}, size_t{1}, size_t{15}, size_t{64}, size_t{4097}, bytes.size()}) {
    CAPTURE(n);
    const uint32_t want = static_cast<uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), n));
    CHECK(tfq::GzipCrc32(0, bytes.data(), n) == want);
    const size_t half = n / 3;
    CHECK(tfq::GzipCrc32(tfq::GzipCrc32(0, bytes.data(), half), bytes.data() + half, n - half) == want);
  }
}
