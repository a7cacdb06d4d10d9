#include "inspect/spec_inference.h"

#include <algorithm>
#include <cmath>

#include "inspect/payload.h"
#include "tfrecord/open.h"

namespace tfq::inspect {
namespace {

std::string Place(const tfrecord::RecordReader& reader) {
  return reader.name() + ": record " + std::to_string(reader.record_index()) + " (byte " +
         std::to_string(reader.record_offset()) + ")";
}

std::string KindsOf(uint8_t kinds_seen) {
  std::string out;
  for (FeatureKind k : {FeatureKind::kBytes, FeatureKind::kFloat, FeatureKind::kInt64}) {
    if (!(kinds_seen & (1u << static_cast<unsigned>(k)))) continue;
    out += (out.empty() ? "" : " and ") + std::string(FeatureKindName(k));
  }
  return out;
}

FeatureKind SingleKind(const FeatureSchema& s) {
  for (FeatureKind k : {FeatureKind::kBytes, FeatureKind::kFloat, FeatureKind::kInt64}) {
    if (s.kinds_seen & (1u << static_cast<unsigned>(k))) return k;
  }
  return FeatureKind::kNone;
}

// Fills the kind and counts shared by features and feature lists; `dense` is the caller's.
Status Describe(const std::string& name, const FeatureSchema& s, const std::string& looked_at,
                InferredFeature* f) {
  const std::string kind = s.KindName();
  if (kind == "mixed") {
    return Status::InvalidData("feature '" + name + "' holds values of more than one kind (" +
                               KindsOf(s.kinds_seen) + ") in " + looked_at);
  }
  f->name = name;
  f->kind = SingleKind(s);
  f->min_count = s.min_count;
  f->max_count = s.max_count;
  return Status::OK();
}

const ValueRange* RangeOf(const CappedMap<ValueRange>& ranges, const std::string& name) {
  auto it = ranges.names().find(name);
  return it == ranges.names().end() ? nullptr : &it->second;
}

}  // namespace

void ValueRange::AddInt(int64_t v) {
  min_int = values == 0 ? v : std::min(min_int, v);
  max_int = values == 0 ? v : std::max(max_int, v);
  ++values;
}

void ValueRange::AddFloat(float v) {
  if (std::isnan(v)) {
    ++nans;
    return;
  }
  min_float = values == 0 ? v : std::min<double>(min_float, v);
  max_float = values == 0 ? v : std::max<double>(max_float, v);
  ++values;
}

void ValueRange::Merge(const ValueRange& other) {
  nans += other.nans;
  if (other.values == 0) return;
  min_int = values == 0 ? other.min_int : std::min(min_int, other.min_int);
  max_int = values == 0 ? other.max_int : std::max(max_int, other.max_int);
  min_float = values == 0 ? other.min_float : std::min(min_float, other.min_float);
  max_float = values == 0 ? other.max_float : std::max(max_float, other.max_float);
  values += other.values;
}

void SpecBuilder::AddRanges(const FeaturesView& features, CappedMap<ValueRange>* ranges) {
  for (const auto& entry : features.entries()) {
    const FeatureKind kind = entry.feature.kind();
    if (kind != FeatureKind::kInt64 && kind != FeatureKind::kFloat) continue;
    ValueRange& range = ranges->Slot(entry.key);
    // Views from a successful Parse are validated: these cannot fail.
    if (kind == FeatureKind::kInt64) {
      (void)entry.feature.ForEachInt64([&](int64_t v) { range.AddInt(v); });
    } else {
      (void)entry.feature.ForEachFloat([&](float v) { range.AddFloat(v); });
    }
  }
}

void SpecBuilder::Merge(const SpecBuilder& later) {
  schema_.Merge(later.schema_);
  auto merge = [](ValueRange& into, const ValueRange& from) { into.Merge(from); };
  auto occurrences = [](const ValueRange& r) { return r.values + r.nans; };
  ranges_.MergeFrom(later.ranges_, merge, occurrences);
  list_ranges_.MergeFrom(later.list_ranges_, merge, occurrences);
  records_ += later.records_;
  sequence_ = sequence_ || later.sequence_;
}

void SpecBuilder::AddExample(const ExampleView& example) {
  schema_.AddExample(example);
  AddRanges(example.features(), &ranges_);
  ++records_;
}

void SpecBuilder::AddSequenceExample(const SequenceExampleView& example) {
  schema_.AddSequenceExample(example);
  AddRanges(example.context(), &ranges_);
  for (const auto& list : example.feature_lists()) {
    for (const FeatureView& step : list.steps) {
      const FeatureKind kind = step.kind();
      if (kind != FeatureKind::kInt64 && kind != FeatureKind::kFloat) continue;
      ValueRange& range = list_ranges_.Slot(list.key);
      if (kind == FeatureKind::kInt64) {
        (void)step.ForEachInt64([&](int64_t v) { range.AddInt(v); });
      } else {
        (void)step.ForEachFloat([&](float v) { range.AddFloat(v); });
      }
    }
  }
  sequence_ = true;
  ++records_;
}

Result<InferredSpec> SpecBuilder::Finish() const {
  const std::string looked_at = "the " + std::to_string(records_) + " records looked at";
  if (records_ == 0) return Status::InvalidData("no records to infer the features from");
  if (schema_.capped_features().reached() || schema_.capped_feature_lists().reached()) {
    return Status::InvalidData(looked_at + " hold more than " +
                               std::to_string(schema_.capped_features().max_names()) +
                               " feature names (--max-features): the spec would be incomplete");
  }
  InferredSpec spec;
  spec.records = records_;
  spec.sequence = sequence_;
  for (const auto& [name, s] : schema_.features()) {
    InferredFeature f;
    TFQ_RETURN_IF_ERROR(Describe(name, s, looked_at, &f));
    f.present_in = s.present_in;
    f.presence_fraction = static_cast<double>(s.present_in) / static_cast<double>(records_);
    f.dense = s.present_in == records_ && s.min_count == s.max_count && s.min_count >= 1;
    f.length = f.dense ? s.min_count : 0;
    if (const ValueRange* r = RangeOf(ranges_, name)) f.range = *r;
    (f.kind == FeatureKind::kNone ? spec.untyped : spec.features).push_back(std::move(f));
  }
  for (const auto& [name, list] : schema_.feature_lists()) {
    if (list.steps.KindName() == "none") continue;
    InferredFeature f;
    TFQ_RETURN_IF_ERROR(Describe(name, list.steps, looked_at, &f));
    f.present_in = list.present_in;
    f.presence_fraction = static_cast<double>(list.present_in) / static_cast<double>(records_);
    f.dense = list.steps.min_count == list.steps.max_count && list.steps.min_count >= 1;
    f.length = f.dense ? list.steps.min_count : 0;
    f.min_steps = list.min_steps;
    f.max_steps = list.max_steps;
    if (const ValueRange* r = RangeOf(list_ranges_, name)) f.range = *r;
    spec.feature_lists.push_back(std::move(f));
  }
  return spec;
}

Result<InferredSpec> InferSpecFromFiles(const std::vector<std::string>& paths,
                                        const SpecInferenceOptions& options) {
  SpecBuilder builder;
  PayloadParser parser(/*sequence=*/false);
  for (const std::string& path : paths) {
    if (builder.records() >= options.max_records) break;
    TFQ_ASSIGN_OR_RETURN(tfrecord::OpenedInput opened,
                         tfrecord::OpenRecordInput(path, options.compression, options.decompression));
    tfrecord::RecordReaderOptions reader_options;
    reader_options.max_record_bytes = options.max_record_bytes;
    tfrecord::RecordReader reader(std::move(opened.stream), reader_options);
    std::string_view record;
    while (builder.records() < options.max_records && reader.Read(&record)) {
      Status parsed = parser.Parse(record);
      if (!parsed.ok()) return parsed.WithPrefix(Place(reader));
      if (parser.sequence()) {
        builder.AddSequenceExample(parser.sequence_example());
      } else {
        builder.AddExample(parser.example());
      }
    }
    TFQ_RETURN_IF_ERROR(reader.status());
  }
  if (builder.records() == 0) {
    return Status::InvalidData("no records to infer the features from (" +
                               std::to_string(paths.size()) +
                               (paths.size() == 1 ? " file)" : " files)"));
  }
  return builder.Finish();
}

}  // namespace tfq::inspect
