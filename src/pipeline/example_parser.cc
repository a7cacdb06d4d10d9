#include "pipeline/example_parser.h"

#include <cstring>
#include <string>

namespace tfq::pipeline {
namespace {

FeatureKind KindOf(DType type) {
  switch (type) {
    case DType::kInt64: return FeatureKind::kInt64;
    case DType::kFloat: return FeatureKind::kFloat;
    case DType::kBytes: return FeatureKind::kBytes;
  }
  return FeatureKind::kNone;
}

Status FeatureError(const FeatureSpec& spec, const std::string& what) {
  return Status::InvalidData("feature '" + spec.key + "': " + what);
}

template <typename T>
void AppendDefault(const std::vector<T>& value, size_t length, std::vector<T>* out) {
  if (value.size() == length) {
    out->insert(out->end(), value.begin(), value.end());
  } else {
    out->insert(out->end(), length, value.front());  // one value, repeated (validated)
  }
}

void AppendBytes(Column* column, std::string_view value) {
  if (column->bytes_layout == BytesLayout::kStrings) {
    column->bytes_values.emplace_back(value);
  } else {
    column->bytes_blob.append(value);
    column->bytes_offsets.push_back(static_cast<int64_t>(column->bytes_blob.size()));
  }
}

Status AppendMissing(const FeatureSpec& spec, Column* column) {
  if (spec.ragged) return Status::OK();
  if (!spec.has_default) return FeatureError(spec, "missing, and it has no default");
  switch (spec.dtype) {
    case DType::kInt64: AppendDefault(spec.default_int64, spec.length, &column->int64_values); break;
    case DType::kFloat: AppendDefault(spec.default_float, spec.length, &column->float_values); break;
    case DType::kBytes:
      for (size_t i = 0; i < spec.length; ++i) {
        AppendBytes(column, spec.default_bytes[spec.default_bytes.size() == 1 ? 0 : i]);
      }
      break;
  }
  return Status::OK();
}

// Packed floats (what every serializer writes) are copied in one go.
Status AppendFloats(const FeatureView& feature, std::vector<float>* out) {
  std::string_view raw;
  if (feature.PackedFloats(&raw)) {
    const size_t before = out->size();
    out->resize(before + raw.size() / sizeof(float));
    if (!raw.empty()) std::memcpy(out->data() + before, raw.data(), raw.size());
    return Status::OK();
  }
  return feature.ForEachFloat([out](float v) { out->push_back(v); });
}

}  // namespace

Status ExampleParser::AppendFeature(const FeatureSpec& spec, const FeatureView* feature,
                                    Column* column) {
  if (feature == nullptr) {
    TFQ_RETURN_IF_ERROR(AppendMissing(spec, column));
  } else {
    if (feature->kind() != FeatureKind::kNone && feature->kind() != KindOf(spec.dtype)) {
      return FeatureError(spec, std::string(FeatureKindName(feature->kind())) + " values, expected " +
                                    std::string(DTypeName(spec.dtype)));
    }
    const size_t before = column->num_values();
    switch (spec.dtype) {
      case DType::kInt64:
        TFQ_RETURN_IF_ERROR(
            feature->ForEachInt64([column](int64_t v) { column->int64_values.push_back(v); }));
        break;
      case DType::kFloat: TFQ_RETURN_IF_ERROR(AppendFloats(*feature, &column->float_values)); break;
      case DType::kBytes:
        TFQ_RETURN_IF_ERROR(
            feature->ForEachBytes([column](std::string_view v) { AppendBytes(column, v); }));
        break;
    }
    const size_t count = column->num_values() - before;
    if (!spec.ragged && count != spec.length) {
      return FeatureError(spec, std::to_string(count) + " " + std::string(DTypeName(spec.dtype)) +
                                    " values, expected " + std::to_string(spec.length));
    }
  }
  if (spec.ragged) column->row_splits.push_back(static_cast<int64_t>(column->num_values()));
  return Status::OK();
}

Status ExampleParser::AppendRow(std::string_view record, Batch* batch) {
  TFQ_RETURN_IF_ERROR(view_.Parse(record));
  internal::MarkColumns(*batch, &marks_);
  const FeaturesView& features = view_.features();
  for (size_t i = 0; i < specs_->size(); ++i) {
    const FeatureSpec& spec = (*specs_)[i];
    Status status = AppendFeature(spec, features.Find(spec.key), &batch->columns[i]);
    if (!status.ok()) {
      internal::RollBackColumns(marks_, batch);
      return status;
    }
  }
  return Status::OK();
}

}  // namespace tfq::pipeline
