// JsonTape: every JSON type read back, members in text order, repeated keys refused with their
// path, syntax errors with the byte offset, time linear in the number of keys (sized so that a
// quadratic parser would run past the ctest timeout).
#include "example/json_tape.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace tfq {
namespace {

std::string TapeError(const std::string& text) {
  JsonTape tape;
  Status s = tape.Parse(text);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == StatusCode::kInvalidData);
  return s.message();
}

// The keys of an object (or "" per array element), in order, joined by ','.
std::string Keys(const JsonNode& node) {
  std::string keys;
  for (JsonMembers m = node.members(); !m.done(); m.Next()) keys += std::string(m.key()) + ",";
  return keys;
}

// The whole tree, every value with its type and exact bits.
void Dump(const JsonNode& node, std::string* out) {
  switch (node.type()) {
    case JsonNode::Type::kNull: *out += "n"; break;
    case JsonNode::Type::kBoolean: *out += node.boolean() ? "T" : "F"; break;
    case JsonNode::Type::kInteger: *out += "i" + std::to_string(node.integer()); break;
    case JsonNode::Type::kUnsigned: *out += "u" + std::to_string(node.unsigned_integer()); break;
    case JsonNode::Type::kFloat: {
      const double v = node.number_float();
      uint64_t bits = 0;
      std::memcpy(&bits, &v, sizeof bits);
      *out += "f" + std::to_string(bits);
      break;
    }
    case JsonNode::Type::kString:
      *out += "s" + std::to_string(node.string().size()) + ":" + std::string(node.string());
      break;
    case JsonNode::Type::kArray:
    case JsonNode::Type::kObject:
      *out += node.is_object() ? "{" : "[";
      for (JsonMembers m = node.members(); !m.done(); m.Next()) {
        *out += std::to_string(m.key().size()) + ":" + std::string(m.key()) + "=";
        Dump(m.value(), out);
        *out += ",";
      }
      *out += node.is_object() ? "}" : "]";
      break;
  }
}

// Parse (the direct parser, nlohmann's for what it leaves) against nlohmann's parser alone: the
// same tree, or the same error.
void CheckSameAsNlohmann(const std::string& text) {
  CAPTURE(text);
  JsonTape direct, reference;
  const Status a = direct.Parse(text);
  const Status b = reference.ParseWithNlohmann(text);
  REQUIRE(a.ok() == b.ok());
  if (!a.ok()) {
    CHECK(a.message() == b.message());
    return;
  }
  std::string da, db;
  Dump(direct.root(), &da);
  Dump(reference.root(), &db);
  CHECK(da == db);
}

// A random JSON text: every type, escapes, non-ASCII text (valid and not), numbers at every limit
// (int64, uint64, the tape's 60-bit payloads, double's range), whitespace.
std::string RandomJson(std::mt19937& rng, int depth) {
  static const char* const kAtoms[] = {
      "0", "-0", "1", "-1", "12345", "1.5", "-0.0", "1e5", "1E+5", "-2.5e-3", "0.1", "3.4028234663852886e38",
      "1.7976931348623157e308", "4.9e-324", "2.4e-324", "1e-400", "1e309", "-1e309", "18446744073709551615",
      "18446744073709551616", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
      "-9223372036854775809", "1152921504606846975", "1152921504606846976", "-576460752303423488",
      "-576460752303423489", "true", "false", "null", R"("")", R"("abc")", R"("a\"b\\c\/d")",
      R"("\b\f\n\r\t")", R"("\u0000\u001f\u00e9\u20AC")", R"("\ud83d\ude00")", R"("\udc00")", R"("\ud800x")",
      "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", "\"\xed\xa0\x80\"", "\"\xc0\xaf\"", "\"\xf4\x90\x80\x80\"",
      "\"\xe2\x82\"", R"("NaN")", R"({"base64":"AAE="})", "[]", "{}",
      // Longer than the eight bytes the string scan takes at a time: bad UTF-8, a control byte
      // and escapes before and after the first word.
      "\"\xc0\xafabcdefghijklmnop\"", "\"abcdefghijklmn\xc3\"", "\"abcdefghij\x01klm\"",
      R"("abcdefghijk\"lmnopqrstuvw\\xyz\u00e9abcdefgh")", "\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\""};
  static const char* const kSpaces[] = {"", "", "", " ", "\n", " \t\r\n "};
  auto space = [&] { return std::string(kSpaces[rng() % 6]); };
  const int pick = depth > 4 ? 0 : static_cast<int>(rng() % 4);
  if (pick <= 1) return space() + kAtoms[rng() % (sizeof kAtoms / sizeof *kAtoms)] + space();
  const bool object = pick == 2;
  std::string text = space() + (object ? "{" : "[");
  const size_t n = rng() % 5;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) text += ",";
    if (object) text += space() + "\"k" + std::to_string(rng() % 6) + "\"" + space() + ":";
    text += RandomJson(rng, depth + 1);
  }
  return text + (object ? "}" : "]") + space();
}

}  // namespace

