// Feature specs inferred from the first records of TFRecord files: what tfq.Dataset uses when it
// is given no `features` (docs/python.md, "Inferring the features").
//
// The rule, per feature of the records looked at (inspect::SchemaBuilder's schema):
//   - one kind, present in every record with the same count n >= 1: a dense feature of length n
//     (FixedLenFeature; n == 1 is a scalar);
//   - one kind otherwise (missing from some records, or counts that differ): ragged
//     (VarLenFeature);
//   - no kind at all (only Features with no list set): left out, as there is no dtype to give;
//   - int64 in some records and float or bytes in others: kInvalidData naming the feature.
// Features come sorted by name. SequenceExample feature lists are not looked at.
//
// Written here, beside the binding, until the CLI's `inspect --spec` shares it; it depends on
// nothing from Python.
#ifndef TFQ_PYTHON_SPEC_INFERENCE_H_
#define TFQ_PYTHON_SPEC_INFERENCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "io/compression.h"
#include "pipeline/options.h"

namespace tfq::python {

struct SpecInferenceOptions {
  uint64_t max_records = 1000;  // read the files in order until this many records
  Compression compression = Compression::kAuto;
  DecompressionLimit decompression = DecompressionLimit::Default();
  uint64_t max_record_bytes = tfrecord::kDefaultMaxRecordBytes;
};

// `paths`: expanded already (ExpandInputPaths). A file that cannot be read, a corrupt record or
// an Example that does not parse is an error naming the file, record and byte offset; no record
// at all is kInvalidData.
Result<std::vector<pipeline::FeatureSpec>> InferFeatureSpecs(const std::vector<std::string>& paths,
                                                             const SpecInferenceOptions& options);

}  // namespace tfq::python

#endif  // TFQ_PYTHON_SPEC_INFERENCE_H_
