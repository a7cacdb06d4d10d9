// The JSON readers: form detection, what protobuf's JSON parser also accepts, and an error
// message for each way an object can fail to be an Example.
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include "example/json_forms.h"
#include "random_examples.h"

namespace tfq {
namespace {

using testing::FromBits;


Example ReadExample(const char* json) {
  Example e;
  Status s = ExampleFromJson(nlohmann::json::parse(json), &e);
  REQUIRE_MESSAGE(s.ok(), s.message());
  return e;
}

std::string ExampleError(const char* json) {
  Example e;
  Status s = ExampleFromJson(nlohmann::json::parse(json), &e);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == StatusCode::kInvalidData);
  return s.message();
}

std::string SequenceError(const char* json) {
  SequenceExample e;
  Status s = SequenceExampleFromJson(nlohmann::json::parse(json), &e);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == StatusCode::kInvalidData);
  return s.message();
}

TEST_CASE("the form is detected from the shape") {
  Example proto = ReadExample(R"({"features":{"feature":{"a":{"int64List":{"value":["1"]}}}}})");
  Example flat = ReadExample(R"({"a":[1]})");
  CHECK(proto == flat);
  CHECK(proto.features == FeatureMap{{"a", Feature::Int64s({1})}});
  // A flat Example may have a feature named "features": its value is an array.
  Example named = ReadExample(R"({"features":[1.5]})");
  CHECK(named.features == FeatureMap{{"features", Feature::Floats({1.5f})}});
  // {} is an Example without features; {"features":{}} has an empty map.
  CHECK_FALSE(ReadExample("{}").has_features);
  Example empty = ReadExample(R"({"features":{}})");
  CHECK(empty.has_features);
  CHECK(empty.features.empty());
}

TEST_CASE("proto-json accepts what protobuf's parser accepts") {
  Example e = ReadExample(
      R"({"features":{"feature":{)"
      R"("i":{"int64_list":{"value":[1, "-2", 3.0, "9223372036854775807"]}},)"
      R"("f":{"float_list":{"value":[1, "2.5", "NaN", "-Infinity", 1e-45, "1e-50", "-1e-400", "7.038531e-26"]}},)"
      R"("b":{"bytes_list":{"value":["-_8=", "_w", "AA=="]}},)"
      R"("n":{"int64List":null},)"
      R"("e":{"floatList":{"value":null}}}}})");
  REQUIRE(e.features.size() == 5);
  CHECK(e.features[0] == std::pair<std::string, Feature>{"b", Feature::Bytes({"\xfb\xff", "\xff", std::string(1, '\0')})});
  CHECK(e.features[1] == std::pair<std::string, Feature>{"e", Feature::Floats({})});
  const Feature& f = e.features[2].second;
  REQUIRE(f.float_list.size() == 8);
  CHECK(f.float_list[0] == 1.0f);
  CHECK(f.float_list[1] == 2.5f);
  CHECK(std::isnan(f.float_list[2]));
  CHECK(f.float_list[3] == -std::numeric_limits<float>::infinity());
  CHECK(f.float_list[4] == 1e-45f);
  CHECK(f.float_list[5] == 0.0f);  // underflow is not an error
  CHECK(f.float_list[6] == 0.0f);
  CHECK(std::signbit(f.float_list[6]));
  // Read through a double, as protobuf does: this decimal lands exactly between two floats.
  CHECK(f.float_list[7] == FromBits(0x15ae43fe));
  CHECK(e.features[3].second.int64_list == std::vector<int64_t>{1, -2, 3, std::numeric_limits<int64_t>::max()});
  CHECK(e.features[4].second.kind == FeatureKind::kNone);  // null is an unset oneof
}

