// The JSON writers: exact proto-json against protobuf's MessageToJson, the flat form, and
// write -> parse -> equal round trips of both forms on seeded random messages.
#include "example/json_forms.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include "random_examples.h"

namespace tfq {
namespace {

using testing::Serialize;
using testing::FlatImage;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();


std::string ToJson(const Example& e, JsonForm form) {
  const std::string bytes = Serialize(e);
  ExampleView view;
  REQUIRE(view.Parse(bytes).ok());
  std::string out;
  AppendExampleJson(view, form, &out);
  return out;
}
std::string ToJson(const SequenceExample& s, JsonForm form) {
  const std::string bytes = Serialize(s);
  SequenceExampleView view;
  REQUIRE(view.Parse(bytes).ok());
  std::string out;
  AppendSequenceExampleJson(view, form, &out);
  return out;
}

Example KitchenSink() {
  Example e;
  e.features = {
      {"i", Feature::Int64s({1, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()})},
      {"f", Feature::Floats({0.1f, kNaN, kInf, -kInf, 1.0f, -0.0f, 1e20f, 1.4e-45f,
                             std::numeric_limits<float>::max(), 33871888.0f})},
      {"b", Feature::Bytes({"", "hi", "\xff", "\xe6\x97\xa5\xe6\x9c\xac"})},
      {"none", Feature()},
      {"ei", Feature::Int64s({})},
      {"ef", Feature::Floats({})},
      {"eb", Feature::Bytes({})},
      {"\xd0\xba\xd0\xbb\xd1\x8e\xd1\x87 \"q\"", Feature::Bytes({"x"})},
  };
  return e;
}

TEST_CASE("proto-json is what protobuf's MessageToJson prints") {
  // Python (python3-protobuf 3.21, classes from tfq_example.proto), the same message:
  //   json_format.MessageToJson(e, indent=None, ensure_ascii=False)
  const char* python =
      R"({"features": {"feature": {"ei": {"int64List": {}}, "f": {"floatList": {"value": [0.1, "NaN", )"
      R"("Infinity", "-Infinity", 1.0, -0.0, 1e+20, 1.4013e-45, 3.4028235e+38, 33871890.0]}}, "eb": )"
      R"({"bytesList": {}}, "ef": {"floatList": {}}, "ключ \"q\"": {"bytesList": {"value": ["eA=="]}}, )"
      R"("i": {"int64List": {"value": ["1", "-9223372036854775808", "9223372036854775807"]}}, "none": {}, )"
      R"("b": {"bytesList": {"value": ["", "aGk=", "/w==", "5pel5pys"]}}}}})";
  const std::string ours = ToJson(KitchenSink(), JsonForm::kProtoJson);
  CHECK(nlohmann::json::parse(ours) == nlohmann::json::parse(python));
  // Our text: entries in wire order, no spaces, numbers printed as Python prints them.
  CHECK(ours ==
        R"({"features":{"feature":{"i":{"int64List":{"value":["1","-9223372036854775808","9223372036854775807"]}},)"
        R"("f":{"floatList":{"value":[0.1,"NaN","Infinity","-Infinity",1.0,-0.0,1e+20,1.4013e-45,3.4028235e+38,)"
        R"(33871890.0]}},"b":{"bytesList":{"value":["","aGk=","/w==","5pel5pys"]}},"none":{},"ei":{"int64List":{}},)"
        R"("ef":{"floatList":{}},"eb":{"bytesList":{}},"ключ \"q\"":{"bytesList":{"value":["eA=="]}}}}})");
}

TEST_CASE("proto-json presence: absent fields omitted, present-but-empty as {}") {
  Example none;
  none.has_features = false;
  CHECK(ToJson(none, JsonForm::kProtoJson) == "{}");            // MessageToJson(pb.Example())
  CHECK(ToJson(Example(), JsonForm::kProtoJson) == R"({"features":{}})");
  SequenceExample s;  // s.context.SetInParent(); fl["a"]: [int64 5, {}]; fl["empty"].SetInParent()
  s.feature_lists = {{"a", {Feature::Int64s({5}), Feature()}}, {"empty", {}}};
  CHECK(ToJson(s, JsonForm::kProtoJson) ==
        R"({"context":{},"featureLists":{"featureList":{"a":{"feature":[{"int64List":{"value":["5"]}},{}]},"empty":{}}}})");
  SequenceExample lists_only;
  lists_only.has_context = false;
  CHECK(ToJson(lists_only, JsonForm::kProtoJson) == R"({"featureLists":{}})");
  SequenceExample nothing;
  nothing.has_context = nothing.has_feature_lists = false;
  CHECK(ToJson(nothing, JsonForm::kProtoJson) == "{}");
}