TEST_CASE("the direct parser builds nlohmann's tree, and leaves it every error") {
  const std::string cases[] = {
      "{}", "[]", " [ ] ", "1", "-", "01", "1.", "1e", ".5", "+1", "-01", "1 2", "[1,]", R"({"a":1,})",
      R"({"a" 1})", "{,}", "[1 2]", R"("\x")", R"("\u12")", R"("\uZZZZ")", "\"a\nb\"", "\"\x7f\"",
      "\xef\xbb\xbf{}", "nul", "truex", "[true,false,null]", R"({"a":{"a":[{"a":1}]}})", R"({"a":1,"a":2})",
      std::string(200, '[') + std::string(200, ']'), std::string(100, '[') + std::string(100, ']'),
      std::string("\"a\0b\"", 5)};
  for (const std::string& text : cases) CheckSameAsNlohmann(text);
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::string text = RandomJson(rng, 0);
    if (i % 2 == 1 && !text.empty()) {  // and broken: a byte changed, dropped or doubled
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[at] = "{}[],:\"\\0e.-x \x80"[rng() % 16]; break;
        case 1: text.erase(at, 1); break;
        default: text.insert(at, 1, text[at]); break;
      }
    }
    CheckSameAsNlohmann(text);
  }
}

TEST_CASE("members keep the text's order; values of every type") {
  JsonTape tape;
  REQUIRE(tape.Parse(R"({"z":[1,-2,1.5,"s",true,null,false],"a":{"y":{},"b":[]},"e\u00e9\n":"x\"\\y"})").ok());
  const JsonNode root = tape.root();
  REQUIRE(root.is_object());
  CHECK(Keys(root) == "z,a,e\xc3\xa9\n,");
  CHECK(root.size() == 3);
  const JsonNode z = root.find("z");
  REQUIRE(z.is_array());
  CHECK(z.size() == 7);
  JsonMembers m = z.members();
  CHECK((m.value().is_number_unsigned() && m.value().integer() == 1));
  m.Next();
  CHECK((m.value().is_number_integer() && !m.value().is_number_unsigned() && m.value().integer() == -2));
  m.Next();
  CHECK((m.value().is_number_float() && m.value().number_float() == 1.5));
  m.Next();
  CHECK((m.value().is_string() && m.value().string() == "s"));
  m.Next();
  CHECK((m.value().is_boolean() && m.value().boolean()));
  m.Next();
  CHECK(m.value().is_null());
  m.Next();
  CHECK((m.value().is_boolean() && !m.value().boolean()));
  m.Next();
  CHECK(m.done());
  const JsonNode a = root.find("a");
  CHECK((a.is_object() && Keys(a) == "y,b,"));
  CHECK((a.find("y").is_object() && a.find("y").empty() && a.find("b").is_array() && a.find("b").empty()));
  CHECK_FALSE(a.find("z").valid());
  CHECK_FALSE(a.contains("z"));
  CHECK(root.find("e\xc3\xa9\n").string() == "x\"\\y");
}

