// IsValidUtf8 against a plain reading of RFC 3629 (shortest forms only, no surrogates, nothing
// past U+10FFFF), on strings of ASCII runs that cross its eight-byte steps at every alignment,
// with valid and broken sequences between them.
#include "common/json_text.h"

#include <doctest/doctest.h>

#include <random>
#include <string>

namespace tfq {
namespace {

bool ReferenceUtf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<uint8_t>(s[i]);
    size_t n;
    uint32_t code;
    if (b < 0x80) {
      ++i;
      continue;
    } else if ((b & 0xe0) == 0xc0) {
      n = 2, code = b & 0x1f;
    } else if ((b & 0xf0) == 0xe0) {
      n = 3, code = b & 0x0f;
    } else if ((b & 0xf8) == 0xf0) {
      n = 4, code = b & 0x07;
    } else {
      return false;
    }
    if (i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      const auto c = static_cast<uint8_t>(s[i + k]);
      if ((c & 0xc0) != 0x80) return false;
      code = code << 6 | (c & 0x3f);
    }
    const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < smallest[n] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    i += n;
  }
  return true;
}

TEST_CASE("IsValidUtf8 agrees with RFC 3629 on mixed text") {
  std::mt19937_64 rng(13);
  const std::string pieces[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc0\xaf", "\xed\xa0\x80",
                                "\xf4\x90\x80\x80", "\xe2\x82", "\x80", "\xff", "\xc3", "\xf0\x9f\x98"};
  int valid = 0;
  for (int trial = 0; trial < 100000; ++trial) {
    std::string s;
    const size_t parts = rng() % 6;
    for (size_t p = 0; p < parts; ++p) {
      s += std::string(rng() % 20, static_cast<char>('a' + rng() % 26));
      if (rng() % 2 == 0) s += pieces[rng() % std::size(pieces)];
    }
    const bool expected = ReferenceUtf8(s);
    valid += expected;
    INFO(s);
    CHECK(IsValidUtf8(s) == expected);
  }
  CHECK(valid > 10000);  // both verdicts were common
  CHECK(valid < 90000);
}

}  // namespace
}  // namespace tfq