TEST_CASE("the flat form") {
  CHECK(ToJson(KitchenSink(), JsonForm::kFlat) ==
        R"({"i":[1,-9223372036854775808,9223372036854775807],)"
        R"("f":[0.1,"NaN","Infinity","-Infinity",1.0,-0.0,1e+20,1.4013e-45,3.4028235e+38,33871890.0],)"
        R"("b":["","hi",{"base64":"/w=="},"日本"],"none":[],"ei":{"int64":[]},"ef":{"float":[]},"eb":[],)"
        R"("ключ \"q\"":["x"]})");
  Example escapes;
  escapes.features = {{"k\n", Feature::Bytes({std::string("tab\t\"\\\x01\x7f", 8)})}};
  CHECK(ToJson(escapes, JsonForm::kFlat) == R"({"k\n":["tab\t\"\\\u0001)" "\x7f" R"("]})");
  SequenceExample s;
  s.has_context = false;
  s.feature_lists = {{"a", {Feature::Int64s({5}), Feature(), Feature::Floats({2.0f})}}};
  CHECK(ToJson(s, JsonForm::kFlat) == R"({"context":{},"feature_lists":{"a":[[5],[],[2.0]]}})");
}

TEST_CASE("keys that are not UTF-8 print with U+FFFD, so the output is always valid JSON") {
  Example e;
  e.features = {{"a\xff" "b", Feature::Int64s({1})}};
  CHECK(ToJson(e, JsonForm::kFlat) == "{\"a\xef\xbf\xbd" "b\":[1]}");
  CHECK(nlohmann::json::parse(ToJson(e, JsonForm::kProtoJson)).is_object());
}

TEST_CASE("flat: a typed list where the values alone would not say the kind") {
  Example e;
  e.features = {{"ei", Feature::Int64s({})}, {"ef", Feature::Floats({})}, {"nan", Feature::Floats({kNaN, -kInf})},
                {"mixed", Feature::Floats({kNaN, 1.0f})}, {"eb", Feature::Bytes({})}};
  const std::string json = ToJson(e, JsonForm::kFlat);
  CHECK(json == R"({"ei":{"int64":[]},"ef":{"float":[]},"nan":{"float":["NaN","-Infinity"]},)"
                R"("mixed":["NaN",1.0],"eb":[]})");
  Example back;
  REQUIRE(ExampleFromJson(nlohmann::ordered_json::parse(json), &back).ok());
  CHECK(Serialize(back) == Serialize(e));
}

TEST_CASE("keys that print as one JSON key are refused before writing") {
  Example e;
  e.features = {{"a\xff", Feature::Int64s({1})}, {"b", Feature::Int64s({2})}, {"a\xfe", Feature::Int64s({3})}};
  const std::string bytes = Serialize(e);
  ExampleView view;
  REQUIRE(view.Parse(bytes).ok());
  Status s = CheckJsonKeysDistinct(view);
  CHECK(s.code() == StatusCode::kInvalidData);
  CHECK(s.message() == "feature keys \"a\\xff\" and \"a\\xfe\" both print as the JSON key \"a\xef\xbf\xbd\" "
                       "(bytes that are not UTF-8 print as U+FFFD), so one would be lost; rename the keys, or "
                       "keep the data as TFRecord");
  // A key with U+FFFD itself collides with one whose bad byte prints as U+FFFD.
  e.features = {{"a\xef\xbf\xbd", Feature::Int64s({1})}, {"a\x80", Feature::Int64s({2})}};
  const std::string bytes2 = Serialize(e);
  REQUIRE(view.Parse(bytes2).ok());
  CHECK(CheckJsonKeysDistinct(view).code() == StatusCode::kInvalidData);
  // Distinct after printing: fine, UTF-8 or not.
  e.features = {{"a\xff", Feature::Int64s({1})}, {"b\xff", Feature::Int64s({2})}, {"日本", Feature::Int64s({3})}};
  const std::string bytes3 = Serialize(e);
  REQUIRE(view.Parse(bytes3).ok());
  CHECK(CheckJsonKeysDistinct(view).ok());
  SequenceExample seq;
  seq.feature_lists = {{"t\xff", {}}, {"t\xfe", {}}};
  const std::string bytes4 = Serialize(seq);
  SequenceExampleView seq_view;
  REQUIRE(seq_view.Parse(bytes4).ok());
  CHECK(CheckJsonKeysDistinct(seq_view).message().rfind("feature list keys", 0) == 0);
}