TEST_CASE("SequenceExample in both forms") {
  SequenceExample proto, flat;
  REQUIRE(SequenceExampleFromJson(nlohmann::json::parse(
      R"({"context":{"feature":{"n":{"int64List":{"value":["2"]}}}},)"
      R"("featureLists":{"featureList":{"t":{"feature":[{"bytesList":{"value":["eA=="]}},{}]}}}})"), &proto).ok());
  REQUIRE(SequenceExampleFromJson(nlohmann::json::parse(
      R"({"context":{"n":[2]},"feature_lists":{"t":[["x"],[]]}})"), &flat).ok());
  CHECK(proto.context == flat.context);
  REQUIRE(proto.feature_lists.size() == 1);
  CHECK(proto.feature_lists[0].second[0] == flat.feature_lists[0].second[0]);
  CHECK(proto.feature_lists[0].second[1].kind == FeatureKind::kNone);
  CHECK(flat.feature_lists[0].second[1] == Feature::Bytes({}));  // flat: [] is an empty bytes list
  // Original field names work for proto-json too; absent members are absent.
  SequenceExample lists;
  REQUIRE(SequenceExampleFromJson(nlohmann::json::parse(R"({"feature_lists":{"feature_list":{"a":{}}}})"), &lists).ok());
  CHECK_FALSE(lists.has_context);
  CHECK(lists.has_feature_lists);
  REQUIRE(lists.feature_lists.size() == 1);
  CHECK(lists.feature_lists[0].second.empty());
  // A flat feature list may be named like a proto member: its value is an array.
  SequenceExample named;
  REQUIRE(SequenceExampleFromJson(nlohmann::json::parse(R"({"feature_lists":{"feature_list":[[1]]}})"), &named).ok());
  CHECK(named.feature_lists[0].first == "feature_list");
}

TEST_CASE("flat kinds are inferred from the values") {
  Example e = ReadExample(
      R"({"i":[1,-2],"f":[1.0,2],"nf":[1.5,"NaN","Infinity","-Infinity"],"s":["a",{"base64":"/w=="}],)"
      R"("names":["NaN"],"empty":[],"big":[9223372036854775807,-9223372036854775808]})");
  auto find = [&](const char* key) {
    for (const auto& [k, f] : e.features) if (k == key) return f;
    FAIL("no feature " << key);
    return Feature();
  };
  CHECK(find("i") == Feature::Int64s({1, -2}));
  CHECK(find("f") == Feature::Floats({1.0f, 2.0f}));
  CHECK(find("nf").kind == FeatureKind::kFloat);
  CHECK(find("s") == Feature::Bytes({"a", "\xff"}));
  CHECK(find("names") == Feature::Bytes({"NaN"}));  // the string NaN: no number says "float"
  CHECK(find("empty") == Feature::Bytes({}));
  CHECK(find("big") == Feature::Int64s({std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}));
}

TEST_CASE("flat: one value is a one-value list, booleans are int64 0/1, typed lists say the kind") {
  Example e = ReadExample(R"({"id":1,"name":"a","w":0.5,"ok":true,"no":false,"bin":{"base64":"/w=="},"nan":"NaN",)"
                          R"("flags":[true,false,2],"fb":[true,0.5],"ei":{"int64":[]},"ef":{"float":[]},)"
                          R"("eb":{"bytes":[]},"ti":{"int64":[1,true]},"tf":{"float":["NaN",2,0.5]},)"
                          R"("tb":{"bytes":["x",{"base64":"AA=="}]},"exact":[16777216,0.5,16777217.0]})");
  auto find = [&](const char* key) {
    for (const auto& [k, f] : e.features) if (k == key) return f;
    FAIL("no feature " << key);
    return Feature();
  };
  CHECK(find("id") == Feature::Int64s({1}));
  CHECK(find("name") == Feature::Bytes({"a"}));
  CHECK(find("w") == Feature::Floats({0.5f}));
  CHECK(find("ok") == Feature::Int64s({1}));
  CHECK(find("no") == Feature::Int64s({0}));
  CHECK(find("bin") == Feature::Bytes({"\xff"}));
  CHECK(find("nan") == Feature::Bytes({"NaN"}));
  CHECK(find("flags") == Feature::Int64s({1, 0, 2}));
  CHECK(find("fb") == Feature::Floats({1.0f, 0.5f}));
  CHECK(find("ei") == Feature::Int64s({}));
  CHECK(find("ef") == Feature::Floats({}));
  CHECK(find("eb") == Feature::Bytes({}));
  CHECK(find("ti") == Feature::Int64s({1, 1}));
  CHECK(find("tf").kind == FeatureKind::kFloat);
  CHECK(find("tf").float_list.size() == 3);
  CHECK(find("tb") == Feature::Bytes({"x", std::string(1, '\0')}));
  CHECK(find("exact") == Feature::Floats({16777216.0f, 0.5f, 16777216.0f}));
  // A flat feature named "features" holding a typed list is flat, not proto-json.
  CHECK(ReadExample(R"({"features":{"int64":[]}})").features[0].second == Feature::Int64s({}));
  CHECK(ReadExample(R"({"features":{"base64":"AA=="}})").features[0].second == Feature::Bytes({std::string(1, '\0')}));
  // Steps of a feature list are lists: a lone value there is an error, a typed list is fine.
  CHECK(SequenceError(R"({"feature_lists":{"t":[1]}})") ==
        R"(feature_lists["t"][0]: expected an array of values or a typed list ({"int64": [...]}, {"float": [...]}, {"bytes": [...]}), got an integer)");
  SequenceExample seq;
  REQUIRE(SequenceExampleFromJson(nlohmann::json::parse(R"({"context":{"feature":{"int64":[]}},"feature_lists":{"t":[{"float":[]}]}})"), &seq).ok());
  CHECK(seq.context[0].second == Feature::Int64s({}));
  CHECK(seq.feature_lists[0].second[0] == Feature::Floats({}));
}

