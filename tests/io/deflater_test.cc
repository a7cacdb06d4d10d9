// The Deflaters and the compressing stream over them (io/deflater.h, io/deflate_pool.h): blocks
// concatenate into one stream every reader takes; the bytes do not depend on how the data was
// split into writes or on the pool; the default picks ISA-L only where its output stays within
// 5% of zlib 6's.
#include "io/deflater.h"

#include <doctest/doctest.h>

#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "io/compression.h"
#include "io/deflate_pool.h"
#include "io/file_streams.h"
#include "io_test_util.h"

namespace tfq {
namespace {

using testing::TestBytes;
using testing::ZlibCompress;

// Bytes that ISA-L level 1 compresses as well as zlib 6: random numbers from a small range
// (what float and int64 features look like), which only entropy coding shrinks.
std::string NumericBytes(size_t size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string out(size, '\0');
  for (char& c : out) c = static_cast<char>(rng() % 16);
  return out;
}

std::string Inflate(std::string_view compressed, DeflateWrapper w, bool isal = false) {
  auto inflater = isal ? NewIsalInflater() : NewZlibInflater(false);
  REQUIRE(inflater != nullptr);
  REQUIRE(inflater->Reset(w));
  std::string out, buffer(1 << 16, '\0');
  for (;;) {
    const Inflater::Step step = inflater->Inflate(compressed, buffer.data(), buffer.size());
    compressed.remove_prefix(step.consumed);
    out.append(buffer.data(), step.produced);
    if (step.outcome == Inflater::Outcome::kEnd) {
      CHECK(compressed.empty());
      return out;
    }
    REQUIRE(step.outcome == Inflater::Outcome::kOk);
    REQUIRE((step.consumed > 0 || step.produced > 0));
  }
}

std::string Deflated(std::string_view data, Compression c, size_t write_size, DeflatePool* pool = nullptr,
                     int level = -1) {
  std::string out;
  auto s = NewCompressingStream(NewStringOutputStream("out", &out), c, level, pool);
  for (size_t pos = 0; pos < data.size(); pos += write_size) {
    REQUIRE(s->Write(data.substr(pos, write_size)).ok());
  }
  REQUIRE(s->Close().ok());
  return out;
}

TEST_CASE("deflaters: blocks primed with the bytes before them make one stream that zlib reads") {
  std::vector<std::pair<const char*, std::function<std::unique_ptr<Deflater>()>>> encoders = {
      {"zlib 6", [] { return NewZlibDeflater(6); }}, {"zlib 1", [] { return NewZlibDeflater(1); }},
      {"zlib 0", [] { return NewZlibDeflater(0); }}};
  if (!IsalVersion().empty()) encoders.push_back({"isa-l", [] { return NewIsalDeflater(); }});
  // Repetitive text: most matches of a block reach back into the one before it.
  const std::string base = TestBytes(100000, 5);
  std::string data;
  while (data.size() < 700000) data += base.substr(0, 30000 + data.size() % 7000);
  for (auto& [name, make] : encoders) {
    CAPTURE(std::string(name));
    for (size_t block : {size_t{1}, size_t{4096}, size_t{65536}, size_t{200000}}) {
      CAPTURE(block);
      std::unique_ptr<Deflater> d = make();
      std::string raw;
      size_t pos = 0;
      const std::string_view all(data);
      const size_t size = block == 1 ? 3000 : data.size();  // one byte at a time: a short stream
      while (true) {
        const size_t n = std::min(block, size - pos);
        const bool last = pos + n == size;
        const std::string_view dictionary = all.substr(pos > kDeflateWindow ? pos - kDeflateWindow : 0,
                                                       std::min(pos, kDeflateWindow));
        REQUIRE(d->DeflateBlock(dictionary, all.substr(pos, n), last, &raw).ok());
        pos += n;
        if (last) break;
      }
      // A raw deflate stream, read by zlib.
      z_stream z = {};
      REQUIRE(inflateInit2(&z, -15) == Z_OK);
      std::string out(size + 1, '\0');
      z.next_in = reinterpret_cast<Bytef*>(raw.data());
      z.avail_in = static_cast<uInt>(raw.size());
      z.next_out = reinterpret_cast<Bytef*>(out.data());
      z.avail_out = static_cast<uInt>(out.size());
      CHECK(inflate(&z, Z_FINISH) == Z_STREAM_END);
      CHECK(z.avail_in == 0);
      out.resize(z.total_out);
      inflateEnd(&z);
      CHECK(out == all.substr(0, size));
    }
  }
}

TEST_CASE("the dictionary is used: a block that repeats the one before compresses to almost nothing") {
  std::mt19937 rng(6);
  std::string block(50000, '\0');
  for (char& c : block) c = static_cast<char>(rng());  // incompressible on its own
  for (bool isal : {false, true}) {
    if (isal && IsalVersion().empty()) continue;
    std::unique_ptr<Deflater> d = isal ? NewIsalDeflater() : NewZlibDeflater(6);
    std::string primed, cold;
    const std::string_view dict = std::string_view(block).substr(block.size() - kDeflateWindow);
    const std::string repeat = block.substr(block.size() - 20000);
    REQUIRE(d->DeflateBlock(dict, repeat, false, &primed).ok());
    REQUIRE(d->DeflateBlock({}, repeat, false, &cold).ok());
    CAPTURE(isal);
    CHECK(primed.size() * 10 < cold.size());
  }
}

TEST_CASE("compressing streams: the same bytes however the data is split and with any pool") {
  DeflatePool one(1), three(3);
  for (Compression c : {Compression::kGzip, Compression::kZlib}) {
    const DeflateWrapper w = c == Compression::kGzip ? DeflateWrapper::kGzip : DeflateWrapper::kZlib;
    for (size_t size : {size_t{0}, size_t{1}, size_t{5000}, kDeflateBlock, kDeflateBlock + 1,
                        kChoiceSample - 1, kChoiceSample, (size_t{3} << 20) + 7}) {
      CAPTURE(c == Compression::kGzip);
      CAPTURE(size);
      const std::string data = size % 2 ? TestBytes(size, 1) : NumericBytes(size, 1);
      const std::string whole = Deflated(data, c, data.size() + 1);
      CHECK(Inflate(whole, w) == data);
      if (!IsalVersion().empty()) CHECK(Inflate(whole, w, /*isal=*/true) == data);
      CHECK(Deflated(data, c, 1000, &one) == whole);
      CHECK(Deflated(data, c, 65537, &three) == whole);
      CHECK(Deflated(data, c, 3 * kDeflateBlock, &three) == whole);
      CHECK(Deflated(data, c, 1000, nullptr, 1) == Deflated(data, c, 77777, &three, 1));
    }
  }
}

TEST_CASE("compressing streams sharing a pool, written in turn, each get their own bytes") {
  DeflatePool pool(2);
  const size_t kStreams = 5;
  std::vector<std::string> data, outs(kStreams);
  std::vector<std::unique_ptr<OutputStream>> streams;
  for (size_t i = 0; i < kStreams; ++i) {
    data.push_back(i % 2 ? TestBytes(900000 + i, 10 + i) : NumericBytes(900000 + i, 10 + i));
    streams.push_back(NewCompressingStream(NewStringOutputStream("o", &outs[i]), Compression::kGzip, -1, &pool));
  }
  for (size_t pos = 0; pos < 900000 + kStreams; pos += 10000) {
    for (size_t i = 0; i < kStreams; ++i) {
      if (pos < data[i].size()) REQUIRE(streams[i]->Write(std::string_view(data[i]).substr(pos, 10000)).ok());
    }
  }
  for (auto& s : streams) REQUIRE(s->Close().ok());
  for (size_t i = 0; i < kStreams; ++i) {
    CAPTURE(i);
    CHECK(outs[i] == Deflated(data[i], Compression::kGzip, 4096));
    CHECK(Inflate(outs[i], DeflateWrapper::kGzip) == data[i]);
  }
}

TEST_CASE("a stream destroyed before Close leaves the pool usable") {
  DeflatePool pool(2);
  {
    std::string out;
    auto s = NewCompressingStream(NewStringOutputStream("o", &out), Compression::kGzip, 6, &pool);
    REQUIRE(s->Write(TestBytes(5 * kDeflateBlock, 3)).ok());
  }
  const std::string data = TestBytes(3 * kDeflateBlock + 5, 4);
  CHECK(Inflate(Deflated(data, Compression::kGzip, 5000, &pool), DeflateWrapper::kGzip) == data);
}

TEST_CASE("the blocks cost little against one unbroken zlib stream, and the headers carry zlib's marks") {
  const std::string text = TestBytes((size_t{2} << 20) + 3, 2);
  for (Compression c : {Compression::kGzip, Compression::kZlib}) {
    const std::string ours = Deflated(text, c, 7777, nullptr, 6);
    const std::string zlib = ZlibCompress(text, c == Compression::kGzip);
    CAPTURE(ours.size());
    CAPTURE(zlib.size());
    CHECK(ours.size() <= zlib.size() * 1.005);
    // zlib's marks for level 6: gzip's XFL and OS (tfq's header has its extra field after them),
    // zlib's two header bytes.
    if (c == Compression::kGzip) {
      CHECK(ours.substr(8, 2) == zlib.substr(8, 2));
    } else {
      CHECK(ours.substr(0, 2) == zlib.substr(0, 2));
    }
  }
}

TEST_CASE("the default encoder is zlib 6 where ISA-L's output would be over 5% larger") {
  // Text-like records: ISA-L level 1 is 10-15% larger than zlib 6 on them.
  const std::string text = TestBytes((size_t{2} << 20) + 3, 2);
  CHECK(ChooseDeflateEngine(-1, std::string_view(text).substr(0, kChoiceSample)).value() ==
        DeflateEngine{false, 6});
  for (size_t size : {text.size(), size_t{100000}}) {  // and a stream shorter than the sample
    CAPTURE(size);
    const std::string_view part = std::string_view(text).substr(0, size);
    CHECK(Deflated(part, Compression::kGzip, 7777) == Deflated(part, Compression::kGzip, 100, nullptr, 6));
  }
}

TEST_CASE("the default encoder is ISA-L where built in and its output is within 5% of zlib 6's") {
  if (IsalVersion().empty()) return;  // nothing to choose: zlib 6, as tested above
  for (size_t size : {size_t{100000}, (size_t{2} << 20) + 3}) {
    CAPTURE(size);
    const std::string numbers = NumericBytes(size, 3);
    REQUIRE(ChooseDeflateEngine(-1, std::string_view(numbers).substr(0, kChoiceSample)).value() ==
            DeflateEngine{true, 6});
    const std::string chosen = Deflated(numbers, Compression::kGzip, 4096);
    CHECK(chosen != Deflated(numbers, Compression::kGzip, 4096, nullptr, 6));
    CHECK(chosen.size() <= ZlibCompress(numbers, true).size() * kMaxSizeRatio);
    CHECK(chosen[8] == '\x04');  // XFL: the fastest method, as zlib marks level 1
  }
}

TEST_CASE("an explicit level is zlib at that level; a level outside -1..9 is kInvalidArgument") {
  const std::string numbers = NumericBytes(300000, 4);
  CHECK(Deflated(numbers, Compression::kGzip, 999, nullptr, 1).size() >
        Deflated(numbers, Compression::kGzip, 999, nullptr, 9).size());
  for (int bad : {-2, 10}) {
    CHECK(ChooseDeflateEngine(bad, {}).status().code() == StatusCode::kInvalidArgument);
    std::string out;
    auto s = NewCompressingStream(NewStringOutputStream("o", &out), Compression::kGzip, bad);
    CHECK(s->Write("x").code() == StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace tfq
