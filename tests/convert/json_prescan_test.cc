// The pre-scan that keeps deeply nested JSON lines away from the parser and big integers from
// silently becoming floats.
#include "convert/json_prescan.h"

#include <doctest/doctest.h>

#include <string>

#include "convert/jsonl.h"
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

}  // namespace

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
