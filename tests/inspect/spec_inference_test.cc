// SpecBuilder: the dense/ragged rule (the one the Python package's features=None used), presence,
// counts, value ranges and SequenceExample feature lists.
#include "inspect/spec_inference.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "inspect/tfdv_schema.h"
#include "spec_test_util.h"

namespace tfq::inspect {
namespace {

const InferredFeature& Named(const std::vector<InferredFeature>& features, const std::string& name) {
  for (const auto& f : features) {
    if (f.name == name) return f;
  }
  FAIL("no feature " << name);
  return features.front();
}

TEST_CASE("spec inference: the same count in every record is dense, anything else ragged") {
  std::vector<Example> records;
  for (int i = 0; i < 4; ++i) {
    Example e;
    e.features.push_back({"label", Feature::Int64s({i})});
    e.features.push_back({"image", Feature::Floats(std::vector<float>(12, 0.5f))});
    e.features.push_back({"tokens", Feature::Int64s(std::vector<int64_t>(i, 7))});
    e.features.push_back({"text", Feature::Bytes({"t" + std::to_string(i)})});
    if (i % 2 == 0) e.features.push_back({"sometimes", Feature::Int64s({1})});
    e.features.push_back({"empty", Feature{}});  // a Feature with no list set
    records.push_back(e);
  }
  Result<InferredSpec> spec = InferFrom(records);
  REQUIRE(spec.ok());
  CHECK(spec->records == 4);
  CHECK_FALSE(spec->sequence);
  REQUIRE(spec->features.size() == 5);
  CHECK(spec->features[0].name == "image");  // sorted by name
  const auto& label = Named(spec->features, "label");
  CHECK(label.dense);
  CHECK(label.length == 1);
  CHECK(label.kind == FeatureKind::kInt64);
  CHECK(label.range.min_int == 0);
  CHECK(label.range.max_int == 3);
  CHECK(Named(spec->features, "image").dense);
  CHECK(Named(spec->features, "image").length == 12);
  const auto& tokens = Named(spec->features, "tokens");
  CHECK_FALSE(tokens.dense);  // 0..3 values
  CHECK(tokens.min_count == 0);
  CHECK(tokens.max_count == 3);
  CHECK(tokens.presence_fraction == 1.0);
  const auto& sometimes = Named(spec->features, "sometimes");
  CHECK_FALSE(sometimes.dense);  // missing from half the records
  CHECK(sometimes.present_in == 2);
  CHECK(sometimes.presence_fraction == 0.5);
  CHECK(Named(spec->features, "text").kind == FeatureKind::kBytes);
  REQUIRE(spec->untyped.size() == 1);  // no dtype to give: left out of the features
  CHECK(spec->untyped[0].name == "empty");
}

TEST_CASE("spec inference: a feature with two kinds is an error naming it and the kinds") {
  Example a, b;
  a.features.push_back({"x", Feature::Int64s({1})});
  b.features.push_back({"x", Feature::Floats({1.5f})});
  Result<InferredSpec> spec = InferFrom({a, b});
  REQUIRE_FALSE(spec.ok());
  CHECK(spec.status().code() == StatusCode::kInvalidData);
  CHECK(spec.status().message() ==
        "feature 'x' holds values of more than one kind (float and int64) in the 2 records looked at");
}

TEST_CASE("spec inference: no records is kInvalidData") {
  Result<InferredSpec> spec = SpecBuilder().Finish();
  REQUIRE_FALSE(spec.ok());
  CHECK(spec.status().code() == StatusCode::kInvalidData);
}

TEST_CASE("spec inference: more names than max_features cannot give a whole spec") {
  SpecBuilder builder(2);
  Example e;
  for (const char* k : {"a", "b", "c"}) e.features.push_back({k, Feature::Int64s({1})});
  std::string bytes;
  SerializeExample(e, &bytes);
  ExampleView view;
  REQUIRE(view.Parse(bytes).ok());
  builder.AddExample(view);
  Result<InferredSpec> spec = builder.Finish();
  REQUIRE_FALSE(spec.ok());
  CHECK(spec.status().message().find("more than 2 feature names") != std::string::npos);
}

TEST_CASE("spec inference: float ranges leave NaN out and count it") {
  Example a, b;
  a.features.push_back({"f", Feature::Floats({std::numeric_limits<float>::quiet_NaN(), -2.5f})});
  b.features.push_back({"f", Feature::Floats({4.0f, 0.0f})});
  Result<InferredSpec> spec = InferFrom({a, b});
  REQUIRE(spec.ok());
  const auto& f = spec->features[0];
  CHECK(f.range.nans == 1);
  CHECK(f.range.values == 3);
  CHECK(f.range.min_float == -2.5);
  CHECK(f.range.max_float == 4.0);
}

TEST_CASE("spec inference: SequenceExample feature lists, dense per step or ragged") {
  std::vector<SequenceExample> records;
  for (int i = 1; i <= 3; ++i) {
    SequenceExample s;
    s.context.push_back({"id", Feature::Int64s({i})});
    std::vector<Feature> pairs, words;
    for (int step = 0; step < i; ++step) {
      pairs.push_back(Feature::Int64s({step, step + 10}));
      words.push_back(Feature::Bytes(std::vector<std::string>(step, "w")));
    }
    s.feature_lists.push_back({"pairs", pairs});
    s.feature_lists.push_back({"words", words});
    records.push_back(s);
  }
  Result<InferredSpec> spec = InferFromSequences(records);
  REQUIRE(spec.ok());
  CHECK(spec->sequence);
  REQUIRE(spec->features.size() == 1);
  CHECK(spec->features[0].dense);
  REQUIRE(spec->feature_lists.size() == 2);
  const auto& pairs = Named(spec->feature_lists, "pairs");
  CHECK(pairs.dense);
  CHECK(pairs.length == 2);
  CHECK(pairs.min_steps == 1);
  CHECK(pairs.max_steps == 3);
  CHECK(pairs.range.min_int == 0);
  CHECK(pairs.range.max_int == 12);
  const auto& words = Named(spec->feature_lists, "words");
  CHECK_FALSE(words.dense);  // 0..2 values per step
  CHECK(words.max_count == 2);
}

}  // namespace
}  // namespace tfq::inspect

