#include "inspect/schema_validation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tfq::inspect {
namespace {

bool KindMatches(TfdvType type, FeatureKind kind) {
  switch (kind) {
    case FeatureKind::kNone: return true;  // no values: nothing to disagree with
    case FeatureKind::kInt64: return type == TfdvType::kInt;
    case FeatureKind::kFloat: return type == TfdvType::kFloat;
    case FeatureKind::kBytes: return type == TfdvType::kBytes;
  }
  return false;
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// The first anomaly of one feature's values against its schema entry, or "" in type.
Anomaly CheckValues(const TfdvFeature& schema, const FeatureView& feature) {
  Anomaly a{"", schema.name, ""};
  if (schema.type != TfdvType::kUnknown && !KindMatches(schema.type, feature.kind())) {
    a.type = "UNEXPECTED_DATA_TYPE";
    a.detail = "expected " + std::string(TfdvTypeName(schema.type)) + ", got " +
               std::string(FeatureKindName(feature.kind()));
    return a;
  }
  size_t count = 0;
  (void)feature.CountValues(&count);  // validated by the Parse that made the view
  const auto n = static_cast<int64_t>(count);
  if (auto want = schema.ShapeValues(); want && n != *want) {
    a.type = "INVALID_FEATURE_SHAPE";
    a.detail = std::to_string(n) + " values; the shape asks for " + std::to_string(*want);
    return a;
  }
  if (schema.min_values && n < *schema.min_values) {
    a.type = "FEATURE_TYPE_LOW_NUMBER_VALUES";
    a.detail = std::to_string(n) + " values; value_count min is " + std::to_string(*schema.min_values);
    return a;
  }
  if (schema.max_values && n > *schema.max_values) {
    a.type = "FEATURE_TYPE_HIGH_NUMBER_VALUES";
    a.detail = std::to_string(n) + " values; value_count max is " + std::to_string(*schema.max_values);
    return a;
  }
  if (feature.kind() == FeatureKind::kInt64 && (schema.int_min || schema.int_max)) {
    (void)feature.ForEachInt64([&](int64_t v) {
      if (!a.type.empty()) return;
      if (schema.int_min && v < *schema.int_min) {
        a.type = "INT_TYPE_SMALL_INT";
        a.detail = "value " + std::to_string(v) + " below int_domain min " + std::to_string(*schema.int_min);
      } else if (schema.int_max && v > *schema.int_max) {
        a.type = "INT_TYPE_BIG_INT";
        a.detail = "value " + std::to_string(v) + " above int_domain max " + std::to_string(*schema.int_max);
      }
    });
  }
  if (feature.kind() == FeatureKind::kFloat && (schema.float_min || schema.float_max)) {
    (void)feature.ForEachFloat([&](float v) {
      if (!a.type.empty() || std::isnan(v)) return;
      // The schema's bounds are float32 (schema.proto), as the values are: compare as float.
      if (schema.float_min && v < static_cast<float>(*schema.float_min)) {
        a.type = "FLOAT_TYPE_SMALL_FLOAT";
        a.detail = "value " + Number(v) + " below float_domain min " + Number(*schema.float_min);
      } else if (schema.float_max && v > static_cast<float>(*schema.float_max)) {
        a.type = "FLOAT_TYPE_BIG_FLOAT";
        a.detail = "value " + Number(v) + " above float_domain max " + Number(*schema.float_max);
      }
    });
  }
  if (feature.kind() == FeatureKind::kBytes && schema.string_values) {
    const auto& allowed = *schema.string_values;
    (void)feature.ForEachBytes([&](std::string_view v) {
      if (!a.type.empty()) return;
      if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
        a.type = "ENUM_TYPE_UNEXPECTED_STRING_VALUES";
        a.detail = "value '" + std::string(v) + "' is not in the string_domain";
      }
    });
  }
  return a;
}

bool Required(const TfdvFeature& f) { return f.min_fraction && *f.min_fraction >= 1.0; }

const char* KindOrNone(FeatureKind kind) {
  return kind == FeatureKind::kNone ? "no list set" : FeatureKindName(kind).data();
}

// The index of `name` in `features`, or features.size().
size_t IndexOf(const std::vector<const TfdvFeature*>& features, std::string_view name) {
  for (size_t i = 0; i < features.size(); ++i) {
    if (features[i]->name == name) return i;
  }
  return features.size();
}

void PresenceAnomalies(const std::vector<const TfdvFeature*>& features,
                       const std::vector<uint64_t>& present, uint64_t records,
                       std::vector<Anomaly>* out) {
  for (size_t i = 0; i < features.size(); ++i) {
    const TfdvFeature& f = *features[i];
    if (f.min_count && static_cast<int64_t>(present[i]) < *f.min_count) {
      out->push_back({"FEATURE_TYPE_LOW_NUMBER_PRESENT", f.name,
                      "in " + std::to_string(present[i]) + " records; presence min_count is " +
                          std::to_string(*f.min_count)});
    } else if (f.min_fraction && *f.min_fraction < 1.0 && records > 0 &&
               static_cast<double>(present[i]) / static_cast<double>(records) < *f.min_fraction) {
      out->push_back({"FEATURE_TYPE_LOW_FRACTION_PRESENT", f.name,
                      "in " + std::to_string(present[i]) + " of " + std::to_string(records) +
                          " records; presence min_fraction is " + Number(*f.min_fraction)});
    }
  }
}

}  // namespace