TEST_CASE("integers of every size come back exactly") {
  JsonTape tape;
  REQUIRE(tape.Parse("[18446744073709551615,9223372036854775807,-9223372036854775808,"
                     "576460752303423487,576460752303423488,-576460752303423488,-576460752303423489,"
                     "1152921504606846975,1152921504606846976,0,-0,1e300]")
              .ok());
  JsonMembers m = tape.root().members();
  CHECK((m.value().is_number_unsigned() && m.value().unsigned_integer() == UINT64_MAX));
  m.Next();
  CHECK(m.value().integer() == INT64_MAX);
  m.Next();
  CHECK((!m.value().is_number_unsigned() && m.value().integer() == INT64_MIN));
  m.Next();
  CHECK(m.value().integer() == (int64_t{1} << 59) - 1);
  m.Next();
  CHECK(m.value().integer() == (int64_t{1} << 59));
  m.Next();
  CHECK(m.value().integer() == -(int64_t{1} << 59));
  m.Next();
  CHECK(m.value().integer() == -(int64_t{1} << 59) - 1);
  m.Next();
  CHECK(m.value().unsigned_integer() == (uint64_t{1} << 60) - 1);
  m.Next();
  CHECK(m.value().unsigned_integer() == (uint64_t{1} << 60));
  m.Next();
  CHECK((m.value().is_number_unsigned() && m.value().integer() == 0));
  m.Next();
  CHECK(m.value().integer() == 0);
  m.Next();
  CHECK((m.value().is_number_float() && m.value().number_float() == 1e300));
}

TEST_CASE("a value that is not an object or array; a tape parsed again forgets the old text") {
  JsonTape tape;
  REQUIRE(tape.Parse(R"("text")").ok());
  CHECK(tape.root().string() == "text");
  REQUIRE(tape.Parse("[[],[[]],{}]").ok());
  CHECK(tape.root().size() == 3);
  tape.ReleaseIfLarger(0);
  REQUIRE(tape.Parse("7").ok());
  CHECK(tape.root().integer() == 7);
}

TEST_CASE("a repeated key is an error naming it and the objects around it") {
  CHECK(TapeError(R"({"a":[1],"a":[2]})") == R"(duplicate key "a" (each key may appear once; the value would be lost))");
  CHECK(TapeError(R"({"features":{"feature":{"x":{},"y":{},"x":{}}}})") ==
        R"(duplicate key "x" in ["features"]["feature"] (each key may appear once; the value would be lost))");
  CHECK(TapeError(R"({"l":[{},{"k":1,"k":2}]})") ==
        R"(duplicate key "k" in ["l"][1] (each key may appear once; the value would be lost))");
  // Past the linear-scan size, found through the hash set.
  std::string wide = "{";
  for (int i = 0; i < 100; ++i) wide += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  CHECK(TapeError(wide + "\"k7\":0}").rfind(R"(duplicate key "k7")", 0) == 0);
  CHECK(TapeError(wide + "\"k99\":0}").rfind(R"(duplicate key "k99")", 0) == 0);
  JsonTape tape;
  CHECK(tape.Parse(wide + "\"k100\":0}").ok());
  CHECK(tape.root().size() == 101);
  // The same key in sibling objects is fine, and a key may repeat a string value.
  CHECK(tape.Parse(R"({"a":{"k":1},"b":{"k":1},"c":"a"})").ok());
}

TEST_CASE("text that is not JSON is an error with the byte offset") {
  CHECK(TapeError(R"({"a":[1,]})").rfind("not valid JSON at byte 8 (syntax error", 0) == 0);
  CHECK(TapeError("{\"a\":\"\xff\"}").rfind("not valid JSON at byte", 0) == 0);
  CHECK(TapeError("{\"\xff\":1}").rfind("not valid JSON at byte", 0) == 0);  // invalid UTF-8 key
  CHECK(TapeError(R"({"a":1} x)").rfind("not valid JSON", 0) == 0);
  CHECK(TapeError("").rfind("not valid JSON", 0) == 0);
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
    JsonTape tape;
    REQUIRE(tape.Parse(text).ok());
    const JsonNode map = nested ? tape.root().find("features").find("feature") : tape.root();
    CHECK(map.size() == 1000000);
    CHECK(map.find("key999999").members().value().integer() == 999999);
  }
}

}  // namespace tfq
