// The value grammar of values.h on each corner case docs/csv.md lists, and inference on each.
#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "csv/infer.h"
#include "csv/values.h"

namespace tfq::csv {
namespace {

TEST_CASE("int64: the canonical spelling only") {
  int64_t v = 0;
  CHECK((ParseInt64("0", &v) && v == 0));
  CHECK((ParseInt64("-17", &v) && v == -17));
  CHECK((ParseInt64("9223372036854775807", &v) && v == INT64_MAX));
  CHECK((ParseInt64("-9223372036854775808", &v) && v == INT64_MIN));
  CHECK((ParseInt64("901656910939770881", &v) && v == 901656910939770881));
  for (const char* bad : {"", "-", "9223372036854775808", "-9223372036854775809",
                          "12345678901234567890", "007", "-0", "+5", " 5", "5 ", "1e3", "1.0",
                          "0x1F", "1,5", "1_000", "--1", "5-"}) {
    CAPTURE(bad);
    CHECK(!ParseInt64(bad, &v));
  }
}

TEST_CASE("float: grammar, rounding, range") {
  float f = 0;
  bool integral = false;
  CHECK((ParseFloat("1e3", &f, &integral) == FloatParse::kOk && f == 1000.0f && !integral));
  CHECK((ParseFloat("+5", &f, &integral) == FloatParse::kOk && f == 5.0f && integral));
  CHECK((ParseFloat("-0", &f, &integral) == FloatParse::kOk && f == 0.0f && std::signbit(f)));
  CHECK((ParseFloat(".5", &f) == FloatParse::kOk && f == 0.5f));
  CHECK((ParseFloat("5.", &f) == FloatParse::kOk && f == 5.0f));
  CHECK((ParseFloat("-1.25E-2", &f) == FloatParse::kOk && f == -0.0125f));
  CHECK((ParseFloat("0.1", &f) == FloatParse::kOk && f == 0.1f));  // nearest float32
  CHECK((ParseFloat("inf", &f) == FloatParse::kOk && std::isinf(f) && f > 0));
  CHECK((ParseFloat("-Infinity", &f) == FloatParse::kOk && std::isinf(f) && f < 0));
  CHECK((ParseFloat("+INF", &f) == FloatParse::kOk && std::isinf(f)));
  CHECK((ParseFloat("NaN", &f) == FloatParse::kOk && std::isnan(f)));
  CHECK((ParseFloat("3.4028235e38", &f) == FloatParse::kOk && f == 3.4028235e38f));
  CHECK((ParseFloat("1e-50", &f) == FloatParse::kOk && f == 0.0f));
  CHECK((ParseFloat("-1e-400", &f) == FloatParse::kOk && f == 0.0f && std::signbit(f)));
  CHECK((ParseFloat("1e-40", &f) == FloatParse::kOk && f > 0 && f < 1e-39f));  // denormal
  CHECK(ParseFloat("3.5e38", &f) == FloatParse::kOutOfRange);
  CHECK(ParseFloat("-1e39", &f) == FloatParse::kOutOfRange);
  CHECK(ParseFloat("1e400", &f) == FloatParse::kOutOfRange);
  for (const char* bad : {"", "+", "-", ".", "e5", "1e", "1e+", "007", "00.5", "-01", "+-5",
                          "1,5", " 5", "5 ", "0x1F", "nan(1)", "infin", "1.2.3", "1e5.0", "True",
                          "1_000", "١٢"}) {
    CAPTURE(bad);
    CHECK(ParseFloat(bad, &f) == FloatParse::kSyntax);
  }
}

TEST_CASE("float: the fast path rounds exactly as from_chars does") {
  std::mt19937_64 rng(754);
  int compared = 0;
  for (int i = 0; i < 300000; ++i) {
    std::string t;
    const int digits = 1 + static_cast<int>(rng() % 20);
    for (int d = 0; d < digits; ++d) t += static_cast<char>('0' + rng() % 10);
    while (t.size() > 1 && t[0] == '0') t.erase(0, 1);
    if (rng() % 2) t.insert(t.begin() + static_cast<ptrdiff_t>(1 + rng() % t.size()), '.');
    if (rng() % 2) {
      t += 'e';
      t += std::to_string(static_cast<int>(rng() % 60) - 30);
    }
    if (rng() % 2) t.insert(t.begin(), '-');
    if (t.back() == '.') t += '5';
    float want = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), want);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) continue;
    float got = 0;
    CAPTURE(t);
    REQUIRE(ParseFloat(t, &got) == FloatParse::kOk);
    uint32_t a = 0;
    uint32_t b = 0;
    std::memcpy(&a, &got, 4);
    std::memcpy(&b, &want, 4);
    CHECK(a == b);
    ++compared;
  }
  CHECK(compared > 200000);
  // Exact midpoints between two floats: 1 + 2^-24 lies halfway between 1 and its successor, and
  // rounds to even (1); a hair above rounds up.
  float f = 0;
  REQUIRE(ParseFloat("1.000000059604644775390625", &f) == FloatParse::kOk);
  CHECK(f == 1.0f);
  REQUIRE(ParseFloat("1.000000059604644775390626", &f) == FloatParse::kOk);
  CHECK(f == std::nextafter(1.0f, 2.0f));
  REQUIRE(ParseFloat("16777217", &f) == FloatParse::kOk);  // 2^24 + 1, a midpoint: to even
  CHECK(f == 16777216.0f);
  REQUIRE(ParseFloat("16777219", &f) == FloatParse::kOk);
  CHECK(f == 16777220.0f);
}

