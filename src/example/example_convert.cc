// Owning values: the Feature factories and copies of decoded views (cold paths).
#include <string>
#include <utility>

#include "example/example.h"

namespace tfq {

Feature Feature::Bytes(std::vector<std::string> v) {
  Feature f;
  f.kind = FeatureKind::kBytes;
  f.bytes_list = std::move(v);
  return f;
}

Feature Feature::Floats(std::vector<float> v) {
  Feature f;
  f.kind = FeatureKind::kFloat;
  f.float_list = std::move(v);
  return f;
}

Feature Feature::Int64s(std::vector<int64_t> v) {
  Feature f;
  f.kind = FeatureKind::kInt64;
  f.int64_list = std::move(v);
  return f;
}

namespace {

Status ToFeature(const FeatureView& view, Feature* out) {
  *out = Feature();
  out->kind = view.kind();
  switch (view.kind()) {
    case FeatureKind::kBytes:
      return view.ForEachBytes([out](std::string_view v) { out->bytes_list.emplace_back(v); });
    case FeatureKind::kFloat:
      return view.AppendFloats(&out->float_list);
    case FeatureKind::kInt64:
      return view.AppendInt64s(&out->int64_list);
    case FeatureKind::kNone:
      break;
  }
  return Status::OK();
}

Status ToFeatureMap(const FeaturesView& view, FeatureMap* out) {
  out->clear();
  out->reserve(view.size());
  for (const FeaturesView::Entry& entry : view.entries()) {
    out->emplace_back(std::string(entry.key), Feature());
    TFQ_RETURN_IF_ERROR(ToFeature(entry.feature, &out->back().second));
  }
  return Status::OK();
}

}  // namespace

Status ToExample(const ExampleView& view, Example* out) {
  out->has_features = view.has_features();
  return ToFeatureMap(view.features(), &out->features);
}

Status ToSequenceExample(const SequenceExampleView& view, SequenceExample* out) {
  out->has_context = view.has_context();
  out->has_feature_lists = view.has_feature_lists();
  TFQ_RETURN_IF_ERROR(ToFeatureMap(view.context(), &out->context));
  out->feature_lists.clear();
  for (const SequenceExampleView::FeatureListEntry& entry : view.feature_lists()) {
    out->feature_lists.emplace_back(std::string(entry.key), std::vector<Feature>(entry.steps.size()));
    for (size_t i = 0; i < entry.steps.size(); ++i) {
      TFQ_RETURN_IF_ERROR(ToFeature(entry.steps[i], &out->feature_lists.back().second[i]));
    }
  }
  return Status::OK();
}

}  // namespace tfq
