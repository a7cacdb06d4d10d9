// JsonRecordReader on raw text: the bytes it writes are SerializeExample's for the message the
// text means, in every form; length prefixes of one, two and three bytes at every nesting level;
// a context after feature_lists; errors in the text's order (syntax and repeated keys first).
#include <string>

#include <doctest/doctest.h>

#include "example/example.h"
#include "example/json_forms.h"
#include "random_examples.h"

namespace tfq {
namespace {

using testing::Serialize;

std::string Read(const std::string& json, bool sequence = false) {
  JsonRecordReader reader;
  ByteBuffer out;
  Status s = sequence ? reader.ReadSequenceExample(json, &out) : reader.ReadExample(json, &out);
  REQUIRE_MESSAGE(s.ok(), s.message());
  return std::string(out.view());
}

std::string Error(const std::string& json, bool sequence = false) {
  JsonRecordReader reader;
  ByteBuffer out;
  Status s = sequence ? reader.ReadSequenceExample(json, &out) : reader.ReadExample(json, &out);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == StatusCode::kInvalidData);
  return s.message();
}


}  // namespace

TEST_CASE("flat: the bytes of the Example the text means") {
  Example e;
  e.features = {{"i", Feature::Int64s({1, -2, 300})},
                {"f", Feature::Floats({0.5f, 2.0f})},
                {"s", Feature::Bytes({"a", "\xff", ""})},
                {"one", Feature::Int64s({7})},
                {"b", Feature::Int64s({1, 0})},
                {"empty", Feature::Bytes({})},
                {"ti", Feature::Int64s({})},
                {"tf", Feature::Floats({})},
                {"tb", Feature::Bytes({"x"})},
                {"w", Feature::Floats({1.5f})}};
  CHECK(Read(R"({"i":[1,-2,300],"f":[0.5,2],"s":["a",{"base64":"/w=="},""],"one":7,"b":[true,false],)"
             R"("empty":[],"ti":{"int64":[]},"tf":{"float":[]},"tb":{"bytes":["x"]},"w":1.5})") == Serialize(e));
  Example none;
  none.has_features = false;
  CHECK(Read("{}") == Serialize(none));
  CHECK(Read("{}").empty());
}

TEST_CASE("proto-json: the bytes of the Example the text means") {
  Example e;
  Feature no_kind;
  e.features = {{"b", Feature::Bytes({"x", ""})},
                {"f", Feature::Floats({1.5f, 2.0f})},
                {"i", Feature::Int64s({1, -3})},
                {"n", no_kind},
                {"e", Feature::Int64s({})},
                {"s", Feature::Floats({})}};
  CHECK(Read(R"({"features":{"feature":{"b":{"bytesList":{"value":["eA==",""]}},)"
             R"("f":{"float_list":{"value":[1.5,"2"]}},"i":{"int64List":{"value":["1",-3]}},"n":{},)"
             R"("e":{"int64List":{}},"s":{"floatList":{"value":null}}}}})") == Serialize(e));
  Example empty;
  CHECK(Read(R"({"features":{}})") == Serialize(empty));
  CHECK(Read(R"({"features":{"feature":null}})") == Serialize(empty));
}

TEST_CASE("SequenceExample: context first on the wire, wherever the text puts it") {
  SequenceExample s;
  s.context = {{"c", Feature::Int64s({2})}};
  s.feature_lists = {{"t", {Feature::Bytes({"x"}), Feature::Bytes({}), Feature::Floats({0.5f})}},
                     {"u", {}}};
  CHECK(Read(R"({"context":{"c":[2]},"feature_lists":{"t":[["x"],[],[0.5]],"u":[]}})", true) == Serialize(s));
  CHECK(Read(R"({"feature_lists":{"t":[["x"],[],[0.5]],"u":[]},"context":{"c":[2]}})", true) == Serialize(s));
  const std::string proto_lists =
      R"("featureLists":{"featureList":{"t":{"feature":[{"bytesList":{"value":["eA=="]}},{"bytesList":{}},)"
      R"({"floatList":{"value":[0.5]}}]},"u":{"feature":[]}}})";
  const std::string proto_context = R"("context":{"feature":{"c":{"int64List":{"value":["2"]}}}})";
  CHECK(Read("{" + proto_context + "," + proto_lists + "}", true) == Serialize(s));
  CHECK(Read("{" + proto_lists + "," + proto_context + "}", true) == Serialize(s));
  SequenceExample lists_only;
  lists_only.has_context = false;
  lists_only.feature_lists = {{"t", {Feature::Int64s({1})}}};
  CHECK(Read(R"({"feature_lists":{"t":[[1]]}})", true) == Serialize(lists_only));
  CHECK(Read(R"({"context":null,"featureLists":{"featureList":{"t":{"feature":[{"int64List":{"value":[1]}}]}}}})",
             true) == Serialize(lists_only));
  SequenceExample nothing;
  nothing.has_context = nothing.has_feature_lists = false;
  CHECK(Read("{}", true) == Serialize(nothing));
}