TEST_CASE("flat errors say what does not fit, and where") {
  CHECK(ExampleError(R"({"a":[1,"x"]})") == R"(["a"]: mixed kinds in one list (numbers and strings))");
  CHECK(ExampleError(R"({"a":[1.5,{"base64":"AA=="}]})") == R"(["a"]: mixed kinds in one list (numbers and strings))");
  CHECK(ExampleError(R"({"a":[[1]]})") == R"(["a"][0]: nested arrays are not allowed)");
  CHECK(ExampleError(R"({"a":[{"x":1}]})") == R"(["a"][0]: nested objects are not allowed (except {"base64": "..."}))");
  CHECK(ExampleError(R"({"a":{"b":[1]}})") ==
        R"(["a"]: expected a value, an array of values or a typed list ({"int64": [...]}, {"float": [...]}, {"bytes": [...]}), got an object)");
  CHECK(ExampleError(R"({"a":null})") ==
        R"(["a"]: expected a value, an array of values or a typed list ({"int64": [...]}, {"float": [...]}, {"bytes": [...]}), got null)");
  CHECK(ExampleError(R"({"a":{"int64":[1.5]}})") == R"(["a"].int64[0]: expected an int64, got a number)");
  CHECK(ExampleError(R"({"a":{"float":["x"]}})") == R"(["a"].float[0]: expected a float, got the string "x")");
  CHECK(ExampleError(R"({"a":{"bytes":[1]}})") ==
        R"(["a"].bytes[0]: expected a string or {"base64": "..."}, got an integer)");
  // An integer joins a float list only if float32 holds it exactly (the CSV reader's rule).
  CHECK(ExampleError(R"({"w":[16777217,0.5]})") ==
        R"(["w"][0]: the integer 16777217 in a float list is not exactly a float32 (it would become 16777216); )"
        R"(write it with a '.' (16777217.0) to accept the rounding, or keep integers in an int64 list)");
  CHECK(ExampleError(R"({"w":{"float":[9007199254740993]}})").find("the integer 9007199254740993 in a float list") !=
        std::string::npos);
  // Near the ends of int64 the float is +-2^63 (found by the jsonl_read fuzzer: undefined behaviour).
  CHECK(ExampleError(R"({"w":[9223372036824775808,0.5]})").find("(it would become 9223372036854775808)") !=
        std::string::npos);
  CHECK(ExampleError(R"({"w":[-9223372036854775807,0.5]})").find("(it would become -9223372036854775808)") !=
        std::string::npos);
  CHECK(ExampleError(R"({"w":[1.5,9223372036854775808]})") == R"(["w"][1]: integer 9223372036854775808 is beyond int64)");
  CHECK(ExampleError(R"({"a":[null]})") == R"(["a"][0]: expected a number or a string, got null)");
  CHECK(ExampleError(R"({"a":[1,18446744073709551615]})") == R"(["a"][1]: integer 18446744073709551615 is beyond int64)");
  CHECK(ExampleError(R"({"a":[1e39]})") == R"(["a"][0]: 1e+39 is out of float32 range)");
  CHECK(ExampleError(R"({"a":[{"base64":"not base64!"}]})") == R"(["a"][0].base64: bad base64 "not base64!")");
  CHECK(ExampleError(R"({"a":[{"base64":1}]})") == R"(["a"][0].base64: expected a base64 string, got an integer)");
  CHECK(ExampleError("[1]") == "expected a JSON object, got an array");
  CHECK(SequenceError(R"({"feature_lists":{"t":{}}})") == R"(feature_lists["t"]: expected an array of steps, got an object)");
  CHECK(SequenceError(R"({"context":{"a":[1]},"extra":1})") ==
        R"(unknown field "extra" (a SequenceExample has context and feature_lists))");
}

