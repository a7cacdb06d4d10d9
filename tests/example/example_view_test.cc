// The lazy decoder on hand-built wire bytes: one test per protobuf rule.
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

TEST_CASE("packed, unpacked and mixed lists decode to the same values") {
  const std::string packed = Int64Feature(PackedInt64s({1, -1, 300}));
  const std::string unpacked = Int64Feature(VarintField(1, 1) + VarintField(1, static_cast<uint64_t>(-1)) +
                                            VarintField(1, 300));
  const std::string mixed = Int64Feature(PackedInt64s({1}) + VarintField(1, static_cast<uint64_t>(-1)) +
                                         PackedInt64s({300}));
  for (const std::string& feature : {packed, unpacked, mixed}) {
    ExampleView view;
    REQUIRE(view.Parse(Keep(ExampleOf(Entry("x", feature)))).ok());
    const FeatureView* f = view.features().Find("x");
    REQUIRE(f != nullptr);
    CHECK(f->kind() == FeatureKind::kInt64);
    CHECK(Int64s(*f) == std::vector<int64_t>{1, -1, 300});
    CHECK(Count(*f) == 3);
  }
  const std::string fpacked = FloatFeature(PackedFloats({0.5f, -2.0f}));
  const std::string funpacked = FloatFeature(Fixed32Field(1, 0.5f) + Fixed32Field(1, -2.0f));
  const std::string fmixed = FloatFeature(Fixed32Field(1, 0.5f) + PackedFloats({}) + PackedFloats({-2.0f}));
  for (const std::string& feature : {fpacked, funpacked, fmixed}) {
    ExampleView view;
    REQUIRE(view.Parse(Keep(ExampleOf(Entry("y", feature)))).ok());
    const FeatureView& f = view.features().entries()[0].feature;
    CHECK(f.kind() == FeatureKind::kFloat);
    CHECK(Floats(f) == std::vector<float>{0.5f, -2.0f});
    CHECK(Count(f) == 2);
  }
}

TEST_CASE("a single packed float run is a view into the record, counted in O(1)") {
  const std::string record = ExampleOf(Entry("f", FloatFeature(PackedFloats({1.0f, 2.0f, 3.0f}))));
  ExampleView view;
  REQUIRE(view.Parse(record).ok());
  const FeatureView& f = view.features().entries()[0].feature;
  std::string_view raw;
  REQUIRE(f.PackedFloats(&raw));
  CHECK(raw.size() == 12);
  CHECK(raw.data() >= record.data());
  CHECK(raw.data() + raw.size() <= record.data() + record.size());  // no copy
  CHECK(Count(f) == 3);
  // Not one packed run: no view, ForEachFloat still works.
  ExampleView unpacked;
  REQUIRE(unpacked.Parse(Keep(ExampleOf(Entry("f", FloatFeature(Fixed32Field(1, 1.0f)))))).ok());
  CHECK_FALSE(unpacked.features().entries()[0].feature.PackedFloats(&raw));
}

TEST_CASE("bytes lists keep empty values and arbitrary bytes") {
  const std::string nul("a\0b", 3);
  ExampleView view;
  REQUIRE(view.Parse(Keep(ExampleOf(Entry("b", BytesFeature(Ld(1, "") + Ld(1, nul) + Ld(1, "\xff")))))).ok());
  const FeatureView& f = view.features().entries()[0].feature;
  CHECK(Bytes(f) == std::vector<std::string_view>{"", nul, "\xff"});
  CHECK(Count(f) == 3);
}

TEST_CASE("fields in any order and unknown fields of every wire type are skipped, at every level") {
  const std::string unknown = VarintField(9, 12345) + Fixed64Field(10, 7) + Ld(11, "junk") +
                              Fixed32Field(12, 1.0f) + Tag(1000000, 0) + Varint(1);
  const std::string list = unknown + PackedInt64s({5}) + unknown + VarintField(1, 6);
  const std::string feature = unknown + Int64Feature(list) + unknown;
  // Map entry with value before key, unknown fields around.
  const std::string entry = Ld(1, unknown + Ld(2, feature) + unknown + Ld(1, "k") + unknown);
  const std::string record = unknown + Ld(1, unknown + entry + unknown) + unknown;
  ExampleView view;
  REQUIRE(view.Parse(record).ok());
  CHECK(view.has_features());
  REQUIRE(view.features().size() == 1);
  CHECK(view.features().entries()[0].key == "k");
  CHECK(Int64s(view.features().entries()[0].feature) == std::vector<int64_t>{5, 6});

  // Unknown fields inside float and bytes lists too.
  REQUIRE(view.Parse(Keep(ExampleOf(Entry("f", FloatFeature(unknown + PackedFloats({1.5f}) + unknown)) +
                               Entry("b", BytesFeature(unknown + Ld(1, "v") + unknown))))).ok());
  CHECK(Floats(view.features().entries()[0].feature) == std::vector<float>{1.5f});
  CHECK(Bytes(view.features().entries()[1].feature) == std::vector<std::string_view>{"v"});
}

