#include "convert/json_prescan.h"

#include <cstdint>
#include <string>

#include "common/swar.h"

namespace tfq {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The first '"' or '\\' at or after `i` (text.size() or more if none), eight bytes at a time: most
// of a line is the inside of strings.
size_t FindQuoteOrBackslash(std::string_view text, size_t i) {
  for (; i + 8 <= text.size(); i += 8) {
    const uint64_t word = swar::Load(text.data() + i);
    const uint64_t found = swar::Equal(word, '"') | swar::Equal(word, '\\');
    if (found != 0) return i + swar::FirstFlagged(found);
  }
  while (i < text.size() && text[i] != '"' && text[i] != '\\') ++i;
  return i;
}

// Whether the digits of an integer literal exceed what nlohmann keeps as an integer: uint64 for
// positive literals, int64 for negative ones (beyond that it stores a double).
bool OutsideInt64Range(std::string_view digits, bool negative) {
  size_t i = 0;
  while (i + 1 < digits.size() && digits[i] == '0') ++i;
  digits.remove_prefix(i);
  const std::string_view max = negative ? "9223372036854775808" : "18446744073709551615";
  return digits.size() > max.size() || (digits.size() == max.size() && digits > max);
}

}  // namespace

JsonPrescan PrescanJson(std::string_view text, size_t stop_above_depth) {
  JsonPrescan result;
  size_t depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {  // to the closing quote; an escaped character cannot end the string
      size_t at = FindQuoteOrBackslash(text, i + 1);
      while (at < text.size() && text[at] == '\\') at = FindQuoteOrBackslash(text, at + 2);
      if (at >= text.size()) break;  // unterminated: the parser reports it
      i = at;
    } else if (c == '[' || c == '{') {
      if (++depth > result.depth) {
        result.depth = depth;
        if (depth > stop_above_depth) break;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == '-' || IsDigit(c)) {
      const size_t start = i;
      const bool negative = c == '-';
      size_t end = negative ? i + 1 : i;
      while (end < text.size() && IsDigit(text[end])) ++end;
      const bool integer = end == text.size() || (text[end] != '.' && text[end] != 'e' && text[end] != 'E');
      while (end < text.size() && (IsDigit(text[end]) || text[end] == '.' || text[end] == 'e' ||
                                   text[end] == 'E' || text[end] == '+' || text[end] == '-')) {
        ++end;
      }
      if (integer && result.big_integer.empty() &&
          OutsideInt64Range(text.substr(start + negative, end - start - negative), negative)) {
        result.big_integer = text.substr(start, end - start);
        result.big_integer_offset = start;
      }
      i = end - 1;
    }
  }
  return result;
}

Status CheckJsonLine(std::string_view line) {
  const JsonPrescan prescan = PrescanJson(line);
  if (prescan.depth > kMaxJsonDepth) {
    return Status::InvalidData("JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                               " levels (a tf.Example needs at most 8); the line is not read");
  }
  if (!prescan.big_integer.empty()) {
    const std::string_view n = prescan.big_integer;
    return Status::InvalidData(
        "the integer " + std::string(n.substr(0, 40)) + (n.size() > 40 ? "..." : "") + " at byte " +
        std::to_string(prescan.big_integer_offset) +
        " does not fit in 64 bits (int64 features hold -2^63..2^63-1; write a float with a '.' or an exponent)");
  }
  return Status::OK();
}

}  // namespace tfq
