#include "common/json_text.h"

#include <cstdint>

#include "common/swar.h"

namespace tfq {
namespace {

// Length of the well-formed UTF-8 sequence starting at s[i], or 0 if there is none
// (Unicode 15, table 3-7).
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  const uint8_t b0 = byte(i);
  if (b0 < 0x80) return 1;
  const size_t left = s.size() - i;
  const auto cont = [&](size_t k, uint8_t lo = 0x80, uint8_t hi = 0xbf) {
    return i + k < s.size() && byte(i + k) >= lo && byte(i + k) <= hi;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const uint8_t lo = b0 == 0xe0 ? 0xa0 : 0x80;  // no overlong forms
    const uint8_t hi = b0 == 0xed ? 0x9f : 0xbf;  // no surrogates
    return left >= 3 && cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const uint8_t lo = b0 == 0xf0 ? 0x90 : 0x80;  // no overlong forms
    const uint8_t hi = b0 == 0xf4 ? 0x8f : 0xbf;  // nothing beyond U+10FFFF
    return left >= 4 && cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

bool NeedsEscape(uint8_t c) { return c < 0x20 || c == '"' || c == '\\'; }

}  // namespace

bool IsValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (i + 8 <= s.size() && (swar::Load(s.data() + i) & swar::kHighs) == 0) {
      i += 8;  // eight ASCII bytes
      continue;
    }
    if (static_cast<uint8_t>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const size_t n = Utf8SequenceLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t run = 0;  // start of the pending run of bytes copied as they are
  for (size_t i = 0; i < s.size();) {
    const uint8_t c = static_cast<uint8_t>(s[i]);
    if (c >= 0x80) {
      const size_t n = Utf8SequenceLength(s, i);
      if (n != 0) {
        i += n;
        continue;
      }
      out->append(s.data() + run, i - run);
      out->append("\xef\xbf\xbd");  // U+FFFD REPLACEMENT CHARACTER
      run = ++i;
      continue;
    }
    if (!NeedsEscape(c)) {
      ++i;
      continue;
    }
    out->append(s.data() + run, i - run);
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 15]);
    }
    run = ++i;
  }
  out->append(s.data() + run, s.size() - run);
  out->push_back('"');
}

}  // namespace tfq
