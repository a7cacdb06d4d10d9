// The pre-scan that keeps deeply nested JSON lines away from the parser and big integers from
// silently becoming floats.
#include "convert/json_prescan.h"

#include <doctest/doctest.h>

#include <random>
#include <string>

#include "convert/jsonl.h"
#include "example/json_tape.h"
#include "io/file_streams.h"

namespace tfq {
namespace {

size_t Depth(std::string_view text, size_t stop = kMaxJsonDepth) { return PrescanJson(text, stop).depth; }

Status Convert(const std::string& text, bool sequence = false) {
  auto in = NewMemoryInputStream("x.jsonl", text);
  JsonLinesOptions options;
  options.sequence = sequence;
  uint64_t n = 0;
  return JsonLinesToRecords(in.get(), options, [](std::string_view, std::span<const size_t>) { return Status::OK(); }, &n);
}

// The scan as first written, one byte at a time: what the word-at-a-time string skip must match.
JsonPrescan ReferencePrescan(std::string_view text, size_t stop_above_depth) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  JsonPrescan result;
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
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
    } else if (c == '-' || digit(c)) {
      const size_t start = i;
      const bool negative = c == '-';
      size_t end = negative ? i + 1 : i;
      while (end < text.size() && digit(text[end])) ++end;
      const bool integer = end == text.size() || (text[end] != '.' && text[end] != 'e' && text[end] != 'E');
      while (end < text.size() && (digit(text[end]) || text[end] == '.' || text[end] == 'e' ||
                                   text[end] == 'E' || text[end] == '+' || text[end] == '-')) {
        ++end;
      }
      std::string_view digits = text.substr(start + negative, end - start - negative);
      while (digits.size() > 1 && digits[0] == '0') digits.remove_prefix(1);
      const std::string_view max = negative ? "9223372036854775808" : "18446744073709551615";
      if (integer && result.big_integer.empty() &&
          (digits.size() > max.size() || (digits.size() == max.size() && digits > max))) {
        result.big_integer = text.substr(start, end - start);
        result.big_integer_offset = start;
      }
      i = end - 1;
    }
  }
  return result;
}

}  // namespace

TEST_CASE("the scan agrees with the byte-at-a-time scan on random JSON-like text") {
  std::mt19937_64 rng(5);
  // Quotes, escapes, brackets and long digit runs, between runs of plain text long enough to
  // cross the eight-byte words at every alignment.
  const std::string pieces[] = {"\"", "\\", "\\\"", "[", "]", "{", "}", ",", ":", "-", ".", "e",
                                "1", "18446744073709551616", "9223372036854775808", "0000000000000000000001",
                                "abcdefgh", "x", "\xc3\xa9"};
  for (int trial = 0; trial < 50000; ++trial) {
    std::string text;
    const size_t parts = rng() % 40;
    for (size_t p = 0; p < parts; ++p) {
      const std::string& piece = pieces[rng() % std::size(pieces)];
      text += rng() % 4 == 0 ? std::string(rng() % 20, 'a') : piece;
    }
    const size_t stop = 1 + rng() % 6;
    const JsonPrescan got = PrescanJson(text, stop);
    const JsonPrescan expected = ReferencePrescan(text, stop);
    INFO(text);
    CHECK(got.depth == expected.depth);
    CHECK(got.big_integer == expected.big_integer);
    CHECK(got.big_integer_offset == expected.big_integer_offset);
  }
}

// A JSON value nested about as deep as the line limit, with integers on both sides of 64 bits.
std::string RandomLine(std::mt19937_64& rng, size_t depth, size_t deepest) {
  static const char* const kAtoms[] = {"1", "-1", "0", "2.5", "1e3", "\"s\"", "\"[[\\\"{\"", "true", "null",
                                       "18446744073709551615", "18446744073709551616", "-9223372036854775808",
                                       "-9223372036854775809", "123456789012345678901234567890"};
  if (depth >= deepest || rng() % 50 == 0) return kAtoms[rng() % std::size(kAtoms)];
  const bool object = rng() % 2 == 0;
  std::string text = object ? "{" : "[";
  const size_t n = rng() % 8 == 0 ? rng() % 3 : 1;  // mostly a chain down, so that lines reach the limit
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) text += ",";
    if (object) text += "\"k" + std::to_string(i) + "\":";
    text += RandomLine(rng, depth + 1, deepest);
  }
  return text + (object ? "}" : "]");
}

