// Every classification variant this CPU runs (block_scan.h) gives the byte-by-byte reference's
// masks, on random text of every length around the block and run sizes, with each delimiter kind
// (a zero byte too), quoting on and off, and starting inside quotes or not.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "csv/block_scan.h"

namespace tfq::csv::internal {
namespace {

std::vector<BlockMasks> Reference(const std::string& text, char delim, bool quoting,
                                  uint64_t* in_quote) {
  std::vector<BlockMasks> out((text.size() + kBlockBytes - 1) / kBlockBytes);
  bool inside = *in_quote != 0;
  for (size_t i = 0; i < out.size() * kBlockBytes; ++i) {
    BlockMasks& m = out[i / kBlockBytes];
    const uint64_t bit = uint64_t{1} << (i % kBlockBytes);
    if (i < text.size()) {
      const char c = text[i];
      if (quoting && c == '"') {
        m.quote |= bit;
        inside = !inside;
      }
      if (c == delim) m.delim |= bit;
      if (c == '\n') m.lf |= bit;
      if (c == '\r') m.cr |= bit;
    }
    // The opening quote counts as inside, the closing one does not: the state after the byte.
    if (inside) m.inside |= bit;
  }
  *in_quote = inside ? ~uint64_t{0} : 0;
  return out;
}

TEST_CASE("every variant classifies as the reference does") {
  std::mt19937 rng(7);
  const std::string alphabet("\"\"\",,;\t\n\r\0ab", 12);  // the zero byte included
  const std::vector<ClassifyVariant> variants = ClassifyVariants();
  REQUIRE(!variants.empty());
  for (const ClassifyVariant& v : variants) {
    CAPTURE(v.name);
    for (size_t len : {0, 1, 63, 64, 65, 127, 128, 200, 4095, 4096, 4097}) {
      for (char delim : {',', '\t', '\0'}) {
        for (bool quoting : {true, false}) {
          for (uint64_t start : {uint64_t{0}, ~uint64_t{0}}) {
            CAPTURE(len);
            CAPTURE(static_cast<int>(delim));
            CAPTURE(quoting);
            std::string text(len, 'a');
            for (char& c : text) c = alphabet[rng() % alphabet.size()];
            uint64_t want_carry = quoting ? start : 0;
            const std::vector<BlockMasks> want = Reference(text, delim, quoting, &want_carry);
            std::vector<BlockMasks> got(want.size());
            uint64_t carry = quoting ? start : 0;
            v.fn(text.data(), text.size(), delim, quoting, &carry, got.data());
            CHECK(carry == want_carry);
            for (size_t b = 0; b < want.size(); ++b) {
              CAPTURE(b);
              CHECK(got[b].quote == want[b].quote);
              CHECK(got[b].inside == want[b].inside);
              CHECK(got[b].delim == want[b].delim);
              CHECK(got[b].lf == want[b].lf);
              CHECK(got[b].cr == want[b].cr);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("the dispatched classifier is one of the variants") {
  const std::string text = "a,\"b\nc\",d\r\n";
  uint64_t a = 0, b = 0;
  BlockMasks x, y;
  ClassifyBlocks(text.data(), text.size(), ',', true, &a, &x);
  ClassifyBlocksBaseline(text.data(), text.size(), ',', true, &b, &y);
  CHECK(a == b);
  CHECK(x.quote == y.quote);
  CHECK(x.inside == y.inside);
  CHECK(x.delim == y.delim);
  CHECK(x.lf == y.lf);
  CHECK(x.cr == y.cr);
  MESSAGE("variants: " << ClassifyVariants().size() << ", fastest: "
                       << std::string(ClassifyVariants().back().name));
}

}  // namespace
}  // namespace tfq::csv::internal
