// Helpers shared by the decoder tests: keeping hand-built records alive, collecting values.
#ifndef TFQ_TESTS_EXAMPLE_VIEW_TEST_UTIL_H_
#define TFQ_TESTS_EXAMPLE_VIEW_TEST_UTIL_H_

#include <deque>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "example/example_view.h"

namespace tfq::testing {

// Views point into the record, so records built inline must outlive the test: keep them.
inline std::string_view Keep(std::string record) {
  static std::deque<std::string> kept;
  return kept.emplace_back(std::move(record));
}

inline std::vector<int64_t> Int64s(const FeatureView& f) {
  std::vector<int64_t> v;
  REQUIRE(f.AppendInt64s(&v).ok());
  return v;
}
inline std::vector<float> Floats(const FeatureView& f) {
  std::vector<float> v;
  REQUIRE(f.AppendFloats(&v).ok());
  return v;
}
inline std::vector<std::string_view> Bytes(const FeatureView& f) {
  std::vector<std::string_view> v;
  REQUIRE(f.AppendBytes(&v).ok());
  return v;
}
inline size_t Count(const FeatureView& f) {
  size_t n = 0;
  REQUIRE(f.CountValues(&n).ok());
  return n;
}
inline std::vector<std::string_view> Keys(const FeaturesView& features) {
  std::vector<std::string_view> keys;
  for (const auto& e : features.entries()) keys.push_back(e.key);
  return keys;
}

// The message of a failed parse (and that it is a corruption).
inline std::string ParseError(std::string_view record) {
  ExampleView view;
  Status s = view.Parse(record);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == StatusCode::kCorruption);
  return s.message();
}

}  // namespace tfq::testing

#endif  // TFQ_TESTS_EXAMPLE_VIEW_TEST_UTIL_H_