TEST_CASE("length prefixes of one, two and three bytes at every level") {
  for (const size_t size : {size_t{100}, size_t{127}, size_t{128}, size_t{300}, size_t{16383}, size_t{16384},
                            size_t{70000}}) {
    CAPTURE(size);
    const std::string value(size, 'v');
    const std::string key(size, 'k');
    Example e;
    e.features = {{key, Feature::Bytes({value, value})}, {"n", Feature::Int64s(std::vector<int64_t>(size, 300))}};
    std::string ints = "[";
    for (size_t i = 0; i < size; ++i) ints += i == 0 ? "300" : ",300";
    ints += "]";
    CHECK(Read("{\"" + key + "\":[\"" + value + "\",\"" + value + "\"],\"n\":" + ints + "}") == Serialize(e));
    SequenceExample s;
    s.context = {{"c", Feature::Bytes({value})}};
    s.feature_lists = {{key, {Feature::Bytes({value}), Feature::Int64s(std::vector<int64_t>(size, 300))}}};
    CHECK(Read("{\"feature_lists\":{\"" + key + "\":[[\"" + value + "\"]," + ints + "]},\"context\":{\"c\":\"" +
                   value + "\"}}",
               true) == Serialize(s));
  }
}

TEST_CASE("the reader appends, and is reused from line to line") {
  JsonRecordReader reader;
  ByteBuffer out;
  out.Append("head", 4);
  REQUIRE(reader.ReadExample(R"({"a":[1]})", &out).ok());
  Example e;
  e.features = {{"a", Feature::Int64s({1})}};
  CHECK(out.view() == "head" + Serialize(e));
  ByteBuffer bad;
  CHECK_FALSE(reader.ReadExample(R"({"a":[[1]]})", &bad).ok());
  reader.ReleaseIfLarger(0);
  ByteBuffer again;
  REQUIRE(reader.ReadExample(R"({"b":["x"]})", &again).ok());
  Example b;
  b.features = {{"b", Feature::Bytes({"x"})}};
  CHECK(again.view() == Serialize(b));
}

TEST_CASE("errors: syntax and repeated keys anywhere first, then values in the text's order") {
  CHECK(Error(R"({"a":[[1]],"b":[1,]})").rfind("not valid JSON at byte 18 (syntax error", 0) == 0);
  CHECK(Error(R"({"a":[[1]],"b":[1],"b":[2]})") ==
        R"(duplicate key "b" (each key may appear once; the value would be lost))");
  CHECK(Error(R"({"features":{"feature":{"x":{},"x":{}}}})") ==
        R"(duplicate key "x" in ["features"]["feature"] (each key may appear once; the value would be lost))");
  CHECK(Error(R"({"b":[[1]],"a":["x",1]})") == R"(["b"][0]: nested arrays are not allowed)");
  CHECK(Error(R"({"a":["x",1],"b":[[1]]})") == R"(["a"]: mixed kinds in one list (numbers and strings))");
  CHECK(Error(R"({"x":[16777217,0.5]})").rfind(R"(["x"][0]: the integer 16777217 in a float list is not exactly)", 0) == 0);
  CHECK(Error(R"({"x":[1e300]})") == R"(["x"][0]: 1e+300 is out of float32 range)");
  CHECK(Error(R"({"x":{"base64":"!"}})") == R"(["x"].base64: bad base64 "!")");
  CHECK(Error(R"({"x":[null]})") == R"(["x"][0]: expected a number or a string, got null)");
  CHECK(Error("[1]") == "expected a JSON object, got an array");
  CHECK(Error(R"({"features":{"feature":{}},"x":1})") == R"(unknown field "x")");
  CHECK(Error(R"({"features":{"feature":{"a":{"int64List":{"value":[1.5]}}}}})") ==
        R"(features.feature["a"].int64List.value[0]: expected an int64, got 1.5)");
  CHECK(Error(R"({"features":{"feature":{"a":{"int64List":{"value":["18446744073709551615"]}}}}})") ==
        R"(features.feature["a"].int64List.value[0]: integer 18446744073709551615 is beyond int64)");
  CHECK(Error(R"({"features":{"feature":{"a":{"int64List":{"value":[18446744073709551615]}}}}})") ==
        R"(features.feature["a"].int64List.value[0]: integer 18446744073709551615 is beyond int64)");
  CHECK(Error(R"({"features":{"feature":{"a":{"bytesList":{},"int64List":{}}}}})") ==
        R"(features.feature["a"]: more than one list kind (bytesList and int64List))");
  CHECK(Error(R"({"feature_lists":{"t":[1]},"context":{"c":[[1]]}})", true).rfind(R"(feature_lists["t"][0]: expected an array)", 0) == 0);
  CHECK(Error(R"({"context":{"c":[[1]]},"feature_lists":{"t":[1]}})", true) == R"(context["c"][0]: nested arrays are not allowed)");
  CHECK(Error(R"({"featureLists":{},"feature_lists":{}})", true) == "both featureLists and feature_lists");
  CHECK(Error(R"({"other":{}})", true) == R"(unknown field "other" (a SequenceExample has context and feature_lists))");
}

}  // namespace tfq
