// The formats of `tfq inspect --spec`: exact text for a small spec (the e2e test evaluates the
// Python ones and parses the tfdv one with protobuf).
#include "inspect/spec_formats.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "spec_test_util.h"

namespace tfq::inspect {
namespace {

InferredSpec SmallSpec() {
  std::vector<Example> records;
  for (int i = 0; i < 2; ++i) {
    Example e;
    e.features.push_back({"label", Feature::Int64s({i})});
    e.features.push_back({"xy", Feature::Floats({1.0f, 2.0f})});
    e.features.push_back({"tags", Feature::Bytes(std::vector<std::string>(i + 1, "t"))});
    records.push_back(e);
  }
  Result<InferredSpec> spec = InferFrom(records);
  REQUIRE(spec.ok());
  return *spec;
}

std::string Format(const InferredSpec& spec, SpecFormat format) {
  Result<std::string> text = FormatSpec(spec, format);
  REQUIRE(text.ok());
  return *text;
}

TEST_CASE("--spec tf: FixedLenFeature for dense, RaggedFeature for ragged") {
  CHECK(Format(SmallSpec(), SpecFormat::kTf) ==
        "# Inferred by tfq inspect --spec from 2 records (docs/specs.md).\n"
        "import tensorflow as tf\n\n"
        "features = {\n"
        "    \"label\": tf.io.FixedLenFeature([], tf.int64),\n"
        "    \"tags\": tf.io.RaggedFeature(tf.string),\n"
        "    \"xy\": tf.io.FixedLenFeature([2], tf.float32),\n"
        "}\n");
}

TEST_CASE("--spec tfq: tfq.FixedLen / tfq.VarLen as docs/python.md writes them") {
  CHECK(Format(SmallSpec(), SpecFormat::kTfq) ==
        "# Inferred by tfq inspect --spec from 2 records (docs/specs.md).\n"
        "import tfq\n\n"
        "features = {\n"
        "    \"label\": tfq.FixedLen(\"int64\"),\n"
        "    \"tags\": tfq.VarLen(\"bytes\"),\n"
        "    \"xy\": tfq.FixedLen(\"float32\", (2,)),\n"
        "}\n");
}

TEST_CASE("--spec dali: tfrec features with the default value DALI requires") {
  CHECK(Format(SmallSpec(), SpecFormat::kDali) ==
        "# Inferred by tfq inspect --spec from 2 records (docs/specs.md).\n"
        "from nvidia.dali import tfrecord as tfrec\n\n"
        "features = {\n"
        "    \"label\": tfrec.FixedLenFeature([], tfrec.int64, 0),\n"
        "    \"tags\": tfrec.VarLenFeature(tfrec.string, \"\"),\n"
        "    \"xy\": tfrec.FixedLenFeature([2], tfrec.float32, 0.0),\n"
        "}\n");
}

TEST_CASE("--spec tfds: a FeaturesDict of Tensors; -1 for the ragged dimension") {
  const auto j = nlohmann::json::parse(Format(SmallSpec(), SpecFormat::kTfds));
  CHECK(j["pythonClassName"] == "tensorflow_datasets.core.features.features_dict.FeaturesDict");
  const auto& f = j["featuresDict"]["features"];
  CHECK(f["label"]["pythonClassName"] == "tensorflow_datasets.core.features.tensor_feature.Tensor");
  CHECK(f["label"]["tensor"] == nlohmann::json::parse(
                                    R"({"shape": {}, "dtype": "int64", "encoding": "none"})"));
  CHECK(f["xy"]["tensor"]["shape"]["dimensions"] == nlohmann::json::array({"2"}));
  CHECK(f["xy"]["tensor"]["dtype"] == "float32");
  CHECK(f["tags"]["tensor"]["shape"]["dimensions"] == nlohmann::json::array({"-1"}));
  CHECK(f["tags"]["tensor"]["dtype"] == "string");
}

TEST_CASE("--spec tf for SequenceExamples: context_features and sequence_features") {
  SequenceExample s;
  s.context.push_back({"id", Feature::Int64s({1})});
  s.feature_lists.push_back({"frames", {Feature::Floats({1, 2}), Feature::Floats({3, 4})}});
  s.feature_lists.push_back({"words", {Feature::Bytes({"a"}), Feature::Bytes({"b", "c"})}});
  Result<InferredSpec> spec = InferFromSequences({s});
  REQUIRE(spec.ok());
  CHECK(Format(*spec, SpecFormat::kTf) ==
        "# Inferred by tfq inspect --spec from 1 record (docs/specs.md).\n"
        "import tensorflow as tf\n\n"
        "# tf.io.parse_sequence_example(serialized, context_features, sequence_features)\n"
        "context_features = {\n"
        "    \"id\": tf.io.FixedLenFeature([], tf.int64),\n"
        "}\n"
        "sequence_features = {\n"
        "    \"frames\": tf.io.FixedLenSequenceFeature([2], tf.float32),\n"
        "    \"words\": tf.io.RaggedFeature(tf.string),\n"
        "}\n");
  for (SpecFormat f : {SpecFormat::kTfq, SpecFormat::kDali, SpecFormat::kTfds}) {
    Result<std::string> text = FormatSpec(*spec, f);
    REQUIRE_FALSE(text.ok());
    CHECK(text.status().code() == StatusCode::kInvalidData);
  }
}

TEST_CASE("feature names are escaped for Python; names that are not UTF-8 are refused") {
  CHECK(PythonStringLiteral("a\"b\\c\nd é") == "\"a\\\"b\\\\c\\x0ad é\"");
  Example e;
  e.features.push_back({std::string("bad\xff"), Feature::Int64s({1})});
  Result<InferredSpec> spec = InferFrom({e});
  REQUIRE(spec.ok());
  Result<std::string> text = FormatSpec(*spec, SpecFormat::kTf);
  REQUIRE_FALSE(text.ok());
  CHECK(text.status().message().find("not valid UTF-8") != std::string::npos);
}

TEST_CASE("ParseSpecFormat: the five names; others are a usage error listing them") {
  CHECK(ParseSpecFormat("tfdv").value() == SpecFormat::kTfdv);
  Result<SpecFormat> bad = ParseSpecFormat("json");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code() == StatusCode::kInvalidArgument);
  CHECK(bad.status().message() == "unknown spec format 'json': use tf, tfq, tfdv, dali or tfds");
}

}  // namespace
}  // namespace tfq::inspect
