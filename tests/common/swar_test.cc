// The SWAR lane tests against a byte loop: the first flagged lane of any OR of them is the
// first byte that matches, for every position and for bytes on both sides of each bound.
#include "common/swar.h"

#include <doctest/doctest.h>

#include <random>
#include <string>

namespace tfq::swar {
namespace {

TEST_CASE("the first flagged lane is the first byte that matches") {
  std::mt19937_64 rng(3);
  // Bytes near the bounds and the targets, so borrows between lanes are common.
  const uint8_t bytes[] = {0x00, 0x01, 0x1f, 0x20, 0x21, '"', '"' + 1, '\\', '\\' - 1, 0x7f, 0x80, 0x81, 0xa2, 0xdc, 0xff};
  for (int trial = 0; trial < 200000; ++trial) {
    char text[8];
    for (char& c : text) c = static_cast<char>(rng() % 3 == 0 ? rng() : bytes[rng() % std::size(bytes)]);
    const uint64_t word = Load(text);
    const uint64_t flags = Equal(word, '"') | Equal(word, '\\') | Below(word, 0x20);
    size_t first = 8;
    for (size_t i = 0; i < 8; ++i) {
      const auto c = static_cast<uint8_t>(text[i]);
      if (c == '"' || c == '\\' || c < 0x20) {
        first = i;
        break;
      }
    }
    INFO("trial " << trial);
    if (first == 8) {
      CHECK(flags == 0);
    } else {
      REQUIRE(flags != 0);
      CHECK(FirstFlagged(flags) == first);
      CHECK((word & LanesBefore(first)) == (first == 0 ? 0 : (word << (64 - 8 * first)) >> (64 - 8 * first)));
    }
  }
}

TEST_CASE("each test alone flags exactly its bytes when only one lane matches") {
  for (int lane = 0; lane < 8; ++lane) {
    for (int b = 0; b < 256; ++b) {
      char text[8] = {'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'};
      text[lane] = static_cast<char>(b);
      const uint64_t word = Load(text);
      CHECK((Equal(word, '"') != 0) == (b == '"'));
      CHECK((Below(word, 0x20) != 0) == (b < 0x20));
      if (b < 0x20) CHECK(FirstFlagged(Below(word, 0x20)) == static_cast<size_t>(lane));
    }
  }
}

}  // namespace
}  // namespace tfq::swar
