// The subset of tensorflow_metadata's Schema (tensorflow_metadata/proto/v0/schema.proto, a copy in
// tests/fixtures/tensorflow_metadata/) that tfq writes (`inspect --spec tfdv`) and checks records
// against (`inspect --validate`, schema_validation.h), in protobuf text format.
//
// Per feature: name, type (INT, FLOAT, BYTES; STRUCT for the SequenceExample feature lists, as
// TFX's "##SEQUENCE##" feature), presence {min_fraction min_count}, shape {dim {size}} (every
// record holds the product of the sizes; no dim is one value) or value_count {min max},
// int_domain / float_domain {min max} and string_domain {value} (inline, or named by `domain`
// and declared at the top level). Every other field of a Schema is read past and not checked.
#ifndef TFQ_INSPECT_TFDV_SCHEMA_H_
#define TFQ_INSPECT_TFDV_SCHEMA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "inspect/spec_inference.h"

namespace tfq::inspect {

// TFX's name for the feature whose struct_domain holds the feature lists of SequenceExamples.
inline constexpr std::string_view kSequenceFeatureName = "##SEQUENCE##";

enum class TfdvType { kUnknown, kBytes, kInt, kFloat, kStruct };
std::string_view TfdvTypeName(TfdvType type);  // "BYTES", "INT", ...

struct TfdvFeature {
  std::string name;
  int line = 0;  // where it is declared in the schema file
  TfdvType type = TfdvType::kUnknown;
  std::optional<double> min_fraction;  // presence
  std::optional<int64_t> min_count;
  std::optional<std::vector<int64_t>> shape;  // dim sizes; empty: one value
  std::optional<int64_t> min_values, max_values;  // value_count
  std::optional<int64_t> int_min, int_max;        // int_domain
  std::optional<double> float_min, float_max;     // float_domain
  std::optional<std::vector<std::string>> string_values;  // string_domain
  std::vector<TfdvFeature> struct_features;  // struct_domain

  // Values per record (per step for a feature list) the shape asks for.
  std::optional<int64_t> ShapeValues() const;
};

struct TfdvSchema {
  std::vector<TfdvFeature> features;
  // The "##SEQUENCE##" feature, or null.
  const TfdvFeature* sequence() const;
};

// The Schema TFDV's infer_schema would write for the spec, in protobuf text format: a dense
// feature gets shape {dim {size: n}}, a ragged one value_count {min max}; presence is
// min_fraction 1.0 where every record holds the feature, and min_count 1 always; numeric
// features get the int_domain / float_domain of the values seen (none for floats with NaN or
// infinities); a feature that never held a list is written without a type, value_count {0, 0}.
std::string WriteTfdvSchema(const InferredSpec& spec);

// Reads a Schema in protobuf text format. Errors are kInvalidData naming the line.
Result<TfdvSchema> ParseTfdvSchema(std::string_view text);
// Reads and parses the file; errors name it ("PATH: line L: ..."). At most 64 MiB are read.
Result<TfdvSchema> ReadTfdvSchemaFile(const std::string& path);

}  // namespace tfq::inspect

#endif  // TFQ_INSPECT_TFDV_SCHEMA_H_
