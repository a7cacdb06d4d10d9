// Feature specs inferred from the first records of TFRecord files, for tfq.Dataset's
// `features=None` (docs/python.md, "Inferring the features"): inspect::InferSpecFromFiles (the
// one implementation, which `tfq inspect --spec` prints) turned into the pipeline's specs.
#ifndef TFQ_PYTHON_SPEC_INFERENCE_H_
#define TFQ_PYTHON_SPEC_INFERENCE_H_

#include <string>
#include <vector>

#include "common/status.h"
#include "inspect/spec_inference.h"
#include "pipeline/options.h"

namespace tfq::python {

using inspect::SpecInferenceOptions;

// `paths`: expanded already (ExpandInputPaths). Dense features become FixedLen specs, ragged ones
// VarLen; features that never hold a list are left out. Errors are InferSpecFromFiles' (a file
// that cannot be read, a corrupt record, no records, a feature of two kinds), with what to do.
Result<std::vector<pipeline::FeatureSpec>> InferFeatureSpecs(const std::vector<std::string>& paths,
                                                             const SpecInferenceOptions& options);

}  // namespace tfq::python

#endif  // TFQ_PYTHON_SPEC_INFERENCE_H_
