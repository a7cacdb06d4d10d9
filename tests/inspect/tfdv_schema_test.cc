// The TFDV schema subset: what --spec tfdv writes, and the protobuf text reader under --validate.
#include "inspect/tfdv_schema.h"

#include <doctest/doctest.h>

#include "inspect/protobuf_text.h"
#include "spec_test_util.h"

namespace tfq::inspect {
namespace {

TEST_CASE("--spec tfdv: shape for dense, value_count for ragged, presence and domains") {
  std::vector<Example> records;
  for (int i = 0; i < 2; ++i) {
    Example e;
    e.features.push_back({"label", Feature::Int64s({i})});
    e.features.push_back({"score", Feature::Floats({0.5f * static_cast<float>(i)})});
    if (i == 1) e.features.push_back({"tags", Feature::Bytes({"a", "b"})});
    records.push_back(e);
  }
  Result<InferredSpec> spec = InferFrom(records);
  REQUIRE(spec.ok());
  CHECK(WriteTfdvSchema(*spec) ==
        "# Inferred by tfq inspect --spec tfdv from 2 records: a tensorflow_metadata.v0.Schema "
        "(docs/specs.md).\n"
        "feature {\n  name: \"label\"\n  type: INT\n"
        "  int_domain {\n    min: 0\n    max: 1\n  }\n"
        "  presence {\n    min_fraction: 1.0\n    min_count: 1\n  }\n"
        "  shape {\n    dim {\n      size: 1\n    }\n  }\n}\n"
        "feature {\n  name: \"score\"\n  type: FLOAT\n"
        "  float_domain {\n    min: 0.0\n    max: 0.5\n  }\n"
        "  presence {\n    min_fraction: 1.0\n    min_count: 1\n  }\n"
        "  shape {\n    dim {\n      size: 1\n    }\n  }\n}\n"
        "feature {\n  name: \"tags\"\n  type: BYTES\n"
        "  presence {\n    min_count: 1\n  }\n"
        "  value_count {\n    min: 2\n    max: 2\n  }\n}\n");
}

TEST_CASE("tfdv schema: what is written reads back the same") {
  SequenceExample s;
  s.context.push_back({"id\"x", Feature::Int64s({-5})});
  s.feature_lists.push_back({"frames", {Feature::Floats({1, 2}), Feature::Floats({3, 4})}});
  Result<InferredSpec> spec = InferFromSequences({s});
  REQUIRE(spec.ok());
  Result<TfdvSchema> schema = ParseTfdvSchema(WriteTfdvSchema(*spec));
  REQUIRE(schema.ok());
  REQUIRE(schema->features.size() == 2);
  const TfdvFeature& id = schema->features[0];
  CHECK(id.name == "id\"x");
  CHECK(id.type == TfdvType::kInt);
  CHECK(id.int_min == -5);
  CHECK(id.min_fraction == 1.0);
  CHECK(id.ShapeValues() == 1);
  const TfdvFeature* seq = schema->sequence();
  REQUIRE(seq != nullptr);
  CHECK(seq->type == TfdvType::kStruct);
  REQUIRE(seq->struct_features.size() == 1);
  CHECK(seq->struct_features[0].name == "frames");
  CHECK(seq->struct_features[0].ShapeValues() == 2);
  CHECK(seq->struct_features[0].float_max == 4.0);
}

TEST_CASE("tfdv schema reader: the text format as protobuf writes and accepts it") {
  Result<TfdvSchema> schema = ParseTfdvSchema(R"(
# a comment
string_domain { name: "colors" value: "red" value: 'gr' "een" }
feature: {
  name: "color" type: BYTES domain: "colors"  # named domain
  presence < min_fraction: 0.5; min_count: 2 >
}
feature { name: "n", type: INT, value_count { min: 1 max: 3 } int_domain { max: 9 } }
feature { name: "img" type: FLOAT shape { dim { size: 2 } dim { size: 3 } } skew_comparator { infinity_norm { threshold: 0.1 } } }
feature { name: "esc\101\x42\n" }
)");
  REQUIRE(schema.ok());
  REQUIRE(schema->features.size() == 4);
  const TfdvFeature& color = schema->features[0];
  CHECK(color.string_values == std::vector<std::string>{"red", "green"});
  CHECK(color.min_fraction == 0.5);
  CHECK(color.min_count == 2);
  CHECK(schema->features[1].min_values == 1);
  CHECK(schema->features[1].max_values == 3);
  CHECK_FALSE(schema->features[1].int_min.has_value());
  CHECK(schema->features[1].int_max == 9);
  CHECK(schema->features[2].ShapeValues() == 6);
  CHECK(schema->features[3].name == "escAB\n");
  CHECK(schema->features[3].type == TfdvType::kUnknown);
}

TEST_CASE("tfdv schema reader: errors name the line") {
  auto message = [](const char* text) {
    Result<TfdvSchema> s = ParseTfdvSchema(text);
    REQUIRE_FALSE(s.ok());
    CHECK(s.status().code() == StatusCode::kInvalidData);
    return s.status().message();
  };
  CHECK(message("feature {\n  name: \"a\"\n") == "line 3, column 1: missing '}'");
  CHECK(message("feature {\n name: \"a\"\n type: TEXT\n}") ==
        "line 3: unknown type 'TEXT' (INT, FLOAT, BYTES or STRUCT)");
  CHECK(message("feature {\n type: INT\n}") == "line 1: a feature without a name");
  CHECK(message("feature { name: \"a\" value_count { min: x } }") == "line 1: 'min' is not a whole number");
  CHECK(message("feature { name: \"a\" domain: \"nope\" }") ==
        "line 1: domain 'nope' is not declared at the top level");
  CHECK(message("feature { name: \"a\n\" }") == "line 1, column 19: unterminated string");
  CHECK(message("[ext.x] { }").find("extensions") != std::string::npos);
  CHECK(message("feature name") == "line 1, column 9: expected ':' or '{' after 'feature'");
}

TEST_CASE("protobuf text: the list form and deep nesting") {
  Result<TextMessage> m = ParseProtobufText("v: [1, 2, 3] m: [{a: 1}, {a: 2}]");
  REQUIRE(m.ok());
  CHECK(m->All("v").size() == 3);
  CHECK(m->All("m").size() == 2);
  CHECK(m->Last("m")->message->Last("a")->scalar == "2");
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "a {";
  Result<TextMessage> too_deep = ParseProtobufText(deep);
  REQUIRE_FALSE(too_deep.ok());
  CHECK(too_deep.status().message().find("nested more than 100 deep") != std::string::npos);
}

}  // namespace
}  // namespace tfq::inspect
