// Records checked against a tensorflow_metadata Schema (tfdv_schema.h): `tfq inspect --validate`.
//
// Anomalies carry TFDV's names (tensorflow_metadata/proto/v0/anomalies.proto, AnomalyInfo.Type):
//   per record
//     SCHEMA_MISSING_COLUMN               a feature with presence min_fraction 1.0 is absent
//     SCHEMA_NEW_COLUMN                   a feature (or feature list) the schema does not declare
//     UNEXPECTED_DATA_TYPE                int64/float/bytes values where the type says otherwise
//     INVALID_FEATURE_SHAPE               a value count other than the shape's product
//     FEATURE_TYPE_LOW_NUMBER_VALUES      fewer values than value_count.min
//     FEATURE_TYPE_HIGH_NUMBER_VALUES     more values than value_count.max
//     INT_TYPE_SMALL_INT, INT_TYPE_BIG_INT         a value outside int_domain
//     FLOAT_TYPE_SMALL_FLOAT, FLOAT_TYPE_BIG_FLOAT a value outside float_domain (NaN passes)
//     ENUM_TYPE_UNEXPECTED_STRING_VALUES  a value outside string_domain
//   over all records (Finish)
//     FEATURE_TYPE_LOW_NUMBER_PRESENT     fewer records hold it than presence.min_count
//     FEATURE_TYPE_LOW_FRACTION_PRESENT   a smaller fraction than presence.min_fraction (< 1.0)
// A Feature with no list set counts as present with no values, of any type. Each feature of a
// record gives at most one anomaly (the first met, in the order above); a feature list is
// checked step by step and gives at most one, naming the step. The feature lists of
// SequenceExamples are checked against the struct_domain of the "##SEQUENCE##" feature.
// Thread safety: none.
#ifndef TFQ_INSPECT_SCHEMA_VALIDATION_H_
#define TFQ_INSPECT_SCHEMA_VALIDATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "example/example_view.h"
#include "inspect/tfdv_schema.h"

namespace tfq::inspect {

struct Anomaly {
  std::string type;     // "SCHEMA_NEW_COLUMN", ...
  std::string feature;  // the feature (or feature list) name
  std::string detail;   // what was found against what the schema says
};

class SchemaValidator {
 public:
  // `schema` must outlive the validator.
  explicit SchemaValidator(const TfdvSchema& schema);

  // Appends the anomalies of one record to *out.
  void CheckExample(const ExampleView& example, std::vector<Anomaly>* out);
  void CheckSequenceExample(const SequenceExampleView& example, std::vector<Anomaly>* out);
  // Appends the anomalies of the records checked, taken together (presence).
  void Finish(std::vector<Anomaly>* out) const;
  // Counts the records `later` (a validator of the same schema) checked as if checked here: for
  // records checked in parts on several threads (inspect/parallel_scan.h).
  void Merge(const SchemaValidator& later);

 private:
  void CheckFeatures(const FeaturesView& features, std::vector<Anomaly>* out);
  void CheckLists(const SequenceExampleView* example, std::vector<Anomaly>* out);

  const TfdvSchema* schema_;
  std::vector<const TfdvFeature*> features_;  // top level, "##SEQUENCE##" left out
  std::vector<const TfdvFeature*> lists_;     // its struct_domain
  std::vector<uint64_t> features_present_;    // records holding each, by index in features_
  std::vector<uint64_t> lists_present_;
  uint64_t records_ = 0;
};

}  // namespace tfq::inspect

#endif  // TFQ_INSPECT_SCHEMA_VALIDATION_H_
