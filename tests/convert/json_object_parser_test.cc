// ParseJsonObjectLine: members in text order, repeated keys refused with their path, time linear
// in the number of keys (sized so that a quadratic parser would run past the ctest timeout).
#include "convert/json_object_parser.h"

#include <doctest/doctest.h>

#include <iterator>
#include <string>

namespace tfq {
namespace {

std::string Error(const std::string& text) {
  nlohmann::ordered_json value;
  Status s = ParseJsonObjectLine(text, &value);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == StatusCode::kInvalidData);
  return s.message();
}

}  // namespace

TEST_CASE("members keep the text's order; values of every type") {
  nlohmann::ordered_json v;
  REQUIRE(ParseJsonObjectLine(R"({"z":[1,-2,1.5,"s",true,null],"a":{"y":{},"b":[]}})", &v).ok());
  CHECK(v.dump() == R"({"z":[1,-2,1.5,"s",true,null],"a":{"y":{},"b":[]}})");
  CHECK(v.begin().key() == "z");
  REQUIRE(ParseJsonObjectLine("[18446744073709551615]", &v).ok());
  CHECK(v[0].is_number_unsigned());
}

TEST_CASE("a repeated key is an error naming it and the objects around it") {
  CHECK(Error(R"({"a":[1],"a":[2]})") == R"(duplicate key "a" (each key may appear once; the value would be lost))");
  CHECK(Error(R"({"features":{"feature":{"x":{},"y":{},"x":{}}}})") ==
        R"(duplicate key "x" in ["features"]["feature"] (each key may appear once; the value would be lost))");
  CHECK(Error(R"({"l":[{},{"k":1,"k":2}]})") ==
        R"(duplicate key "k" in ["l"][1] (each key may appear once; the value would be lost))");
  // Past the linear-scan size, found through the hash set.
  std::string wide = "{";
  for (int i = 0; i < 100; ++i) wide += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  CHECK(Error(wide + "\"k7\":0}").rfind(R"(duplicate key "k7")", 0) == 0);
  CHECK(Error(wide + "\"k99\":0}").rfind(R"(duplicate key "k99")", 0) == 0);
  nlohmann::ordered_json v;
  CHECK(ParseJsonObjectLine(wide + "\"k100\":0}", &v).ok());
  // The same key in sibling objects is fine.
  CHECK(ParseJsonObjectLine(R"({"a":{"k":1},"b":{"k":1}})", &v).ok());
}

TEST_CASE("text that is not JSON is an error with the byte offset") {
  CHECK(Error(R"({"a":[1,]})").rfind("not valid JSON at byte 8 (syntax error", 0) == 0);
  CHECK(Error("{\"a\":\"\xff\"}").rfind("not valid JSON at byte", 0) == 0);
  CHECK(Error(R"({"a":1} x)").rfind("not valid JSON", 0) == 0);
}

TEST_CASE("hostile: an object of 1,000,000 keys parses in linear time") {
  // ordered_json's own parser compares each key with every earlier one: 5e11 comparisons here,
  // about half an hour per object (200,000 keys took 75 s), past ctest's default timeout of
  // 1500 s; linear, it takes about a second.
  for (const bool nested : {false, true}) {
    std::string text = nested ? R"({"features":{"feature":{)" : "{";
    for (int i = 0; i < 1000000; ++i) {
      if (i > 0) text += ',';
      text += "\"key" + std::to_string(i) + "\":[" + std::to_string(i) + "]";
    }
    text += nested ? "}}}" : "}";
    nlohmann::ordered_json v;
    REQUIRE(ParseJsonObjectLine(text, &v).ok());
    const nlohmann::ordered_json& map = nested ? v["features"]["feature"] : v;
    CHECK(map.size() == 1000000);
    CHECK(std::next(map.begin(), 999999).key() == "key999999");
  }
}

}  // namespace tfq