TEST_CASE("the last of duplicate keys wins, in order of first appearance") {
  const std::string record = ExampleOf(Entry("a", Int64Feature(PackedInt64s({1}))) +
                                       Entry("b", Int64Feature(PackedInt64s({2}))) +
                                       Entry("a", FloatFeature(PackedFloats({3.0f}))));
  ExampleView view;
  REQUIRE(view.Parse(record).ok());
  CHECK(Keys(view.features()) == std::vector<std::string_view>{"a", "b"});
  const FeatureView* a = view.features().Find("a");
  REQUIRE(a != nullptr);
  CHECK(a->kind() == FeatureKind::kFloat);
  CHECK(Floats(*a) == std::vector<float>{3.0f});
  CHECK(view.features().Find("c") == nullptr);
}

TEST_CASE("many keys with duplicates (the hashed index) keep protobuf's map semantics") {
  std::string features;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 100; ++i) {
      features += Entry("key" + std::to_string(i), Int64Feature(PackedInt64s({round * 1000 + i})));
    }
  }
  ExampleView view;
  for (int pass = 0; pass < 2; ++pass) {  // the second pass reuses the index
    REQUIRE(view.Parse(Keep(ExampleOf(features))).ok());
    REQUIRE(view.features().size() == 100);
    for (int i = 0; i < 100; ++i) {
      CHECK(view.features().entries()[i].key == "key" + std::to_string(i));
      const FeatureView* f = view.features().Find("key" + std::to_string(i));
      REQUIRE(f != nullptr);
      CHECK(Int64s(*f) == std::vector<int64_t>{2000 + i});
    }
  }
}

TEST_CASE("presence: no features field, empty features, empty record") {
  ExampleView view;
  REQUIRE(view.Parse("").ok());
  CHECK_FALSE(view.has_features());
  CHECK(view.features().size() == 0);
  REQUIRE(view.Parse(Keep(ExampleOf(""))).ok());
  CHECK(view.has_features());
  CHECK(view.features().size() == 0);
  REQUIRE(view.Parse(Keep(VarintField(7, 1))).ok());  // only an unknown field
  CHECK_FALSE(view.has_features());
}

TEST_CASE("a Feature with no kind, and map entries without key or value") {
  const std::string record = ExampleOf(Entry("none", "") +                     // Feature {}
                                       Ld(1, Ld(2, Int64Feature(PackedInt64s({4})))) +  // no key
                                       Ld(1, Ld(1, "novalue")) +               // no value
                                       Ld(1, ""));                             // neither
  ExampleView view;
  REQUIRE(view.Parse(record).ok());
  // The entry without key has key "" and the last entry (also key "") replaces its value.
  CHECK(Keys(view.features()) == std::vector<std::string_view>{"none", "", "novalue"});
  for (const auto& e : view.features().entries()) {
    CHECK(e.feature.kind() == FeatureKind::kNone);
    CHECK(Count(e.feature) == 0);
    // A kind-less feature has no values whichever kind is asked for.
    CHECK(Int64s(e.feature).empty());
    CHECK(Floats(e.feature).empty());
    CHECK(Bytes(e.feature).empty());
  }
}

TEST_CASE("empty lists keep their kind") {
  ExampleView view;
  REQUIRE(view.Parse(Keep(ExampleOf(Entry("i", Int64Feature("")) + Entry("f", FloatFeature("")) +
                               Entry("b", BytesFeature(""))))).ok());
  const auto& e = view.features().entries();
  CHECK(e[0].feature.kind() == FeatureKind::kInt64);
  CHECK(e[1].feature.kind() == FeatureKind::kFloat);
  CHECK(e[2].feature.kind() == FeatureKind::kBytes);
  for (const auto& entry : e) CHECK(Count(entry.feature) == 0);
}

