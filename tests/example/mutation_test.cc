// Seeded random byte edits of random records: whatever the decoder accepts can be walked and
// printed as valid JSON in both forms, and whatever it rejects is kCorruption. Run under the
// sanitizers this is the decoder's fuzz test.
#include <nlohmann/json.hpp>

#include <random>
#include <string>

#include <doctest/doctest.h>

#include "example/example.h"
#include "example/json_forms.h"
#include "random_examples.h"

namespace tfq {
namespace {

void Walk(const FeatureView& f) {
  size_t count = 0, seen = 0;
  REQUIRE(f.CountValues(&count).ok());
  Status s;
  switch (f.kind()) {
    case FeatureKind::kInt64: s = f.ForEachInt64([&](int64_t) { ++seen; }); break;
    case FeatureKind::kFloat: s = f.ForEachFloat([&](float) { ++seen; }); break;
    case FeatureKind::kBytes: s = f.ForEachBytes([&](std::string_view) { ++seen; }); break;
    case FeatureKind::kNone: break;
  }
  CHECK(s.ok());
  CHECK(seen == count);
}

// Overwrites, inserts or deletes a few bytes.
std::string Mutate(std::string bytes, std::mt19937_64& rng) {
  for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0; --edits) {
    const size_t at = bytes.empty() ? 0 : rng() % bytes.size();
    switch (rng() % 3) {
      case 0: if (!bytes.empty()) bytes[at] = static_cast<char>(rng()); break;
      case 1: bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at), static_cast<char>(rng())); break;
      default: if (!bytes.empty()) bytes.erase(at, 1); break;
    }
  }
  return bytes;
}

TEST_CASE("mutated Examples: rejected as corruption, or walkable and printable") {
  testing::RandomExamples random(555, {});
  std::mt19937_64 rng(556);
  ExampleView view;
  std::string json;
  size_t accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string bytes;
    SerializeExample(random.NextExample(), &bytes);
    const std::string mutated = Mutate(bytes, rng);
    Status s = view.Parse(mutated);
    if (!s.ok()) {
      CHECK(s.code() == StatusCode::kCorruption);
      continue;
    }
    ++accepted;
    for (const auto& e : view.features().entries()) Walk(e.feature);
    for (JsonForm form : {JsonForm::kProtoJson, JsonForm::kFlat}) {
      json.clear();
      AppendExampleJson(view, form, &json);
      CHECK(nlohmann::json::accept(json));
    }
  }
  CHECK(accepted > 300);  // enough edits keep a parseable record for the walks to mean something
}

TEST_CASE("mutated SequenceExamples: rejected as corruption, or walkable and printable") {
  testing::RandomExamples random(655, {});
  std::mt19937_64 rng(656);
  SequenceExampleView view;
  std::string json;
  for (int i = 0; i < 2000; ++i) {
    std::string bytes;
    SerializeSequenceExample(random.NextSequenceExample(), &bytes);
    const std::string mutated = Mutate(bytes, rng);
    Status s = view.Parse(mutated);
    if (!s.ok()) {
      CHECK(s.code() == StatusCode::kCorruption);
      continue;
    }
    for (const auto& e : view.context().entries()) Walk(e.feature);
    for (const auto& list : view.feature_lists()) {
      for (const FeatureView& step : list.steps) Walk(step);
    }
    for (JsonForm form : {JsonForm::kProtoJson, JsonForm::kFlat}) {
      json.clear();
      AppendSequenceExampleJson(view, form, &json);
      CHECK(nlohmann::json::accept(json));
    }
  }
}

}  // namespace
}  // namespace tfq
