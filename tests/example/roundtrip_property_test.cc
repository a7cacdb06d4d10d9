// Properties of the codec on seeded random messages (random_examples.h: empty and non-ASCII keys,
// all three kinds, empty lists, kind-less Features, NaN/inf/-0, int64 extremes), checked as bytes:
//  - encode -> decode -> encode gives the same bytes, NaN payloads included;
//  - each JSON form, read back the way `tfq convert x.jsonl` reads it (ordered_json, so entries
//    keep the line's order), encodes to the same bytes: exactly for proto-json, and for flat up
//    to its documented losses (docs/json-forms.md).
// json_forms_test.cc checks the same round trips as values through nlohmann::json (sorted keys);
// these pin the byte-identical path that JSON lines depend on.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "example/example.h"
#include "example/example_view.h"
#include "example/json_forms.h"
#include "random_examples.h"

namespace tfq {
namespace {

using testing::FlatImage;
using testing::Serialize;

constexpr int kCases = 1000;



// The bytes an Example reads back as after a trip through `form`.
std::string ExpectedAfterJson(Example e, JsonForm form) {
  if (form == JsonForm::kFlat) {
    for (auto& [key, f] : e.features) f = FlatImage(f);
    e.has_features = !e.features.empty();
  }
  return Serialize(e);
}
std::string ExpectedAfterJson(SequenceExample s, JsonForm form) {
  if (form == JsonForm::kFlat) {
    for (auto& [key, f] : s.context) f = FlatImage(f);
    for (auto& [key, steps] : s.feature_lists) {
      for (Feature& f : steps) f = FlatImage(f);
    }
    s.has_context = s.has_feature_lists = true;
  }
  return Serialize(s);
}

TEST_CASE("property: encode -> decode -> encode is the identity on bytes") {
  testing::RandomExamples random(0x5eed0001, {.nan = true, .utf8_keys = false});
  ExampleView view;
  SequenceExampleView sequence_view;
  for (int i = 0; i < kCases; ++i) {
    const std::string bytes = Serialize(random.NextExample());
    REQUIRE(view.Parse(bytes).ok());
    Example decoded;
    REQUIRE(ToExample(view, &decoded).ok());
    REQUIRE(Serialize(decoded) == bytes);

    const std::string sequence_bytes = Serialize(random.NextSequenceExample());
    REQUIRE(sequence_view.Parse(sequence_bytes).ok());
    SequenceExample sequence;
    REQUIRE(ToSequenceExample(sequence_view, &sequence).ok());
    REQUIRE(Serialize(sequence) == sequence_bytes);
  }
}

TEST_CASE("property: both JSON forms read back (in line order) to the same bytes") {
  testing::RandomExamples random(0x5eed0002, {.nan = true, .utf8_keys = true});
  ExampleView view;
  SequenceExampleView sequence_view;
  for (int i = 0; i < kCases; ++i) {
    const Example example = random.NextExample();
    const SequenceExample sequence = random.NextSequenceExample();
    const std::string bytes = Serialize(example);
    const std::string sequence_bytes = Serialize(sequence);
    REQUIRE(view.Parse(bytes).ok());
    REQUIRE(sequence_view.Parse(sequence_bytes).ok());
    for (JsonForm form : {JsonForm::kProtoJson, JsonForm::kFlat}) {
      std::string json;
      AppendExampleJson(view, form, &json);
      Example back;
      Status s = ExampleFromJson(nlohmann::ordered_json::parse(json), &back);
      REQUIRE_MESSAGE(s.ok(), json, "\n", s.ToString());
      REQUIRE_MESSAGE(Serialize(back) == ExpectedAfterJson(example, form), json);

      json.clear();
      AppendSequenceExampleJson(sequence_view, form, &json);
      SequenceExample sequence_back;
      s = SequenceExampleFromJson(nlohmann::ordered_json::parse(json), &sequence_back);
      REQUIRE_MESSAGE(s.ok(), json, "\n", s.ToString());
      REQUIRE_MESSAGE(Serialize(sequence_back) == ExpectedAfterJson(sequence, form), json);
    }
  }
}

}  // namespace
}  // namespace tfq
