#include "spec_inference.h"

#include <utility>

namespace tfq::python {

Result<std::vector<pipeline::FeatureSpec>> InferFeatureSpecs(const std::vector<std::string>& paths,
                                                             const SpecInferenceOptions& options) {
  Result<inspect::InferredSpec> inferred = inspect::InferSpecFromFiles(paths, options);
  if (!inferred.ok()) {
    const Status& s = inferred.status();
    if (s.code() != StatusCode::kInvalidData) return s;
    return Status::InvalidData(s.message() + ": give features= explicitly");
  }
  std::vector<pipeline::FeatureSpec> specs;
  for (const inspect::InferredFeature& f : inferred->features) {
    const auto length = static_cast<size_t>(f.length);
    switch (f.kind) {
      case FeatureKind::kInt64:
        specs.push_back(f.dense ? pipeline::FixedLenInt64(f.name, length) : pipeline::VarLenInt64(f.name));
        break;
      case FeatureKind::kFloat:
        specs.push_back(f.dense ? pipeline::FixedLenFloat(f.name, length) : pipeline::VarLenFloat(f.name));
        break;
      case FeatureKind::kBytes:
        specs.push_back(f.dense ? pipeline::FixedLenBytes(f.name, length) : pipeline::VarLenBytes(f.name));
        break;
      case FeatureKind::kNone: break;
    }
  }
  return specs;
}

}  // namespace tfq::python