namespace tfq::inspect {
namespace {

void AddSerialized(SpecBuilder* builder, const Example& e) {
  std::string bytes;
  SerializeExample(e, &bytes);
  ExampleView view;
  REQUIRE(view.Parse(bytes).ok());
  builder->AddExample(view);
}

// `tfq inspect --spec` reads stretches on several threads and merges their builders in input order:
// the spec must be the one of a single pass, wherever the records were split.
TEST_CASE("spec inference: builders of parts, merged in order, give the spec of one pass") {
  std::vector<Example> records;
  for (int i = 0; i < 9; ++i) {
    Example e;
    e.features.push_back({"label", Feature::Int64s({i * 7 % 5 - 2})});
    e.features.push_back({"score", Feature::Floats({i == 4 ? std::nanf("") : 0.5f * static_cast<float>(i)})});
    e.features.push_back({"tokens", Feature::Int64s(std::vector<int64_t>(i % 3, i))});
    if (i % 4 == 1) e.features.push_back({"rare", Feature::Bytes({"r"})});
    records.push_back(e);
  }
  Result<InferredSpec> whole = InferFrom(records);
  REQUIRE(whole.ok());
  const std::string want = WriteTfdvSchema(*whole);
  for (size_t cut = 0; cut <= records.size(); ++cut) {
    CAPTURE(cut);
    SpecBuilder first, second;
    for (size_t i = 0; i < records.size(); ++i) AddSerialized(i < cut ? &first : &second, records[i]);
    first.Merge(second);
    Result<InferredSpec> merged = first.Finish();
    REQUIRE(merged.ok());
    CHECK(merged->records == whole->records);
    CHECK(WriteTfdvSchema(*merged) == want);
    CHECK(Named(merged->features, "score").range.nans == 1);
    CHECK(Named(merged->features, "label").range.min_int == -2);
    CHECK(Named(merged->features, "label").range.max_int == 2);
  }
}

}  // namespace
}  // namespace tfq::inspect