TEST_CASE("the guarded parse answers as the pre-scan followed by nlohmann's parse") {
  std::mt19937_64 rng(9);
  JsonTape guarded, reference;
  int deeper = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    std::string text = RandomLine(rng, 0, kMaxJsonDepth - 4 + rng() % 8);
    if (trial % 3 == 2 && !text.empty()) {  // and broken: a byte changed or dropped
      const size_t at = rng() % text.size();
      if (rng() % 2 == 0) {
        text[at] = "[]{},:\"x9"[rng() % 9];
      } else {
        text.erase(at, 1);
      }
    }
    deeper += PrescanJson(text).depth > kMaxJsonDepth;
    Status expected = CheckJsonLine(text);
    if (expected.ok()) expected = reference.ParseWithNlohmann(text);
    const Status got = guarded.Parse(text, kJsonLineGuard);
    INFO(text);
    CHECK(got.code() == expected.code());
    CHECK(got.message() == expected.message());
  }
  CHECK(deeper > 100);  // lines past the limit were among them (148)
}

TEST_CASE("depth counts brackets outside strings") {
  CHECK(Depth("") == 0);
  CHECK(Depth("1") == 0);
  CHECK(Depth(R"({"a":[1,2]})") == 2);
  CHECK(Depth(R"({"a":"[[[[{{{{"})") == 1);
  CHECK(Depth(R"({"a":"\"[[[[", "b":[[]]})") == 3);
  CHECK(Depth(R"([[]][[[]]])") == 3);
  CHECK(Depth("]]]][[") == 2);  // unbalanced closers do not go below zero
}

TEST_CASE("the scan stops once past the limit") {
  const std::string deep(1000000, '[');
  CHECK(Depth(deep, 10) == 11);
  CHECK(Depth(deep) == kMaxJsonDepth + 1);
}

TEST_CASE("integer literals beyond 64 bits are found, floats and strings are not") {
  CHECK(PrescanJson(R"({"a":[1,-2,18446744073709551615,-9223372036854775808,007]})").big_integer.empty());
  CHECK(PrescanJson(R"({"a":[1e999999,123456789012345678901234567890.5,"123456789012345678901234567890"]})")
            .big_integer.empty());
  JsonPrescan p = PrescanJson(R"({"a":[1, 18446744073709551616]})");
  CHECK(p.big_integer == "18446744073709551616");
  CHECK(p.big_integer_offset == 9);
  CHECK(PrescanJson(R"([-9223372036854775809])").big_integer == "-9223372036854775809");
  CHECK(PrescanJson(R"([123456789012345678901234567890])").big_integer == "123456789012345678901234567890");
}

TEST_CASE("a JSON line nested a million deep is refused before parsing") {
  const std::string line = "{\"x\":" + std::string(1000000, '[') + std::string(1000000, ']') + "}\n";
  Status s = Convert("{\"a\":[1]}\n" + line);
  CHECK(s.code() == StatusCode::kInvalidData);
  CHECK(s.message() == "x.jsonl: line 2: JSON nested deeper than 64 levels (a tf.Example needs at "
                       "most 8); the line is not read");
}

TEST_CASE("a big integer is an error, not a float feature") {
  Status s = Convert("{\"x\":[123456789012345678901234567890]}\n");
  CHECK(s.code() == StatusCode::kInvalidData);
  CHECK(s.message().find("x.jsonl: line 1: the integer 123456789012345678901234567890 at byte 6 "
                         "does not fit in 64 bits") == 0);
  CHECK(Convert("{\"x\":[1.5e300]}\n").code() == StatusCode::kInvalidData);  // beyond float32
}

TEST_CASE("the deepest real form, a proto-json SequenceExample, passes") {
  const std::string line =
      R"({"featureLists":{"featureList":{"k":{"feature":[{"int64List":{"value":["1"]}}]}}}})";
  CHECK(Depth(line) == 8);
  CHECK(Convert(line + "\n", true).ok());
}

}  // namespace tfq
