// The lazy decoder on malformed bytes: one test per failure mode, and byte edits of a good
// record.
#include "example/example_view.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "view_test_util.h"
#include "wire_builder.h"

namespace tfq {
namespace {

using namespace tfq::testing;  // NOLINT: the wire builders and view helpers

TEST_CASE("malformed input is kCorruption with what and where") {
  // Byte offsets count from the start of the record.
  CHECK(ParseError("\x0a") == "malformed varint (length) at byte 1");
  CHECK(ParseError("\x0a\x05\x0a") == "length 5 past the end of the message at byte 1");
  CHECK(ParseError(std::string(11, '\xff')) == "malformed varint (tag) at byte 0");
  CHECK(ParseError("\x10\xff") == "malformed varint at byte 1");  // unknown varint field
  CHECK(ParseError("\x08\x01") == "wrong wire type 0 for field Example.features at byte 0");
  CHECK(ParseError("\x0b\x0c") == "wire type 3 (group) is not supported at byte 0");
  CHECK(ParseError("\x0c") == "wire type 4 (group) is not supported at byte 0");
  CHECK(ParseError("\x16") == "invalid wire type 6 at byte 0");
  CHECK(ParseError("\x17") == "invalid wire type 7 at byte 0");
  CHECK(ParseError(std::string("\x00\x01", 2)) == "field number 0 at byte 0");
  CHECK(ParseError(Varint(uint64_t{1} << 35)) == "tag beyond 32 bits at byte 0");
  CHECK(ParseError("\x11\x01\x02") == "fixed64 value past the end of the message at byte 1");
  CHECK(ParseError("\x15\x01\x02") == "fixed32 value past the end of the message at byte 1");

  // Nested: the offsets still count from the record start.
  CHECK(ParseError(ExampleOf(Ld(1, VarintField(2, 1)))) ==
        "wrong wire type 0 for field Features.FeatureEntry.value at byte 4");
  CHECK(ParseError(ExampleOf(VarintField(1, 1))) == "wrong wire type 0 for field Features.feature at byte 2");
  CHECK(ParseError(ExampleOf(Ld(1, VarintField(1, 1)))) ==
        "wrong wire type 0 for field Features.FeatureEntry.key at byte 4");
  CHECK(ParseError(ExampleOf(Entry("k", VarintField(2, 1)))) ==
        "wrong wire type 0 for field Feature.float_list at byte 9");
  CHECK(ParseError(ExampleOf(Entry("k", FloatFeature(VarintField(1, 1))))) ==
        "wrong wire type 0 for field FloatList.value at byte 11");
  CHECK(ParseError(ExampleOf(Entry("k", Int64Feature(Fixed32Field(1, 1.0f))))) ==
        "wrong wire type 5 for field Int64List.value at byte 11");
  CHECK(ParseError(ExampleOf(Entry("k", BytesFeature(VarintField(1, 1))))) ==
        "wrong wire type 0 for field BytesList.value at byte 11");
  CHECK(ParseError(ExampleOf(Entry("k", FloatFeature(Ld(1, "abc"))))) ==
        "packed FloatList.value of 3 bytes (not a multiple of 4) at byte 13");
  CHECK(ParseError(ExampleOf(Entry("k", Int64Feature(Ld(1, "\x01\x80"))))) ==
        "malformed varint in packed Int64List.value at byte 14");
  CHECK(ParseError(ExampleOf(Entry("k", Int64Feature(Ld(1, std::string(11, '\x80') + "\x01"))))) ==
        "malformed varint in packed Int64List.value at byte 13");
  CHECK(ParseError(ExampleOf(Entry("k", FloatFeature(Tag(1, 5) + "ab")))) ==
        "fixed32 value past the end of the message at byte 12");
  CHECK(ParseError(ExampleOf(Entry("k", BytesFeature(Ld(1, "x").substr(0, 2))))) ==
        "length 1 past the end of the message at byte 12");
  CHECK(ParseError(ExampleOf(Entry("k", BytesFeature(Tag(3, 3))))) ==
        "wire type 3 (group) is not supported at byte 11");
}

// A feature from a successful Parse can be counted and walked, with the same number of values.
void CheckWalks(const FeatureView& f) {
  size_t count;
  CHECK(f.CountValues(&count).ok());
  std::vector<int64_t> i64;
  std::vector<float> f32;
  std::vector<std::string_view> b;
  switch (f.kind()) {
    case FeatureKind::kInt64: CHECK(f.AppendInt64s(&i64).ok()); CHECK(i64.size() == count); break;
    case FeatureKind::kFloat: CHECK(f.AppendFloats(&f32).ok()); CHECK(f32.size() == count); break;
    case FeatureKind::kBytes: CHECK(f.AppendBytes(&b).ok()); CHECK(b.size() == count); break;
    case FeatureKind::kNone: CHECK(count == 0); break;
  }
}

TEST_CASE("every truncation and every single-byte change of a record fails cleanly or parses") {
  const std::string record =
      ExampleOf(Entry("ints", Int64Feature(PackedInt64s({1, -5, 1 << 20}))) +
                Entry("floats", FloatFeature(PackedFloats({0.5f, 2.0f}) + Fixed32Field(1, 3.0f))) +
                Entry("bytes", BytesFeature(Ld(1, "hello") + Ld(1, ""))) + Entry("none", ""));
  ExampleView view;
  REQUIRE(view.Parse(record).ok());
  for (size_t n = 0; n < record.size(); ++n) {
    Status s = view.Parse(std::string_view(record).substr(0, n));
    if (!s.ok()) CHECK(s.code() == StatusCode::kCorruption);
  }
  for (size_t i = 0; i < record.size(); ++i) {
    for (int delta : {1, 0x40, 0x80, 0xff}) {
      std::string edited = record;
      edited[i] = static_cast<char>(edited[i] + delta);
      Status s = view.Parse(edited);
      if (!s.ok()) {
        CHECK(s.code() == StatusCode::kCorruption);
        continue;
      }
      // Whatever parsed can be walked without errors.
      for (const auto& e : view.features().entries()) {
        CheckWalks(e.feature);
      }
    }
  }
}

TEST_CASE("the same for a SequenceExample, including merged lists") {
  const std::string steps = Ld(1, Int64Feature(PackedInt64s({1, 2})) + Int64Feature(VarintField(1, 3))) +
                            Ld(1, "") + Ld(1, FloatFeature(PackedFloats({1.0f})));
  const std::string record = Ld(1, Entry("c", BytesFeature(Ld(1, "v")))) +
                             Ld(2, Ld(1, Ld(1, "k") + Ld(2, steps) + Ld(2, steps)));
  SequenceExampleView view;
  REQUIRE(view.Parse(record).ok());
  REQUIRE(view.feature_lists().size() == 1);
  CHECK(view.feature_lists()[0].steps.size() == 6);
  CHECK(Int64s(view.feature_lists()[0].steps[0]) == std::vector<int64_t>{1, 2, 3});
  for (size_t i = 0; i < record.size(); ++i) {
    Status s = view.Parse(std::string_view(record).substr(0, i));
    if (!s.ok()) CHECK(s.code() == StatusCode::kCorruption);
    for (int delta : {1, 0x40, 0x80, 0xff}) {
      std::string edited = record;
      edited[i] = static_cast<char>(edited[i] + delta);
      s = view.Parse(edited);
      if (!s.ok()) {
        CHECK(s.code() == StatusCode::kCorruption);
        continue;
      }
      for (const auto& e : view.context().entries()) CheckWalks(e.feature);
      for (const auto& list : view.feature_lists()) {
        for (const FeatureView& step : list.steps) CheckWalks(step);
      }
    }
  }
}

TEST_CASE("ForEach on a hand-built malformed FeatureView reports the corruption") {
  const std::string list = Ld(1, "\x80");
  FeatureView bad(FeatureKind::kInt64, list);
  std::vector<int64_t> values;
  Status s = bad.AppendInt64s(&values);
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(s.message() == "malformed varint in packed Int64List.value at byte 2");
  size_t count;
  CHECK(FeatureView(FeatureKind::kFloat, Ld(1, "abcde")).CountValues(&count).code() == StatusCode::kCorruption);
  CHECK(FeatureView(FeatureKind::kBytes, "\x0a\x05").CountValues(&count).code() == StatusCode::kCorruption);
}

}  // namespace
}  // namespace tfq
