#include "inspect/feature_stats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "common/json_text.h"

namespace tfq::inspect {
namespace {

int HistogramBucket(uint64_t count) {
  if (count == 0) return 0;
  return std::min<int>(1 + std::bit_width(count) - 1, 11);  // 1 -> 1, 2-3 -> 2, 4-7 -> 3, ...
}

std::string BucketLabel(int b) {
  if (b == 0) return "0";
  if (b == 1) return "1";
  const uint64_t lo = uint64_t{1} << (b - 1);
  if (b == 11) return ">=" + std::to_string(lo);
  return std::to_string(lo) + "-" + std::to_string(2 * lo - 1);
}

}  // namespace

std::string_view ImageFormatOf(std::string_view b) {
  auto starts = [&](std::string_view magic) { return b.substr(0, magic.size()) == magic; };
  if (starts("\xFF\xD8\xFF")) return "jpeg";
  if (starts("\x89PNG\r\n\x1A\n")) return "png";
  if (starts("GIF87a") || starts("GIF89a")) return "gif";
  if (starts("BM") && b.size() >= 14) return "bmp";
  if (starts("RIFF") && b.size() >= 12 && b.substr(8, 4) == "WEBP") return "webp";
  if (starts(std::string_view("II*\0", 4)) || starts(std::string_view("MM\0*", 4))) return "tiff";
  return "";
}

void FeatureStats::AddNumber(double v) {
  if (std::isnan(v)) { ++nans_; return; }
  if (std::isinf(v)) { ++infinities_; return; }
  if (v == 0) ++zeros_;
  if (numbers_ == 0) min_ = max_ = v;
  min_ = std::min(min_, v);
  max_ = std::max(max_, v);
  ++numbers_;
  const double delta = v - mean_;
  mean_ += delta / static_cast<double>(numbers_);
  m2_ += delta * (v - mean_);
}

void FeatureStats::AddBytes(std::string_view v) {
  const uint64_t len = v.size();
  min_length_ = strings_ == 0 ? len : std::min(min_length_, len);
  max_length_ = strings_ == 0 ? len : std::max(max_length_, len);
  ++strings_;
  string_bytes_ += len;
  if (std::string_view format = ImageFormatOf(v); !format.empty()) {
    ++image_formats_[std::string(format)];
    return;  // image bytes are not useful as "top values"
  }
  if (!IsValidUtf8(v)) ++invalid_utf8_;
  std::string truncated;
  std::string_view key = v;
  if (v.size() > options_->max_tracked_bytes) {
    truncated = std::string(v.substr(0, options_->max_tracked_bytes)) + "...";
    key = truncated;
  }
  // Space-Saving: a new value takes over the smallest counter when the table is full, so the
  // counts of frequent values are overestimates by at most the evicted count.
  if (auto it = sketch_.find(key); it != sketch_.end()) {
    ++it->second;
  } else if (sketch_.size() < options_->sketch_counters) {
    sketch_.emplace(std::string(key), 1);
  } else {
    // The evicted value's node and string buffer take the new value: inserted as emplace would
    // insert a new node, so the table's order, which eviction follows, is the same.
    uint64_t smallest = 0;
    Sketch::node_type node = EvictSmallest(&smallest);
    node.key().assign(key.data(), key.size());
    node.mapped() = smallest + 1;
    sketch_.insert(std::move(node));
    sketch_exact_ = false;
  }
}

FeatureStats::Sketch::node_type FeatureStats::EvictSmallest(uint64_t* count) {
  // Counts only grow, and a new value enters above the smallest count, so the values found at the
  // smallest count stay the smallest until they are evicted or counted again: one scan serves
  // many evictions (a scan per eviction made --stats of a text column run at 10 MB/s).
  while (true) {
    if (evict_candidates_.empty()) {
      evict_count_ = sketch_.begin()->second;
      for (const auto& [value, n] : sketch_) evict_count_ = std::min(evict_count_, n);
      for (const auto& [value, n] : sketch_) {
        if (n == evict_count_) evict_candidates_.push_back(value);
      }
      std::reverse(evict_candidates_.begin(), evict_candidates_.end());  // the first found goes first
    }
    const std::string victim = std::move(evict_candidates_.back());
    evict_candidates_.pop_back();
    auto it = sketch_.find(victim);
    if (it == sketch_.end() || it->second != evict_count_) continue;  // counted again since
    *count = evict_count_;
    return sketch_.extract(it);
  }
}

void FeatureStats::Add(const FeatureView& feature) {
  size_t count = 0;
  if (!feature.CountValues(&count).ok()) count = 0;
  schema_.Add(feature.kind(), count);
  ++values_histogram_[HistogramBucket(count)];
  switch (feature.kind()) {
    case FeatureKind::kInt64:
      (void)feature.ForEachInt64([&](int64_t v) { AddNumber(static_cast<double>(v)); });
      break;
    case FeatureKind::kFloat:
      (void)feature.ForEachFloat([&](float v) { AddNumber(v); });
      break;
    case FeatureKind::kBytes:
      (void)feature.ForEachBytes([&](std::string_view v) { AddBytes(v); });
      break;
    case FeatureKind::kNone:
      break;
  }
}

void FeatureStats::Merge(const FeatureStats& later) {
  schema_.Merge(later.schema_);
  for (int b = 0; b < kHistogramBuckets; ++b) values_histogram_[b] += later.values_histogram_[b];
  if (later.numbers_ > 0) {
    if (numbers_ == 0) {
      min_ = later.min_;
      max_ = later.max_;
      mean_ = later.mean_;
      m2_ = later.m2_;
    } else {
      min_ = std::min(min_, later.min_);
      max_ = std::max(max_, later.max_);
      const double a = static_cast<double>(numbers_), b = static_cast<double>(later.numbers_);
      const double delta = later.mean_ - mean_;
      mean_ += delta * b / (a + b);
      m2_ += later.m2_ + delta * delta * a * b / (a + b);
    }
    numbers_ += later.numbers_;
  }
  zeros_ += later.zeros_;
  nans_ += later.nans_;
  infinities_ += later.infinities_;
  if (later.strings_ > 0) {
    min_length_ = strings_ == 0 ? later.min_length_ : std::min(min_length_, later.min_length_);
    max_length_ = strings_ == 0 ? later.max_length_ : std::max(max_length_, later.max_length_);
  }
  strings_ += later.strings_;
  string_bytes_ += later.string_bytes_;
  invalid_utf8_ += later.invalid_utf8_;
  for (const auto& [format, n] : later.image_formats_) image_formats_[format] += n;
  MergeSketch(later);
}

// A value missing from an inexact sketch may have been seen as often as its smallest counter
// (Space-Saving's bound); from an exact one, never. Sums of the two stay overestimates, as the
// counts of one sketch are.
void FeatureStats::MergeSketch(const FeatureStats& later) {
  auto floor_of = [](const FeatureStats& s) -> uint64_t {
    if (s.sketch_exact_ || s.sketch_.empty()) return 0;
    uint64_t smallest = UINT64_MAX;
    for (const auto& [value, n] : s.sketch_) smallest = std::min(smallest, n);
    return smallest;
  };
  const uint64_t floor_here = floor_of(*this), floor_later = floor_of(later);
  bool exact = sketch_exact_ && later.sketch_exact_;
  for (auto& [value, n] : sketch_) {
    auto it = later.sketch_.find(value);
    n += it != later.sketch_.end() ? it->second : floor_later;
  }
  for (const auto& [value, n] : later.sketch_) {
    if (!sketch_.contains(value)) sketch_.emplace(value, n + floor_here);
  }
  if (sketch_.size() > options_->sketch_counters) {
    exact = false;
    std::vector<std::pair<std::string, uint64_t>> all(sketch_.begin(), sketch_.end());
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    all.resize(options_->sketch_counters);
    sketch_.clear();
    for (auto& [value, n] : all) sketch_.emplace(std::move(value), n);
  }
  sketch_exact_ = exact;
  evict_candidates_.clear();  // the counts changed: the next eviction scans again
}

nlohmann::json FeatureStats::ToJson(uint64_t records) const {
  nlohmann::json j = schema_.ToJson();
  j["missing"] = records >= schema_.present_in ? records - schema_.present_in : 0;
  nlohmann::json hist = nlohmann::json::object();
  for (int b = 0; b < kHistogramBuckets; ++b) {
    if (values_histogram_[b]) hist[BucketLabel(b)] = values_histogram_[b];
  }
  j["values_per_record_histogram"] = hist;
  if (numbers_ + nans_ + infinities_ > 0) {
    const double variance = numbers_ > 1 ? m2_ / static_cast<double>(numbers_) : 0.0;
    j["numeric"] = {{"count", numbers_ + nans_ + infinities_},
                    {"min", numbers_ ? min_ : 0.0},
                    {"max", numbers_ ? max_ : 0.0},
                    {"mean", mean_},
                    {"stddev", std::sqrt(variance)},
                    {"zeros", zeros_},
                    {"nan", nans_},
                    {"infinite", infinities_}};
  }
  if (strings_ > 0) {
    nlohmann::json bytes = {{"count", strings_},
                            {"total_bytes", string_bytes_},
                            {"min_length", min_length_},
                            {"max_length", max_length_},
                            {"mean_length", static_cast<double>(string_bytes_) / strings_},
                            {"invalid_utf8", invalid_utf8_}};
    if (!image_formats_.empty()) bytes["image_formats"] = image_formats_;
    std::vector<std::pair<std::string, uint64_t>> top(sketch_.begin(), sketch_.end());
    std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    if (top.size() > options_->top_k) top.resize(options_->top_k);
    nlohmann::json top_json = nlohmann::json::array();
    for (const auto& [value, count] : top) {
      // Invalid UTF-8 cannot go into JSON text as is: replace it so the output stays valid.
      top_json.push_back({{"value", IsValidUtf8(value) ? value : "<binary>"}, {"count", count}});
    }
    bytes["top_values"] = top_json;
    bytes["top_values_exact"] = sketch_exact_;
    j["bytes"] = bytes;
  }
  return j;
}

void StatsBuilder::AddFeatures(const FeaturesView& features) {
  for (const auto& entry : features.entries()) features_.Slot(entry.key).Add(entry.feature);
}

void StatsBuilder::AddExample(const ExampleView& example) {
  ++records_;
  AddFeatures(example.features());
}

void StatsBuilder::AddSequenceExample(const SequenceExampleView& example) {
  ++records_;
  sequence_ = true;
  AddFeatures(example.context());
  for (const auto& list : example.feature_lists()) {
    FeatureStats& s = feature_list_steps_.Slot(list.key);
    for (const FeatureView& step : list.steps) s.Add(step);
  }
}

void StatsBuilder::Merge(const StatsBuilder& later) {
  records_ += later.records_;
  sequence_ = sequence_ || later.sequence_;
  auto merge = [](FeatureStats& into, const FeatureStats& from) { into.Merge(from); };
  auto occurrences = [](const FeatureStats& s) { return s.occurrences(); };
  features_.MergeFrom(later.features_, merge, occurrences);
  feature_list_steps_.MergeFrom(later.feature_list_steps_, merge, occurrences);
}

nlohmann::json StatsBuilder::ToJson() const {
  nlohmann::json features = nlohmann::json::object();
  for (const auto& [name, s] : features_.names()) features[name] = s.ToJson(records_);
  nlohmann::json j = {{"records", records_}};
  const std::string features_key = sequence_ ? "context" : "features";
  j[features_key] = features;
  if (features_.reached()) {
    j[features_key + "_over_cap"] = OverCapJson(features_.max_names(), features_.other_occurrences(),
                                                features_.other().ToJson(0));
  }
  if (sequence_) {
    nlohmann::json lists = nlohmann::json::object();
    for (const auto& [name, s] : feature_list_steps_.names()) lists[name] = s.ToJson(0);
    j["feature_lists"] = lists;
    if (feature_list_steps_.reached()) {
      j["feature_lists_over_cap"] =
          OverCapJson(feature_list_steps_.max_names(), feature_list_steps_.other_occurrences(),
                      feature_list_steps_.other().ToJson(0));
    }
  }
  return j;
}

}  // namespace tfq::inspect