TEST_CASE("proto-json errors say what does not fit, and where") {
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"int64List":{"value":["x"]}}}}})") ==
        R"(features.feature["a"].int64List.value[0]: expected an int64, got the string "x")");
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"int64List":{"value":["9223372036854775808"]}}}}})") ==
        R"(features.feature["a"].int64List.value[0]: integer 9223372036854775808 is beyond int64)");
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"int64List":{"value":[1.5]}}}}})") ==
        R"(features.feature["a"].int64List.value[0]: expected an int64, got 1.5)");
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"floatList":{"value":["nan"]}}}}})") ==
        R"(features.feature["a"].floatList.value[0]: expected a float, got the string "nan")");
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"floatList":{"value":["1e39"]}}}}})") ==
        R"(features.feature["a"].floatList.value[0]: "1e39" is out of float32 range)");
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"floatList":{"value":["-1e400"]}}}}})") ==
        R"(features.feature["a"].floatList.value[0]: "-1e400" is out of float32 range)");
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"floatList":{"value":["1e+99999999999999999999"]}}}}})") ==
        R"(features.feature["a"].floatList.value[0]: "1e+99999999999999999999" is out of float32 range)");
  CHECK(ReadExample(R"({"features":{"feature":{"a":{"floatList":{"value":["1e-99999999999999999999"]}}}}})")
            .features[0].second.float_list == std::vector<float>{0.0f});
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"bytesList":{"value":["a"]}}}}})") ==
        R"(features.feature["a"].bytesList.value[0]: bad base64 "a")");
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"bytesList":{},"int64List":{}}}}})") ==
        R"(features.feature["a"]: more than one list kind (bytesList and int64List))");
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"int64List":{},"int64_list":{}}}}})") ==
        R"(features.feature["a"]: both int64List and int64_list)");
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"stringList":{}}}}})") ==
        R"(features.feature["a"]: unknown field "stringList")");
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"int64List":{"values":[]}}}}})") ==
        R"(features.feature["a"].int64List: unknown field "values")");
  CHECK(ExampleError(R"({"features":{"feature":{"a":{"int64List":{"value":1}}}}})") ==
        R"(features.feature["a"].int64List.value: expected an array, got an integer)");
  CHECK(ExampleError(R"({"features":{"feature":{"a":[1]}}})") ==
        R"(features.feature["a"]: expected an object, got an array)");
  CHECK(ExampleError(R"({"features":{"feature":[]}})") == R"(features.feature: expected an object, got an array)");
  CHECK(ExampleError(R"({"features":{"features":{}}})") == R"(features: unknown field "features")");
  CHECK(ExampleError(R"({"features":{},"x":[1]})") == R"(unknown field "x")");
  CHECK(SequenceError(R"({"featureLists":{"featureList":{"t":{"feature":{}}}}})") ==
        R"(featureLists.featureList["t"].feature: expected an array, got an object)");
  CHECK(SequenceError(R"({"featureLists":{"featureList":{"t":{"feature":[{"x":1}]}}}})") ==
        R"(featureLists.featureList["t"].feature[0]: unknown field "x")");
  CHECK(SequenceError(R"({"featureLists":{},"feature_lists":{}})") == "both featureLists and feature_lists");
}

}  // namespace
}  // namespace tfq
