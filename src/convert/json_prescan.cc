#include "convert/json_prescan.h"

namespace tfq {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

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
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
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

}  // namespace tfq