TEST_CASE("ParseJsonForm") {
  CHECK(ParseJsonForm("proto-json").value() == JsonForm::kProtoJson);
  CHECK(ParseJsonForm("flat").value() == JsonForm::kFlat);
  auto bad = ParseJsonForm("yaml");
  CHECK(bad.status().code() == StatusCode::kInvalidArgument);
  CHECK(bad.status().message() == "unknown JSON form \"yaml\" (expected proto-json or flat)");
}

// --- round trips -------------------------------------------------------------------------------

// nlohmann::json objects iterate in key order, so entries read back sorted by key.
template <typename Map>
void SortEntries(Map* map) {
  std::sort(map->begin(), map->end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

// The same message with floats compared bit for bit (NaN == NaN).
bool SameBits(const Example& a, const Example& b) { return Serialize(a) == Serialize(b); }
bool SameBits(const SequenceExample& a, const SequenceExample& b) { return Serialize(a) == Serialize(b); }


TEST_CASE("proto-json round trips exactly: write -> parse -> equal") {
  testing::RandomExamples random(1234, {.nan = true, .utf8_keys = true});
  for (int i = 0; i < 1000; ++i) {
    Example x = random.NextExample();
    Example y;
    const std::string json = ToJson(x, JsonForm::kProtoJson);
    Status s = ExampleFromJson(nlohmann::json::parse(json), &y);
    REQUIRE_MESSAGE(s.ok(), s.message());
    SortEntries(&x.features);
    CHECK_MESSAGE(SameBits(x, y), json);
  }
  for (int i = 0; i < 500; ++i) {
    SequenceExample x = random.NextSequenceExample();
    SequenceExample y;
    const std::string json = ToJson(x, JsonForm::kProtoJson);
    Status s = SequenceExampleFromJson(nlohmann::json::parse(json), &y);
    REQUIRE_MESSAGE(s.ok(), s.message());
    SortEntries(&x.context);
    SortEntries(&x.feature_lists);
    CHECK_MESSAGE(SameBits(x, y), json);
  }
}

TEST_CASE("flat round trips keep everything but the documented losses") {
  testing::RandomExamples random(4321, {.nan = true, .utf8_keys = true});
  for (int i = 0; i < 1000; ++i) {
    Example x = random.NextExample();
    const std::string json = ToJson(x, JsonForm::kFlat);
    Example y;
    Status s = ExampleFromJson(nlohmann::json::parse(json), &y);
    REQUIRE_MESSAGE(s.ok(), s.message());
    SortEntries(&x.features);
    for (auto& [key, f] : x.features) f = FlatImage(f);
    x.has_features = !x.features.empty();  // {} reads back as an Example without features
    CHECK_MESSAGE(SameBits(x, y), json);
  }
  for (int i = 0; i < 500; ++i) {
    SequenceExample x = random.NextSequenceExample();
    const std::string json = ToJson(x, JsonForm::kFlat);
    SequenceExample y;
    Status s = SequenceExampleFromJson(nlohmann::json::parse(json), &y);
    REQUIRE_MESSAGE(s.ok(), s.message());
    SortEntries(&x.context);
    SortEntries(&x.feature_lists);
    for (auto& [key, f] : x.context) f = FlatImage(f);
    for (auto& [key, steps] : x.feature_lists) {
      for (Feature& f : steps) f = FlatImage(f);
    }
    x.has_context = x.has_feature_lists = true;  // flat always prints both
    CHECK_MESSAGE(SameBits(x, y), json);
  }
}

TEST_CASE("round trips of the values that are hard to print") {
  Example x;
  x.features = {
      {"bytes", Feature::Bytes({"", std::string("\0", 1), "\xff\xfe", "\xc3", "caf\xc3\xa9", "\xf0\x9f\x98\x80",
                                "\xed\xa0\x80", "NaN", "{\"base64\":\"AA==\"}"})},
      {"floats", Feature::Floats({kNaN, kInf, -kInf, -0.0f, 1e-45f, std::numeric_limits<float>::max(),
                                  std::numeric_limits<float>::min(), 0.1f, 16777217.0f,
                                  std::bit_cast<float>(uint32_t{0x15ae43fd}),
                                  std::bit_cast<float>(uint32_t{0x15ae43fe})})},
      {"ints", Feature::Int64s({std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 0, -1})},
  };
  for (JsonForm form : {JsonForm::kProtoJson, JsonForm::kFlat}) {
    CAPTURE(static_cast<int>(form));
    const std::string json = ToJson(x, form);
    Example y;
    REQUIRE(ExampleFromJson(nlohmann::json::parse(json), &y).ok());
    CHECK_MESSAGE(SameBits(x, y), json);
  }
}

}  // namespace
}  // namespace tfq
