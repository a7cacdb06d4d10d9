// Feature specs inferred from records: what a training job needs to be told to read them.
//
// One implementation for every consumer: `tfq inspect --spec` prints it in five formats
// (spec_formats.h, tfdv_schema.h) and the Python package's `features=None` uses it (it began
// there, in python/src/spec_inference.cc; the rule below is the same, so the two agree).
//
// The rule, per feature of the records looked at (SchemaBuilder's counts):
//   - one kind, present in every record with the same count n >= 1: dense, length n
//     (FixedLenFeature; n == 1 is a scalar);
//   - one kind otherwise (missing from some records, or counts that differ): ragged (VarLen);
//   - no kind at all (only Features with no list set): left out, as there is no dtype to give
//     (InferredSpec::untyped names them);
//   - int64 in some records and float or bytes in others: kInvalidData naming the feature.
// A SequenceExample feature list is dense when every step of every record holding it has the
// same count n >= 1 (FixedLenSequenceFeature([n])), ragged otherwise, by the same kind rule.
// Features and feature lists come sorted by name.
#ifndef TFQ_INSPECT_SPEC_INFERENCE_H_
#define TFQ_INSPECT_SPEC_INFERENCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "example/example_view.h"
#include "inspect/capped_map.h"
#include "inspect/schema.h"
#include "io/compression.h"
#include "tfrecord/record_reader.h"

namespace tfq::inspect {

// The smallest and largest numeric values seen (NaN is counted apart: it has no order).
struct ValueRange {
  uint64_t values = 0;  // non-NaN numbers seen
  uint64_t nans = 0;
  int64_t min_int = 0, max_int = 0;  // int64 features
  double min_float = 0, max_float = 0;  // float features (infinities included)

  void AddInt(int64_t v);
  void AddFloat(float v);
  void Merge(const ValueRange& other);
};

// One inferred feature (or feature list, whose counts are per step).
struct InferredFeature {
  std::string name;
  FeatureKind kind = FeatureKind::kNone;  // kBytes, kFloat or kInt64
  bool dense = false;    // the rule above; `length` values each
  uint64_t length = 0;   // dense: values per record (per step for a feature list)
  uint64_t present_in = 0;           // records holding it
  double presence_fraction = 0;      // present_in / records looked at
  uint64_t min_count = 0, max_count = 0;  // values per record (per step for a list)
  ValueRange range;                  // int64 and float features
  // Feature lists only: steps per record holding the list.
  uint64_t min_steps = 0, max_steps = 0;
};

struct InferredSpec {
  uint64_t records = 0;  // records looked at
  bool sequence = false;  // SequenceExamples: `features` is the context
  std::vector<InferredFeature> features;
  std::vector<InferredFeature> feature_lists;
  // Features that never held a list (kind kNone): no spec with a dtype can name them, but a
  // TFDV schema can (without a type), so that checking the same records finds nothing new.
  std::vector<InferredFeature> untyped;
};

// Accumulates what the rule needs from a stream of parsed records. Thread safety: none.
class SpecBuilder {
 public:
  explicit SpecBuilder(size_t max_features = kDefaultMaxFeatures)
      : schema_(max_features), ranges_(max_features), list_ranges_(max_features) {}
  void AddExample(const ExampleView& example);
  void AddSequenceExample(const SequenceExampleView& example);
  // Adds what `later` saw, as if its records had been added here after these: the same spec as
  // one builder that saw them all (while the names fit under max_features). For a stream read
  // in parts on several threads (inspect/parallel_scan.h).
  void Merge(const SpecBuilder& later);
  uint64_t records() const { return records_; }

  // The spec of the records added. kInvalidData when there were none, when more than
  // max_features names were met (the spec would be incomplete), or when a feature held two
  // kinds; the message names the feature and says how many records were looked at.
  Result<InferredSpec> Finish() const;

 private:
  void AddRanges(const FeaturesView& features, CappedMap<ValueRange>* ranges);
  SchemaBuilder schema_;
  CappedMap<ValueRange> ranges_;
  CappedMap<ValueRange> list_ranges_;
  uint64_t records_ = 0;
  bool sequence_ = false;
};

struct SpecInferenceOptions {
  uint64_t max_records = 1000;  // read the files in order until this many records
  Compression compression = Compression::kAuto;
  DecompressionLimit decompression = DecompressionLimit::Default();
  uint64_t max_record_bytes = tfrecord::kDefaultMaxRecordBytes;
};

// Reads the first options.max_records records of `paths` (expanded already) as Examples and
// infers their spec. A file that cannot be read, a corrupt record or an Example that does not
// parse is an error naming the file, record and byte offset; no record at all is kInvalidData.
Result<InferredSpec> InferSpecFromFiles(const std::vector<std::string>& paths,
                                        const SpecInferenceOptions& options);

}  // namespace tfq::inspect

#endif  // TFQ_INSPECT_SPEC_INFERENCE_H_