TEST_CASE("repeated message fields merge as protobuf merges them") {
  SUBCASE("two features fields: map entries of both, duplicate keys replaced") {
    const std::string record = ExampleOf(Entry("a", Int64Feature(PackedInt64s({1})))) +
                               ExampleOf(Entry("b", Int64Feature(PackedInt64s({2}))) +
                                         Entry("a", Int64Feature(PackedInt64s({3}))));
    ExampleView view;
    REQUIRE(view.Parse(record).ok());
    CHECK(Keys(view.features()) == std::vector<std::string_view>{"a", "b"});
    CHECK(Int64s(*view.features().Find("a")) == std::vector<int64_t>{3});
  }
  SUBCASE("the same list kind twice in a Feature: the lists concatenate") {
    const std::string feature = FloatFeature(PackedFloats({1.0f})) + VarintField(9, 0) +
                                FloatFeature(PackedFloats({2.0f}) + Fixed32Field(1, 3.0f));
    ExampleView view;
    REQUIRE(view.Parse(Keep(ExampleOf(Entry("f", feature)))).ok());
    const FeatureView& f = view.features().entries()[0].feature;
    CHECK(Floats(f) == std::vector<float>{1.0f, 2.0f, 3.0f});
    CHECK(Count(f) == 3);
  }
  SUBCASE("another list kind replaces the oneof: the last kind wins") {
    const std::string feature = FloatFeature(PackedFloats({1.0f})) + BytesFeature(Ld(1, "x")) +
                                FloatFeature(PackedFloats({2.0f}));
    ExampleView view;
    REQUIRE(view.Parse(Keep(ExampleOf(Entry("f", feature)))).ok());
    CHECK(Floats(view.features().entries()[0].feature) == std::vector<float>{2.0f});
  }
  SUBCASE("a map entry's value twice: the Features merge") {
    const std::string entry = Ld(1, Ld(1, "k") + Ld(2, Int64Feature(PackedInt64s({1}))) +
                                        Ld(2, Int64Feature(PackedInt64s({2}))));
    ExampleView view;
    REQUIRE(view.Parse(Keep(ExampleOf(entry))).ok());
    CHECK(Int64s(view.features().entries()[0].feature) == std::vector<int64_t>{1, 2});
    const std::string other_kind = Ld(1, Ld(1, "k") + Ld(2, Int64Feature(PackedInt64s({1}))) +
                                             Ld(2, BytesFeature(Ld(1, "b"))));
    REQUIRE(view.Parse(Keep(ExampleOf(other_kind))).ok());
    CHECK(Bytes(view.features().entries()[0].feature) == std::vector<std::string_view>{"b"});
  }
  SUBCASE("a map entry's key twice: the last key") {
    ExampleView view;
    REQUIRE(view.Parse(Keep(ExampleOf(Ld(1, Ld(1, "a") + Ld(2, "") + Ld(1, "b"))))).ok());
    CHECK(Keys(view.features()) == std::vector<std::string_view>{"b"});
  }
}

TEST_CASE("one view parses many records, reusing its scratch") {
  ExampleView view;
  for (int i = 0; i < 50; ++i) {
    const std::string merged = FloatFeature(PackedFloats({float(i)})) + FloatFeature(PackedFloats({1.0f}));
    const std::string record = ExampleOf(Entry("f", merged) + Entry("i", Int64Feature(PackedInt64s({i}))));
    REQUIRE(view.Parse(record).ok());
    CHECK(Floats(view.features().entries()[0].feature) == std::vector<float>{float(i), 1.0f});
    CHECK(Int64s(view.features().entries()[1].feature) == std::vector<int64_t>{i});
  }
}

TEST_CASE("int64 extremes and ten-byte varints") {
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  ExampleView view;
  REQUIRE(view.Parse(Keep(ExampleOf(Entry("x", Int64Feature(PackedInt64s({lo, hi, -1, 0})))))).ok());
  CHECK(Int64s(view.features().entries()[0].feature) == std::vector<int64_t>{lo, hi, -1, 0});
  // Like protobuf, bits past 64 in the tenth byte are dropped: 0xff x9 0x7f is -1.
  REQUIRE(view.Parse(Keep(ExampleOf(Entry("x", Int64Feature(Tag(1, 0) + std::string(9, '\xff') + "\x7f"))))).ok());
  CHECK(Int64s(view.features().entries()[0].feature) == std::vector<int64_t>{-1});
}

TEST_CASE("kind mismatches are kInvalidArgument") {
  ExampleView view;
  REQUIRE(view.Parse(Keep(ExampleOf(Entry("f", FloatFeature(PackedFloats({1.0f})))))).ok());
  std::vector<int64_t> ints;
  Status s = view.features().entries()[0].feature.AppendInt64s(&ints);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message() == "feature holds a float list, not an int64 list");
  CHECK(FeatureKindName(FeatureKind::kNone) == "none");
  CHECK(FeatureKindName(FeatureKind::kBytes) == "bytes");
}

TEST_CASE("FeaturesView parses a Features message on its own") {
  FeaturesView features;
  REQUIRE(features.Parse(Keep(Entry("a", Int64Feature(PackedInt64s({1}))))).ok());
  CHECK(features.size() == 1);
  Status s = features.Parse("\x0a\x09");
  CHECK(s.message() == "length 9 past the end of the message at byte 1");
  features.Clear();
  CHECK(features.size() == 0);
}

}  // namespace
}  // namespace tfq
