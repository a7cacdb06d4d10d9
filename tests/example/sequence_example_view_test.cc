// SequenceExampleView on hand-built wire bytes.
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

std::string FeatureListEntry(std::string_view key, std::string_view feature_list) {
  return Ld(1, Ld(1, key) + Ld(2, feature_list));
}

TEST_CASE("a SequenceExample: context, feature lists, steps of every kind") {
  const std::string context = Entry("len", Int64Feature(PackedInt64s({2})));
  const std::string steps = Ld(1, BytesFeature(Ld(1, "x"))) + Ld(1, "") + Ld(1, FloatFeature(PackedFloats({1.0f})));
  const std::string record = Ld(1, context) + Ld(2, FeatureListEntry("tokens", steps) + FeatureListEntry("empty", ""));
  SequenceExampleView view;
  REQUIRE(view.Parse(record).ok());
  CHECK(view.has_context());
  CHECK(view.has_feature_lists());
  CHECK(Int64s(*view.context().Find("len")) == std::vector<int64_t>{2});
  REQUIRE(view.feature_lists().size() == 2);
  const auto& tokens = view.feature_lists()[0];
  CHECK(tokens.key == "tokens");
  REQUIRE(tokens.steps.size() == 3);
  CHECK(Bytes(tokens.steps[0]) == std::vector<std::string_view>{"x"});
  CHECK(tokens.steps[1].kind() == FeatureKind::kNone);
  CHECK(Floats(tokens.steps[2]) == std::vector<float>{1.0f});
  CHECK(view.feature_lists()[1].key == "empty");
  CHECK(view.feature_lists()[1].steps.empty());
}

TEST_CASE("SequenceExample presence and merging") {
  SequenceExampleView view;
  REQUIRE(view.Parse("").ok());
  CHECK_FALSE(view.has_context());
  CHECK_FALSE(view.has_feature_lists());
  REQUIRE(view.Parse(Keep(Ld(2, "") + Ld(1, ""))).ok());
  CHECK(view.has_context());
  CHECK(view.has_feature_lists());
  CHECK(view.feature_lists().empty());

  const std::string one = Ld(1, Int64Feature(PackedInt64s({1})));
  const std::string two = Ld(1, Int64Feature(PackedInt64s({2})));
  // Duplicate key: the last FeatureList wins; a value seen twice in one entry: steps concatenate;
  // two feature_lists fields: their maps merge; context twice: entries merge.
  const std::string record =
      Ld(2, FeatureListEntry("a", one) + FeatureListEntry("b", one)) +
      Ld(1, Entry("c1", "")) +
      Ld(2, FeatureListEntry("a", two) + Ld(1, Ld(1, "b") + Ld(2, one) + Ld(2, two))) +
      Ld(1, Entry("c2", ""));
  for (int pass = 0; pass < 2; ++pass) {  // the second pass recycles the step vectors
    REQUIRE(view.Parse(record).ok());
    CHECK(Keys(view.context()) == std::vector<std::string_view>{"c1", "c2"});
    REQUIRE(view.feature_lists().size() == 2);
    CHECK(view.feature_lists()[0].key == "a");
    REQUIRE(view.feature_lists()[0].steps.size() == 1);
    CHECK(Int64s(view.feature_lists()[0].steps[0]) == std::vector<int64_t>{2});
    CHECK(view.feature_lists()[1].key == "b");
    REQUIRE(view.feature_lists()[1].steps.size() == 2);
    CHECK(Int64s(view.feature_lists()[1].steps[1]) == std::vector<int64_t>{2});
  }
}

TEST_CASE("SequenceExample corruption") {
  SequenceExampleView view;
  Status s = view.Parse("\x12\x02\x08\x01");
  CHECK(s.message() == "wrong wire type 0 for field FeatureLists.feature_list at byte 2");
  s = view.Parse("\x10\x01");
  CHECK(s.message() == "wrong wire type 0 for field SequenceExample.feature_lists at byte 0");
  s = view.Parse(Keep(Ld(2, Ld(1, Ld(2, VarintField(1, 3))))));
  CHECK(s.message() == "wrong wire type 0 for field FeatureList.feature at byte 6");
  s = view.Parse(Keep(Ld(2, Ld(1, Ld(2, Ld(1, FloatFeature(Ld(1, "ab"))))))));
  CHECK(s.message() == "packed FloatList.value of 2 bytes (not a multiple of 4) at byte 12");
  s = view.Parse(Keep(Ld(2, Ld(1, VarintField(1, 3)))));
  CHECK(s.message() == "wrong wire type 0 for field FeatureLists.FeatureListEntry.key at byte 4");
  CHECK(s.code() == StatusCode::kCorruption);
  // After a failure the view is usable again.
  REQUIRE(view.Parse(Keep(Ld(2, FeatureListEntry("k", "")))).ok());
  CHECK(view.feature_lists().size() == 1);
}

}  // namespace
}  // namespace tfq
