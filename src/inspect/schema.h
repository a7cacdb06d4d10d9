// Schema inference over records: which features occur, with which kinds and how many values.
//
// This is what `tfq inspect` prints by default; the field meanings match the oracle's summary
// (../shared/oracle) so the two can be compared: `present_in` counts records holding the feature,
// `min_count`/`max_count`/`total_values` count values per record, `kinds_seen` lists every kind met
// ("none" for a Feature with no list set) and `kind` is the one real kind, "mixed", or "none".
#ifndef TFQ_INSPECT_SCHEMA_H_
#define TFQ_INSPECT_SCHEMA_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "example/example_view.h"
#include "inspect/capped_map.h"

namespace tfq::inspect {

// Per-feature value-count statistics.
struct FeatureSchema {
  uint8_t kinds_seen = 0;  // bit (1 << FeatureKind)
  uint64_t present_in = 0;
  uint64_t min_count = 0;
  uint64_t max_count = 0;
  uint64_t total_values = 0;

  void Add(FeatureKind kind, uint64_t count);
  void Merge(const FeatureSchema& other);
  // "int64", "float", "bytes", "mixed" or "none".
  std::string KindName() const;
  nlohmann::json ToJson() const;
};

// A feature list of SequenceExamples: step statistics plus steps per record.
struct FeatureListSchema {
  FeatureSchema steps;        // one Add per step
  uint64_t present_in = 0;    // records holding the list
  uint64_t min_steps = 0;
  uint64_t max_steps = 0;

  void Merge(const FeatureListSchema& other);
  nlohmann::json ToJson() const;
};

// Accumulates the schema of a stream of records. Feature names are copied once per new name, for
// at most `max_features` names (each of features/context and feature lists); later names are
// pooled in one entry (capped_map.h).
class SchemaBuilder {
 public:
  explicit SchemaBuilder(size_t max_features = kDefaultMaxFeatures)
      : features_(max_features), feature_lists_(max_features) {}
  void AddExample(const ExampleView& example);
  void AddSequenceExample(const SequenceExampleView& example);
  void Merge(const SchemaBuilder& other);

  const std::map<std::string, FeatureSchema, std::less<>>& features() const {
    return features_.names();
  }
  const std::map<std::string, FeatureListSchema, std::less<>>& feature_lists() const {
    return feature_lists_.names();
  }
  const CappedMap<FeatureSchema>& capped_features() const { return features_; }
  const CappedMap<FeatureListSchema>& capped_feature_lists() const { return feature_lists_; }
  // {"features": {...}} or, for SequenceExamples, {"context": {...}, "feature_lists": {...}};
  // once the cap was reached, also "features_over_cap" (or "context_over_cap",
  // "feature_lists_over_cap"): {"max_features": N, "occurrences": K, ...the pooled schema}.
  nlohmann::json ToJson(bool sequence) const;

 private:
  void AddFeatures(const FeaturesView& features);
  CappedMap<FeatureSchema> features_;  // Example features or context
  CappedMap<FeatureListSchema> feature_lists_;
};

// The "..._over_cap" entry of a capped map: {"max_features": N, "occurrences": K} and `pooled`.
nlohmann::json OverCapJson(size_t max_features, uint64_t occurrences, nlohmann::json pooled);

}  // namespace tfq::inspect

#endif  // TFQ_INSPECT_SCHEMA_H_
