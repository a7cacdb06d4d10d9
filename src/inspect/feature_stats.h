// Per-feature statistics for `tfq inspect --stats`, in the spirit of TensorFlow Data Validation:
// presence and missing counts, a values-per-record histogram, numeric min/max/mean/stddev/zeros,
// byte-string lengths, the most frequent strings, and which byte strings are images.
//
// Memory is bounded whatever the input size: the top-K strings are tracked with the Space-Saving
// sketch over a fixed number of counters (exact while a feature has at most that many distinct
// values; `top_values_exact` says which). Thread safety: none per object.
#ifndef TFQ_INSPECT_FEATURE_STATS_H_
#define TFQ_INSPECT_FEATURE_STATS_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "example/example_view.h"
#include "inspect/capped_map.h"
#include "inspect/schema.h"

namespace tfq::inspect {

struct StatsOptions {
  size_t top_k = 10;
  size_t max_features = kDefaultMaxFeatures;  // names tracked per map; later ones pooled (--max-features)
  size_t sketch_counters = 1000;   // distinct values tracked per bytes feature
  size_t max_tracked_bytes = 256;  // longer strings are tracked by their first bytes + "..."
};

class FeatureStats {
 public:
  explicit FeatureStats(const StatsOptions& options) : options_(&options) {}
  // Adds one record's occurrence of the feature; the view must come from a successful Parse.
  void Add(const FeatureView& feature);
  // Takes in the statistics of records that came after these (inspect/parallel_scan.h): counts,
  // extremes and histograms as one object would have them; mean and variance by Chan et al.'s
  // pairwise update (equal to one pass up to rounding); the top-value sketches summed, keeping
  // the sketch_counters largest (exact while both were exact and their values fit).
  void Merge(const FeatureStats& later);
  uint64_t occurrences() const { return schema_.present_in; }
  // `records` is the number of records seen in all, to report how many lacked the feature.
  nlohmann::json ToJson(uint64_t records) const;

 private:
  static constexpr int kHistogramBuckets = 12;  // 0, 1, 2-3, 4-7, ..., >= 1024
  void AddNumber(double v);
  void AddBytes(std::string_view v);
  // std::hash<std::string>'s values, also for a string_view, so that a value is looked up
  // without making a string of it (and the table's order, which eviction follows, is unchanged).
  // Not noexcept, as std::hash<std::string> is not "fast": libstdc++ then keeps each node's hash,
  // as it does for std::hash<std::string>, instead of comparing strings along a bucket.
  struct ValueHash {
    using is_transparent = void;
    size_t operator()(std::string_view v) const { return std::hash<std::string_view>{}(v); }
  };
  using Sketch = std::unordered_map<std::string, uint64_t, ValueHash, std::equal_to<>>;
  // Space-Saving's eviction: takes out a value with the smallest count and returns its node, for
  // the new value to reuse (no allocation per new value once the table is full); *count is set to
  // that count.
  Sketch::node_type EvictSmallest(uint64_t* count);
  void MergeSketch(const FeatureStats& later);

  const StatsOptions* options_;
  FeatureSchema schema_;
  std::array<uint64_t, kHistogramBuckets> values_histogram_{};
  // Numeric values (int64 and float together; the kind says which).
  uint64_t numbers_ = 0, zeros_ = 0, nans_ = 0, infinities_ = 0;
  double min_ = 0, max_ = 0, mean_ = 0, m2_ = 0;  // Welford's running mean and variance
  // Byte strings.
  uint64_t strings_ = 0, string_bytes_ = 0, min_length_ = 0, max_length_ = 0, invalid_utf8_ = 0;
  std::map<std::string, uint64_t> image_formats_;
  Sketch sketch_;  // value -> count (Space-Saving)
  bool sketch_exact_ = true;
  std::vector<std::string> evict_candidates_;  // values at evict_count_ when last scanned, last first
  uint64_t evict_count_ = 0;
};

// Statistics of every feature of a stream of records, for at most options.max_features names per
// map (features/context, feature lists): later names are pooled into one entry that still counts
// their values (capped_map.h).
class StatsBuilder {
 public:
  explicit StatsBuilder(StatsOptions options = {})
      : options_(std::move(options)),
        features_(options_.max_features, FeatureStats(options_)),
        feature_list_steps_(options_.max_features, FeatureStats(options_)) {}
  StatsBuilder(const StatsBuilder&) = delete;  // the entries point to options_
  StatsBuilder& operator=(const StatsBuilder&) = delete;
  void AddExample(const ExampleView& example);
  void AddSequenceExample(const SequenceExampleView& example);
  // Takes in the statistics of records that came after these (FeatureStats::Merge, CappedMap::MergeFrom).
  void Merge(const StatsBuilder& later);
  // {"records": N, "features": {...}} (plus "feature_lists" with per-step stats for sequences;
  // "context" instead of "features" for them), and "features_over_cap" (or "context_over_cap",
  // "feature_lists_over_cap") once the cap was reached: the pooled statistics of the names
  // beyond it, with "max_features" and "occurrences".
  nlohmann::json ToJson() const;

 private:
  void AddFeatures(const FeaturesView& features);
  StatsOptions options_;
  uint64_t records_ = 0;
  bool sequence_ = false;
  CappedMap<FeatureStats> features_;
  CappedMap<FeatureStats> feature_list_steps_;
};

// "jpeg", "png", "gif", "bmp", "webp", "tiff" from magic bytes, or "" if none matches.
std::string_view ImageFormatOf(std::string_view bytes);

}  // namespace tfq::inspect

#endif  // TFQ_INSPECT_FEATURE_STATS_H_
