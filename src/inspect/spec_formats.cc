#include "inspect/spec_formats.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "common/json_output.h"
#include "common/json_text.h"
#include "inspect/tfdv_schema.h"

namespace tfq::inspect {
namespace {

// `prefix` + "int64" / "float32" / "string" names of each library's dtypes.
std::string TfDtype(FeatureKind kind, const char* prefix) {
  switch (kind) {
    case FeatureKind::kInt64: return std::string(prefix) + "int64";
    case FeatureKind::kFloat: return std::string(prefix) + "float32";
    default: return std::string(prefix) + "string";
  }
}

// A dense shape as Python: [] for one value (a scalar, as tfq.FixedLen's ()), [n] otherwise.
std::string PythonShape(const InferredFeature& f) {
  if (f.length == 1) return "[]";
  std::string shape = "[";  // appended, not "[" + ...: GCC 12 warns falsely (-Wrestrict) on that
  shape += std::to_string(f.length);
  return shape + "]";
}

// One `    "name": VALUE,` line per feature.
std::string PythonDict(const std::string& variable, const std::vector<InferredFeature>& features,
                       std::string (*value)(const InferredFeature&)) {
  std::string out = variable + " = {\n";
  for (const InferredFeature& f : features) {
    out += "    " + PythonStringLiteral(f.name) + ": " + value(f) + ",\n";
  }
  return out + "}\n";
}

std::string TfFeature(const InferredFeature& f) {
  if (f.dense) return "tf.io.FixedLenFeature(" + PythonShape(f) + ", " + TfDtype(f.kind, "tf.") + ")";
  return "tf.io.RaggedFeature(" + TfDtype(f.kind, "tf.") + ")";
}

std::string TfSequenceFeature(const InferredFeature& f) {
  if (f.dense) {
    return "tf.io.FixedLenSequenceFeature(" + PythonShape(f) + ", " + TfDtype(f.kind, "tf.") + ")";
  }
  return "tf.io.RaggedFeature(" + TfDtype(f.kind, "tf.") + ")";
}

std::string TfqDtype(FeatureKind kind) {
  switch (kind) {
    case FeatureKind::kInt64: return "\"int64\"";
    case FeatureKind::kFloat: return "\"float32\"";
    default: return "\"bytes\"";
  }
}

std::string TfqFeature(const InferredFeature& f) {
  if (!f.dense) return "tfq.VarLen(" + TfqDtype(f.kind) + ")";
  if (f.length == 1) return "tfq.FixedLen(" + TfqDtype(f.kind) + ")";
  return "tfq.FixedLen(" + TfqDtype(f.kind) + ", (" + std::to_string(f.length) + ",))";
}

// DALI wants a default value for every feature; it is used only for a record that lacks it.
std::string DaliDefault(FeatureKind kind) {
  switch (kind) {
    case FeatureKind::kInt64: return "0";
    case FeatureKind::kFloat: return "0.0";
    default: return "\"\"";
  }
}

std::string DaliFeature(const InferredFeature& f) {
  const std::string dtype = TfDtype(f.kind, "tfrec.");
  if (f.dense) {
    return "tfrec.FixedLenFeature(" + PythonShape(f) + ", " + dtype + ", " + DaliDefault(f.kind) + ")";
  }
  return "tfrec.VarLenFeature(" + dtype + ", " + DaliDefault(f.kind) + ")";
}

std::string Header(const InferredSpec& spec) {
  return "# Inferred by tfq inspect --spec from " + std::to_string(spec.records) +
         (spec.records == 1 ? " record" : " records") + " (docs/specs.md).\n";
}

std::string FormatTf(const InferredSpec& spec) {
  std::string out = Header(spec) + "import tensorflow as tf\n\n";
  if (!spec.sequence) return out + PythonDict("features", spec.features, TfFeature);
  out += "# tf.io.parse_sequence_example(serialized, context_features, sequence_features)\n";
  out += PythonDict("context_features", spec.features, TfFeature);
  return out + PythonDict("sequence_features", spec.feature_lists, TfSequenceFeature);
}

// A TFDS tensor: shape [] (scalar), [n], or [-1] for a ragged feature.
nlohmann::ordered_json TfdsTensor(const InferredFeature& f) {
  nlohmann::ordered_json shape = nlohmann::ordered_json::object();
  if (!f.dense || f.length != 1) {
    shape["dimensions"] = {f.dense ? std::to_string(f.length) : "-1"};
  }
  const char* dtype = f.kind == FeatureKind::kInt64   ? "int64"
                      : f.kind == FeatureKind::kFloat ? "float32"
                                                      : "string";
  return {{"pythonClassName", "tensorflow_datasets.core.features.tensor_feature.Tensor"},
          {"tensor", {{"shape", shape}, {"dtype", dtype}, {"encoding", "none"}}}};
}

std::string FormatTfds(const InferredSpec& spec) {
  nlohmann::ordered_json features = nlohmann::ordered_json::object();
  for (const InferredFeature& f : spec.features) features[f.name] = TfdsTensor(f);
  nlohmann::ordered_json root = {
      {"pythonClassName", "tensorflow_datasets.core.features.features_dict.FeaturesDict"},
      {"featuresDict", {{"features", features}}}};
  return ToJsonText(root, 2) + "\n";
}

Status CheckNames(const std::vector<InferredFeature>& features) {
  for (const InferredFeature& f : features) {
    if (!IsValidUtf8(f.name)) {
      return Status::InvalidData("feature name '" + f.name +
                                 "' is not valid UTF-8: no spec format can name it");
    }
  }
  return Status::OK();
}

}  // namespace

Result<SpecFormat> ParseSpecFormat(std::string_view name) {
  if (name == "tf") return SpecFormat::kTf;
  if (name == "tfq") return SpecFormat::kTfq;
  if (name == "tfdv") return SpecFormat::kTfdv;
  if (name == "dali") return SpecFormat::kDali;
  if (name == "tfds") return SpecFormat::kTfds;
  return Status::InvalidArgument("unknown spec format '" + std::string(name) +
                                 "': use tf, tfq, tfdv, dali or tfds");
}

std::string PythonStringLiteral(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

Result<std::string> FormatSpec(const InferredSpec& spec, SpecFormat format) {
  TFQ_RETURN_IF_ERROR(CheckNames(spec.features));
  TFQ_RETURN_IF_ERROR(CheckNames(spec.feature_lists));
  if (spec.sequence && (format == SpecFormat::kTfq || format == SpecFormat::kDali ||
                        format == SpecFormat::kTfds)) {
    return Status::InvalidData(
        "the records are tf.train.SequenceExamples, which this format cannot describe "
        "(tfq, dali and tfds read tf.train.Example): use --spec tf or --spec tfdv");
  }
  switch (format) {
    case SpecFormat::kTf: return FormatTf(spec);
    case SpecFormat::kTfq:
      return Header(spec) + "import tfq\n\n" + PythonDict("features", spec.features, TfqFeature);
    case SpecFormat::kDali:
      return Header(spec) + "from nvidia.dali import tfrecord as tfrec\n\n" +
             PythonDict("features", spec.features, DaliFeature);
    case SpecFormat::kTfds: return FormatTfds(spec);
    case SpecFormat::kTfdv: return WriteTfdvSchema(spec);
  }
  return Status::Internal("unknown spec format");
}

}  // namespace tfq::inspect