struct Corner {
  const char* text;
  bool int64;
  bool float32;
};

// The corner-case table of docs/csv.md, row for row.
TEST_CASE("classification of the documented corner cases") {
  const Corner corners[] = {
      {"42", true, true},
      {"-7", true, true},
      {"0", true, true},
      {"16777216", true, true},                // 2^24: float32 holds it exactly
      {"16777217", true, false},               // float32 would round it
      {"901656910939770881", true, false},     // tweet id > 2^53
      {"9223372036854775808", false, false},   // beyond int64: text
      {"1e3", false, true},
      {"1.5", false, true},
      {".5", false, true},
      {"5.", false, true},
      {"-0", false, true},
      {"+5", false, true},
      {"007", false, false},                   // ZIP codes stay text
      {"00.5", false, false},
      {"inf", false, true},
      {"-Infinity", false, true},
      {"nan", false, true},
      {"1e39", false, false},                  // beyond float32
      {"1,5", false, false},
      {" 5 ", false, false},
      {"0x1F", false, false},
      {"True", false, false},
  };
  for (const Corner& c : corners) {
    CAPTURE(c.text);
    const ValueFit fit = ClassifyValue(c.text);
    CHECK(fit.int64 == c.int64);
    CHECK(fit.float32 == c.float32);
  }
}

ColumnKind InferOne(std::initializer_list<const char*> values, NaMatcher na = NaMatcher()) {
  SchemaInferrer inferrer({"c"}, Schema{}, std::move(na));
  for (const char* v : values) {
    const std::string_view field(v);
    inferrer.AddRow(std::span<const std::string_view>(&field, 1));
  }
  Result<Schema> s = inferrer.Finish();
  REQUIRE(s.ok());
  return s->columns[0].kind;
}

TEST_CASE("inference: the narrowest kind fitting every non-missing value") {
  CHECK(InferOne({"1", "2", "", "-3"}) == ColumnKind::kInt64);
  CHECK(InferOne({"1", "2.5", "1e3"}) == ColumnKind::kFloat);
  CHECK(InferOne({"1", "-0"}) == ColumnKind::kFloat);
  CHECK(InferOne({"1", "+5"}) == ColumnKind::kFloat);
  CHECK(InferOne({"1", "nan", "inf"}) == ColumnKind::kFloat);
  CHECK(InferOne({"901656910939770881", "901656917281574912"}) == ColumnKind::kInt64);
  CHECK(InferOne({"901656910939770881", "1.5"}) == ColumnKind::kBytes);  // no digit lost
  CHECK(InferOne({"16777216", "1.5"}) == ColumnKind::kFloat);
  CHECK(InferOne({"00501", "10001"}) == ColumnKind::kBytes);
  CHECK(InferOne({"1", "x"}) == ColumnKind::kBytes);
  CHECK(InferOne({"", ""}) == ColumnKind::kBytes);
  CHECK(InferOne({}) == ColumnKind::kBytes);
  CHECK(InferOne({"1", "NA", "n/a"}) == ColumnKind::kBytes);
  CHECK(InferOne({"1", "NA", "n/a"}, NaMatcher({"NA", "n/a"})) == ColumnKind::kInt64);
}

TEST_CASE("NA strings: exact bytes, any length") {
  const std::string long_na(100, 'N');
  NaMatcher na({"NA", "", long_na});
  CHECK(na.IsMissing(""));
  CHECK(na.IsMissing("NA"));
  CHECK(!na.IsMissing("na"));
  CHECK(!na.IsMissing("NA "));
  CHECK(na.IsMissing(long_na));
  CHECK(!NaMatcher().IsMissing("NA"));
}

TEST_CASE("list elements") {
  std::vector<std::string> got;
  ForEachListElement("a;;b;", ';', [&](std::string_view e) { got.emplace_back(e); });
  CHECK(got == std::vector<std::string>{"a", "", "b", ""});
  got.clear();
  ForEachListElement("", ';', [&](std::string_view e) { got.emplace_back(e); });
  CHECK(got == std::vector<std::string>{""});
}

}  // namespace
}  // namespace tfq::csv
