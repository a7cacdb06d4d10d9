#include "inspect/schema.h"

#include <algorithm>

namespace tfq::inspect {
namespace {

uint64_t CountOrZero(const FeatureView& feature) {
  size_t n = 0;
  // Views from a successful Parse are validated, so counting cannot fail here.
  if (!feature.CountValues(&n).ok()) return 0;
  return n;
}

constexpr FeatureKind kAllKinds[] = {FeatureKind::kBytes, FeatureKind::kFloat, FeatureKind::kInt64,
                                     FeatureKind::kNone};

}  // namespace

void FeatureSchema::Add(FeatureKind kind, uint64_t count) {
  kinds_seen |= static_cast<uint8_t>(1u << static_cast<unsigned>(kind));
  min_count = present_in == 0 ? count : std::min(min_count, count);
  max_count = present_in == 0 ? count : std::max(max_count, count);
  ++present_in;
  total_values += count;
}

void FeatureSchema::Merge(const FeatureSchema& other) {
  if (other.present_in == 0) return;
  min_count = present_in == 0 ? other.min_count : std::min(min_count, other.min_count);
  max_count = present_in == 0 ? other.max_count : std::max(max_count, other.max_count);
  kinds_seen |= other.kinds_seen;
  present_in += other.present_in;
  total_values += other.total_values;
}

std::string FeatureSchema::KindName() const {
  std::string single;
  int real_kinds = 0;
  for (FeatureKind k : kAllKinds) {
    if (k == FeatureKind::kNone || !(kinds_seen & (1u << static_cast<unsigned>(k)))) continue;
    ++real_kinds;
    single = FeatureKindName(k);
  }
  if (real_kinds == 0) return "none";
  return real_kinds == 1 ? single : "mixed";
}

nlohmann::json FeatureSchema::ToJson() const {
  nlohmann::json seen = nlohmann::json::array();
  for (FeatureKind k : kAllKinds) {
    if (kinds_seen & (1u << static_cast<unsigned>(k))) seen.push_back(FeatureKindName(k));
  }
  return {{"kind", KindName()},
          {"kinds_seen", seen},
          {"present_in", present_in},
          {"min_count", min_count},
          {"max_count", max_count},
          {"avg_count", present_in ? static_cast<double>(total_values) / present_in : 0.0},
          {"total_values", total_values}};
}

void FeatureListSchema::Merge(const FeatureListSchema& other) {
  if (other.present_in == 0) return;
  min_steps = present_in == 0 ? other.min_steps : std::min(min_steps, other.min_steps);
  max_steps = present_in == 0 ? other.max_steps : std::max(max_steps, other.max_steps);
  present_in += other.present_in;
  steps.Merge(other.steps);
}

nlohmann::json FeatureListSchema::ToJson() const {
  nlohmann::json j = steps.ToJson();
  j["steps_total"] = steps.present_in;
  j["present_in"] = present_in;
  j["min_steps"] = min_steps;
  j["max_steps"] = max_steps;
  return j;
}

void SchemaBuilder::AddFeatures(const FeaturesView& features) {
  for (const auto& entry : features.entries()) {
    features_.Slot(entry.key).Add(entry.feature.kind(), CountOrZero(entry.feature));
  }
}

void SchemaBuilder::AddExample(const ExampleView& example) { AddFeatures(example.features()); }

void SchemaBuilder::AddSequenceExample(const SequenceExampleView& example) {
  AddFeatures(example.context());
  for (const auto& list : example.feature_lists()) {
    FeatureListSchema& s = feature_lists_.Slot(list.key);
    const uint64_t n = list.steps.size();
    s.min_steps = s.present_in == 0 ? n : std::min(s.min_steps, n);
    s.max_steps = s.present_in == 0 ? n : std::max(s.max_steps, n);
    ++s.present_in;
    for (const FeatureView& step : list.steps) s.steps.Add(step.kind(), CountOrZero(step));
  }
}

void SchemaBuilder::Merge(const SchemaBuilder& other) {
  // A name pooled here stands for as many occurrences as records held it (one Slot call each).
  features_.MergeFrom(
      other.features_, [](FeatureSchema& into, const FeatureSchema& from) { into.Merge(from); },
      [](const FeatureSchema& s) { return s.present_in; });
  feature_lists_.MergeFrom(
      other.feature_lists_,
      [](FeatureListSchema& into, const FeatureListSchema& from) { into.Merge(from); },
      [](const FeatureListSchema& s) { return s.present_in; });
}

nlohmann::json OverCapJson(size_t max_features, uint64_t occurrences, nlohmann::json pooled) {
  pooled["max_features"] = max_features;
  pooled["occurrences"] = occurrences;
  return pooled;
}

nlohmann::json SchemaBuilder::ToJson(bool sequence) const {
  nlohmann::json features = nlohmann::json::object();
  for (const auto& [name, s] : features_.names()) features[name] = s.ToJson();
  const char* features_key = sequence ? "context" : "features";
  nlohmann::json j = {{features_key, features}};
  if (features_.reached()) {
    j[std::string(features_key) + "_over_cap"] = OverCapJson(
        features_.max_names(), features_.other_occurrences(), features_.other().ToJson());
  }
  if (!sequence) return j;
  nlohmann::json lists = nlohmann::json::object();
  for (const auto& [name, s] : feature_lists_.names()) lists[name] = s.ToJson();
  j["feature_lists"] = lists;
  if (feature_lists_.reached()) {
    j["feature_lists_over_cap"] = OverCapJson(feature_lists_.max_names(),
                                              feature_lists_.other_occurrences(),
                                              feature_lists_.other().ToJson());
  }
  return j;
}

}  // namespace tfq::inspect
