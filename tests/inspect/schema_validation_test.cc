// SchemaValidator: one test per anomaly, each from a record damaged in one way against the schema
// inferred from good records.
#include "inspect/schema_validation.h"

#include <doctest/doctest.h>

#include "inspect/spec_formats.h"
#include "spec_test_util.h"

namespace tfq::inspect {
namespace {

Example Good(int i) {
  Example e;
  e.features.push_back({"label", Feature::Int64s({i % 3})});
  e.features.push_back({"xy", Feature::Floats({0.25f, 0.75f})});
  e.features.push_back({"tags", Feature::Bytes(std::vector<std::string>(1 + i % 2, "t"))});
  return e;
}

TfdvSchema InferredSchema() {
  std::vector<Example> records;
  for (int i = 0; i < 6; ++i) records.push_back(Good(i));
  Result<InferredSpec> spec = InferFrom(records);
  REQUIRE(spec.ok());
  Result<TfdvSchema> schema = ParseTfdvSchema(WriteTfdvSchema(*spec));
  REQUIRE(schema.ok());
  return *schema;
}

std::vector<Anomaly> Check(const TfdvSchema& schema, const std::vector<Example>& records) {
  SchemaValidator validator(schema);
  std::vector<Anomaly> out;
  for (const Example& e : records) {
    std::string bytes;
    SerializeExample(e, &bytes);
    ExampleView view;
    REQUIRE(view.Parse(bytes).ok());
    validator.CheckExample(view, &out);
  }
  validator.Finish(&out);
  return out;
}

// The one anomaly of a record with `name` replaced by `feature` (or removed when kind is unset
// and no list is given).
std::vector<Anomaly> WithFeature(const std::string& name, std::optional<Feature> feature) {
  Example e = Good(0);
  auto& fs = e.features;
  fs.erase(std::remove_if(fs.begin(), fs.end(), [&](auto& kv) { return kv.first == name; }), fs.end());
  if (feature) fs.push_back({name, *feature});
  return Check(InferredSchema(), {Good(1), e});
}

void CheckOne(const std::vector<Anomaly>& found, const std::string& type, const std::string& feature,
              const std::string& detail) {
  REQUIRE(found.size() == 1);
  CHECK(found[0].type == type);
  CHECK(found[0].feature == feature);
  CHECK(found[0].detail == detail);
}

TEST_CASE("validation: the records the schema was inferred from have no anomaly") {
  std::vector<Example> records;
  for (int i = 0; i < 6; ++i) records.push_back(Good(i));
  CHECK(Check(InferredSchema(), records).empty());
}

TEST_CASE("validation: a feature dropped is SCHEMA_MISSING_COLUMN") {
  CheckOne(WithFeature("label", std::nullopt), "SCHEMA_MISSING_COLUMN", "label",
           "absent; presence min_fraction is 1.0");
}

TEST_CASE("validation: a type changed is UNEXPECTED_DATA_TYPE") {
  CheckOne(WithFeature("label", Feature::Floats({1.0f})), "UNEXPECTED_DATA_TYPE", "label",
           "expected INT, got float");
}

TEST_CASE("validation: a dense list grown is INVALID_FEATURE_SHAPE") {
  CheckOne(WithFeature("xy", Feature::Floats({0.25f, 0.5f, 0.75f})), "INVALID_FEATURE_SHAPE", "xy",
           "3 values; the shape asks for 2");
}

TEST_CASE("validation: a ragged list grown or emptied leaves value_count") {
  CheckOne(WithFeature("tags", Feature::Bytes({"a", "b", "c"})), "FEATURE_TYPE_HIGH_NUMBER_VALUES",
           "tags", "3 values; value_count max is 2");
  CheckOne(WithFeature("tags", Feature::Bytes({})), "FEATURE_TYPE_LOW_NUMBER_VALUES", "tags",
           "0 values; value_count min is 1");
}

TEST_CASE("validation: a new feature is SCHEMA_NEW_COLUMN") {
  CheckOne(WithFeature("extra", Feature::Int64s({1, 2})), "SCHEMA_NEW_COLUMN", "extra",
           "not in the schema (int64, 2 values)");
}

TEST_CASE("validation: values outside the domains") {
  CheckOne(WithFeature("label", Feature::Int64s({3})), "INT_TYPE_BIG_INT", "label",
           "value 3 above int_domain max 2");
  CheckOne(WithFeature("label", Feature::Int64s({-1})), "INT_TYPE_SMALL_INT", "label",
           "value -1 below int_domain min 0");
  CheckOne(WithFeature("xy", Feature::Floats({0.25f, 0.8f})), "FLOAT_TYPE_BIG_FLOAT", "xy",
           "value 0.800000012 above float_domain max 0.75");
  CheckOne(WithFeature("xy", Feature::Floats({0.0f, 0.75f})), "FLOAT_TYPE_SMALL_FLOAT", "xy",
           "value 0 below float_domain min 0.25");
  Result<TfdvSchema> colors = ParseTfdvSchema(
      "feature { name: \"c\" type: BYTES string_domain { value: \"red\" value: \"blue\" } }");
  REQUIRE(colors.ok());
  Example e;
  e.features.push_back({"c", Feature::Bytes({"red", "green"})});
  CheckOne(Check(*colors, {e}), "ENUM_TYPE_UNEXPECTED_STRING_VALUES", "c",
           "value 'green' is not in the string_domain");
}

TEST_CASE("validation: presence over all records") {
  Result<TfdvSchema> schema = ParseTfdvSchema(
      "feature { name: \"a\" type: INT presence { min_fraction: 0.5 } }\n"
      "feature { name: \"b\" type: INT presence { min_count: 3 } }");
  REQUIRE(schema.ok());
  Example with_both, with_b;
  with_both.features = {{"a", Feature::Int64s({1})}, {"b", Feature::Int64s({1})}};
  with_b.features = {{"b", Feature::Int64s({1})}};
  std::vector<Anomaly> found = Check(*schema, {with_both, with_b, with_b});
  REQUIRE(found.size() == 1);
  CHECK(found[0].type == "FEATURE_TYPE_LOW_FRACTION_PRESENT");
  CHECK(found[0].detail == "in 1 of 3 records; presence min_fraction is 0.5");
  found = Check(*schema, {with_both, with_both});
  REQUIRE(found.size() == 1);
  CHECK(found[0].type == "FEATURE_TYPE_LOW_NUMBER_PRESENT");
  CHECK(found[0].detail == "in 2 records; presence min_count is 3");
}

// `tfq inspect --validate` checks stretches on several threads and merges their validators: the
// anomalies over all records must be those of one pass, wherever the records were split.
TEST_CASE("validation: validators of parts, merged, count presence as one pass") {
  Result<TfdvSchema> schema = ParseTfdvSchema(
      "feature { name: \"a\" type: INT presence { min_fraction: 0.5 } }\n"
      "feature { name: \"b\" type: INT presence { min_count: 4 } }");
  REQUIRE(schema.ok());
  Example with_both, with_b;
  with_both.features = {{"a", Feature::Int64s({1})}, {"b", Feature::Int64s({1})}};
  with_b.features = {{"b", Feature::Int64s({1})}};
  const std::vector<Example> records = {with_both, with_b, with_b};
  const std::vector<Anomaly> want = Check(*schema, records);
  REQUIRE(want.size() == 2);  // a in 1 of 3 records, b in 3
  for (size_t cut = 0; cut <= records.size(); ++cut) {
    CAPTURE(cut);
    SchemaValidator first(*schema), second(*schema);
    std::vector<Anomaly> per_record;
    for (size_t i = 0; i < records.size(); ++i) {
      std::string bytes;
      SerializeExample(records[i], &bytes);
      ExampleView view;
      REQUIRE(view.Parse(bytes).ok());
      (i < cut ? first : second).CheckExample(view, &per_record);
    }
    CHECK(per_record.empty());
    first.Merge(second);
    std::vector<Anomaly> found;
    first.Finish(&found);
    REQUIRE(found.size() == want.size());
    for (size_t k = 0; k < found.size(); ++k) {
      CHECK(found[k].type == want[k].type);
      CHECK(found[k].detail == want[k].detail);
    }
  }
}

TEST_CASE("validation: SequenceExample feature lists against ##SEQUENCE##") {
  SequenceExample s;
  s.context.push_back({"id", Feature::Int64s({1})});
  s.feature_lists.push_back({"frames", {Feature::Floats({1, 2}), Feature::Floats({3, 4})}});
  Result<InferredSpec> spec = InferFromSequences({s});
  REQUIRE(spec.ok());
  Result<TfdvSchema> schema = ParseTfdvSchema(WriteTfdvSchema(*spec));
  REQUIRE(schema.ok());
  auto check = [&](const SequenceExample& record) {
    SchemaValidator validator(*schema);
    std::vector<Anomaly> out;
    std::string bytes;
    SerializeSequenceExample(record, &bytes);
    SequenceExampleView view;
    REQUIRE(view.Parse(bytes).ok());
    validator.CheckSequenceExample(view, &out);
    return out;
  };
  CHECK(check(s).empty());
  SequenceExample grown = s;
  grown.feature_lists[0].second.push_back(Feature::Floats({1, 2, 3}));
  CheckOne(check(grown), "INVALID_FEATURE_SHAPE", "frames", "step 2: 3 values; the shape asks for 2");
  SequenceExample dropped = s;
  dropped.feature_lists.clear();
  dropped.feature_lists.push_back({"other", {Feature::Int64s({1})}});
  std::vector<Anomaly> found = check(dropped);
  REQUIRE(found.size() == 2);
  CHECK(found[0].type == "SCHEMA_MISSING_COLUMN");
  CHECK(found[0].detail == "feature list absent; presence min_fraction is 1.0");
  CHECK(found[1].type == "SCHEMA_NEW_COLUMN");
  CHECK(found[1].feature == "other");
}

}  // namespace
}  // namespace tfq::inspect
