// The Deflaters (io/deflater.h): every encoder round-trips and writes the same bytes however the
// data is split, and the default picks ISA-L only where its output stays within 5% of zlib 6's.
#include "io/deflater.h"

#include <doctest/doctest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

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

struct Encoder {
  const char* name;
  std::function<std::unique_ptr<Deflater>(DeflateWrapper)> make;
};

std::vector<Encoder> Encoders() {
  std::vector<Encoder> all = {
      {"default", [](DeflateWrapper w) { return std::move(NewDeflater(w).value()); }},
      {"zlib 6", [](DeflateWrapper w) { return NewZlibDeflater(w, 6); }},
      {"zlib 1", [](DeflateWrapper w) { return NewZlibDeflater(w, 1); }}};
  if (!IsalVersion().empty()) all.push_back({"isa-l", [](DeflateWrapper w) { return NewIsalDeflater(w); }});
  return all;
}

std::string Compress(Deflater& d, std::string_view data, size_t write_size) {
  std::string out;
  for (size_t pos = 0; pos < data.size(); pos += write_size) {
    REQUIRE(d.Deflate(data.substr(pos, write_size), false, &out).ok());
  }
  REQUIRE(d.Deflate({}, true, &out).ok());
  return out;
}

std::string Inflate(std::string_view compressed, DeflateWrapper w) {
  auto inflater = NewZlibInflater(false);  // zlib as the reference reader
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

TEST_CASE("deflaters: every encoder round-trips, with the same bytes however the data is split") {
  for (const Encoder& e : Encoders()) {
    for (DeflateWrapper w : {DeflateWrapper::kGzip, DeflateWrapper::kZlib}) {
      for (size_t size : {size_t{0}, size_t{1}, size_t{5000}, kChoiceSample - 1, kChoiceSample,
                          (size_t{3} << 20) + 7}) {
        CAPTURE(std::string(e.name));
        CAPTURE(w == DeflateWrapper::kGzip);
        CAPTURE(size);
        const std::string data = size % 2 ? TestBytes(size, 1) : NumericBytes(size, 1);
        const std::string whole = Compress(*e.make(w), data, data.size() + 1);
        CHECK(Inflate(whole, w) == data);
        if (size > 1000) {
          CHECK(Compress(*e.make(w), data, 1000) == whole);
          CHECK(Compress(*e.make(w), data, 65537) == whole);
        }
      }
    }
  }
}

TEST_CASE("the default encoder is zlib 6 where ISA-L's output would be over 5% larger") {
  // Text-like records: ISA-L level 1 is 10-15% larger than zlib 6 on them.
  const std::string text = TestBytes((size_t{2} << 20) + 3, 2);
  for (DeflateWrapper w : {DeflateWrapper::kGzip, DeflateWrapper::kZlib}) {
    CHECK(Compress(*NewDeflater(w).value(), text, 7777) == ZlibCompress(text, w == DeflateWrapper::kGzip));
    const std::string small = text.substr(0, 100000);  // a stream shorter than the sample
    CHECK(Compress(*NewDeflater(w).value(), small, 100) == ZlibCompress(small, w == DeflateWrapper::kGzip));
  }
}

TEST_CASE("the default encoder is ISA-L where built in and its output is within 5% of zlib 6's") {
  if (IsalVersion().empty()) return;  // nothing to choose: zlib 6, as tested above
  for (size_t size : {size_t{100000}, (size_t{2} << 20) + 3}) {
    CAPTURE(size);
    const std::string numbers = NumericBytes(size, 3);
    const std::string isal = Compress(*NewIsalDeflater(DeflateWrapper::kGzip), numbers, 4096);
    const std::string zlib = ZlibCompress(numbers, true);
    REQUIRE(isal.size() <= zlib.size() * kMaxSizeRatio);
    CHECK(Compress(*NewDeflater(DeflateWrapper::kGzip).value(), numbers, 4096) == isal);
  }
}

TEST_CASE("an explicit level is zlib at that level; a level outside -1..9 is kInvalidArgument") {
  const std::string numbers = NumericBytes(300000, 4);
  CHECK(Compress(*NewDeflater(DeflateWrapper::kGzip, 6).value(), numbers, 999) == ZlibCompress(numbers, true));
  for (int bad : {-2, 10}) {
    auto d = NewDeflater(DeflateWrapper::kGzip, bad);
    CHECK(d.status().code() == StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace tfq