SchemaValidator::SchemaValidator(const TfdvSchema& schema) : schema_(&schema) {
  for (const TfdvFeature& f : schema.features) {
    if (f.name != kSequenceFeatureName) features_.push_back(&f);
  }
  if (const TfdvFeature* seq = schema.sequence()) {
    for (const TfdvFeature& f : seq->struct_features) lists_.push_back(&f);
  }
  features_present_.assign(features_.size(), 0);
  lists_present_.assign(lists_.size(), 0);
}

void SchemaValidator::CheckFeatures(const FeaturesView& features, std::vector<Anomaly>* out) {
  // Lookups by name in a linear list: schemas hold tens to hundreds of features, and the
  // record's own index answers the reverse question.
  for (size_t i = 0; i < features_.size(); ++i) {
    const TfdvFeature& f = *features_[i];
    const FeatureView* value = features.Find(f.name);
    if (value == nullptr) {
      if (Required(f)) {
        out->push_back({"SCHEMA_MISSING_COLUMN", f.name, "absent; presence min_fraction is 1.0"});
      }
      continue;
    }
    ++features_present_[i];
    Anomaly a = CheckValues(f, *value);
    if (!a.type.empty()) out->push_back(std::move(a));
  }
  for (const auto& entry : features.entries()) {
    if (IndexOf(features_, entry.key) == features_.size()) {
      size_t n = 0;
      (void)entry.feature.CountValues(&n);
      out->push_back({"SCHEMA_NEW_COLUMN", std::string(entry.key),
                      std::string("not in the schema (") + KindOrNone(entry.feature.kind()) +
                          ", " + std::to_string(n) + (n == 1 ? " value)" : " values)")});
    }
  }
}

void SchemaValidator::CheckLists(const SequenceExampleView* example, std::vector<Anomaly>* out) {
  for (size_t i = 0; i < lists_.size(); ++i) {
    const TfdvFeature& f = *lists_[i];
    const SequenceExampleView::FeatureListEntry* list = nullptr;
    if (example != nullptr) {
      for (const auto& l : example->feature_lists()) {
        if (l.key == f.name) list = &l;
      }
    }
    if (list == nullptr) {
      if (Required(f)) {
        out->push_back({"SCHEMA_MISSING_COLUMN", f.name,
                        "feature list absent; presence min_fraction is 1.0"});
      }
      continue;
    }
    ++lists_present_[i];
    for (size_t step = 0; step < list->steps.size(); ++step) {
      Anomaly a = CheckValues(f, list->steps[step]);
      if (a.type.empty()) continue;
      a.detail = "step " + std::to_string(step) + ": " + a.detail;
      out->push_back(std::move(a));
      break;
    }
  }
  if (example == nullptr) return;
  for (const auto& l : example->feature_lists()) {
    if (IndexOf(lists_, l.key) == lists_.size()) {
      out->push_back({"SCHEMA_NEW_COLUMN", std::string(l.key),
                      "feature list not in the schema (" + std::to_string(l.steps.size()) +
                          (l.steps.size() == 1 ? " step)" : " steps)")});
    }
  }
}

void SchemaValidator::CheckExample(const ExampleView& example, std::vector<Anomaly>* out) {
  ++records_;
  CheckFeatures(example.features(), out);
  CheckLists(nullptr, out);
}

void SchemaValidator::CheckSequenceExample(const SequenceExampleView& example,
                                           std::vector<Anomaly>* out) {
  ++records_;
  CheckFeatures(example.context(), out);
  CheckLists(&example, out);
}

void SchemaValidator::Merge(const SchemaValidator& later) {
  for (size_t i = 0; i < features_present_.size(); ++i) features_present_[i] += later.features_present_[i];
  for (size_t i = 0; i < lists_present_.size(); ++i) lists_present_[i] += later.lists_present_[i];
  records_ += later.records_;
}

void SchemaValidator::Finish(std::vector<Anomaly>* out) const {
  PresenceAnomalies(features_, features_present_, records_, out);
  PresenceAnomalies(lists_, lists_present_, records_, out);
}

}  // namespace tfq::inspect
