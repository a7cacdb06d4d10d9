#include "pipeline/example_parser.h"

#include <cstring>
#include <string>

#include "example/wire_format.h"

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

}  // namespace

ExampleParser::ExampleParser(const std::vector<FeatureSpec>* specs)
    : specs_(specs), met_in_row_(specs->size(), 0) {
  for (size_t i = 0; i < specs->size(); ++i) {
    direct_ = direct_ && spec_of_key_.emplace((*specs)[i].key, static_cast<uint32_t>(i)).second;
  }
}

// Views (BytesLayout::kViews) point into the record when the value lies in it, which the caller
// keeps alive in Batch::blocks; anything else (a default, a list merged from several parts) lives
// in a block of its own that the batch keeps.
void ExampleParser::AppendBytes(Column* column, Batch* batch, std::string_view value) {
  switch (column->bytes_layout) {
    case BytesLayout::kStrings: column->bytes_values.emplace_back(value); break;
    case BytesLayout::kBlob:
      column->bytes_blob.append(value);
      column->bytes_offsets.push_back(static_cast<int64_t>(column->bytes_blob.size()));
      break;
    case BytesLayout::kViews: {
      const bool in_record = value.data() >= record_.data() &&
                             value.data() + value.size() <= record_.data() + record_.size();
      if (in_record) {
        column->bytes_views.push_back(value);
        break;
      }
      auto copy = std::make_shared<RecordBlock>();
      copy->bytes.assign(value);
      column->bytes_views.push_back(copy->bytes);
      batch->blocks.push_back(std::move(copy));
      break;
    }
  }
}

Status ExampleParser::AppendMissing(const FeatureSpec& spec, Column* column, Batch* batch) {
  if (spec.ragged) return Status::OK();
  if (!spec.has_default) return FeatureError(spec, "missing, and it has no default");
  switch (spec.dtype) {
    case DType::kInt64: AppendDefault(spec.default_int64, spec.length, &column->int64_values); break;
    case DType::kFloat: AppendDefault(spec.default_float, spec.length, &column->float_values); break;
    case DType::kBytes:
      for (size_t i = 0; i < spec.length; ++i) {
        AppendBytes(column, batch, spec.default_bytes[spec.default_bytes.size() == 1 ? 0 : i]);
      }
      break;
  }
  return Status::OK();
}

namespace {

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

// A packed run of varints (what every serializer writes for an int64 list) decoded straight into
// place: one count of terminating bytes, one resize, no per-value capacity checks. False for a
// malformed run (a varint cut off or over ten bytes); *out is then restored.
bool AppendPackedInt64s(std::string_view run, std::vector<int64_t>* out) {
  const char* p = run.data();
  const char* const end = p + run.size();
  size_t count = 0;
  for (const char* q = p; q < end; ++q) count += static_cast<uint8_t>(*q) < 0x80;
  const size_t before = out->size();
  out->resize(before + count);
  int64_t* value = out->data() + before;
  for (size_t i = 0; i < count; ++i) {
    if (static_cast<uint8_t>(*p) < 0x80) {  // one byte: small values
      value[i] = static_cast<uint8_t>(*p++);
      continue;
    }
    uint64_t decoded;
    p = wire::DecodeVarint(p, end, &decoded);
    if (p == nullptr) break;
    value[i] = static_cast<int64_t>(decoded);
  }
  if (p == end) return true;
  out->resize(before);
  return false;
}

// Int64 values into the column; the generic walk handles unpacked and split runs.
Status AppendInt64s(const FeatureView& feature, std::vector<int64_t>* out) {
  std::string_view run;
  if (feature.PackedInt64s(&run)) {
    if (AppendPackedInt64s(run, out)) return Status::OK();
    return Status::Corruption("malformed packed Int64List");  // detailed by ListError
  }
  return feature.ForEachInt64([out](int64_t v) { out->push_back(v); });
}

}  // namespace

Status ExampleParser::AppendFeature(const FeatureSpec& spec, const FeatureView* feature,
                                    Column* column, Batch* batch) {
  if (feature == nullptr) {
    TFQ_RETURN_IF_ERROR(AppendMissing(spec, column, batch));
  } else {
    if (feature->kind() != FeatureKind::kNone && feature->kind() != KindOf(spec.dtype)) {
      return FeatureError(spec, std::string(FeatureKindName(feature->kind())) + " values, expected " +
                                    std::string(DTypeName(spec.dtype)));
    }
    const size_t before = column->num_values();
    Status decoded;
    switch (spec.dtype) {
      case DType::kInt64: decoded = AppendInt64s(*feature, &column->int64_values); break;
      case DType::kFloat: decoded = AppendFloats(*feature, &column->float_values); break;
      case DType::kBytes:
        decoded = feature->ForEachBytes(
            [this, column, batch](std::string_view v) { AppendBytes(column, batch, v); });
        break;
    }
    if (!decoded.ok()) return ListError(*feature, decoded);
    const size_t count = column->num_values() - before;
    if (!spec.ragged && count != spec.length) {
      return FeatureError(spec, std::to_string(count) + " " + std::string(DTypeName(spec.dtype)) +
                                    " values, expected " + std::to_string(spec.length));
    }
  }
  if (spec.ragged) column->row_splits.push_back(static_cast<int64_t>(column->num_values()));
  return Status::OK();
}

Status ExampleParser::ListError(const FeatureView& feature, const Status& decoded) const {
  // The record was parsed with its lists unchecked (ListValidation::kOnUse): name the byte, as a
  // full validation would have. A list merged from several parts lives outside the record.
  const char* list = feature.list_bytes().data();
  const bool in_record = list >= record_.data() && list <= record_.data() + record_.size();
  Status detailed = ValidateFeatureList(
      feature, in_record ? static_cast<size_t>(list - record_.data()) : 0);
  return detailed.ok() ? decoded : detailed;
}

uint32_t ExampleParser::SpecOf(size_t entry, std::string_view key) {
  if (entry >= entry_hints_.size()) entry_hints_.resize(entry + 1, kNoSpec);
  uint32_t& hint = entry_hints_[entry];
  if (hint != kNoSpec && (*specs_)[hint].key == key) return hint;
  const auto found = spec_of_key_.find(key);
  hint = found == spec_of_key_.end() ? kNoSpec : found->second;
  return hint;
}

namespace {

// The payload of the length-delimited field whose one-byte tag is at p, if p holds that tag;
// advances p past it. False for another tag or a malformed length.
bool TakeField(uint8_t tag, const char*& p, const char* end, std::string_view* payload) {
  if (p >= end || static_cast<uint8_t>(*p) != tag) return false;
  uint64_t length;
  const char* q = wire::DecodeLength(p + 1, end, &length);
  if (q == nullptr) return false;
  *payload = std::string_view(q, length);
  p = q + length;
  return true;
}

constexpr uint8_t kLengthDelimitedTag(uint32_t field) {
  return static_cast<uint8_t>(wire::MakeTag(field, wire::kLengthDelimited));
}

}  // namespace

bool ExampleParser::AppendEntryDirect(size_t entry, const char*& p, const char* end, Batch* batch) {
  std::string_view map_entry, key, feature;
  if (!TakeField(kLengthDelimitedTag(wire::kFeaturesFeature), p, end, &map_entry)) return false;
  const char* e = map_entry.data();
  const char* const entry_end = e + map_entry.size();
  if (!TakeField(kLengthDelimitedTag(wire::kMapKey), e, entry_end, &key) ||
      !TakeField(kLengthDelimitedTag(wire::kMapValue), e, entry_end, &feature) || e != entry_end) {
    return false;
  }
  // The Feature: no list (kind "none"), or exactly one of the three.
  FeatureKind kind = FeatureKind::kNone;
  std::string_view list;
  if (!feature.empty()) {
    const char* f = feature.data();
    const char* const feature_end = f + feature.size();
    const uint8_t tag = static_cast<uint8_t>(*f);
    if (tag == kLengthDelimitedTag(wire::kFeatureBytesList)) {
      kind = FeatureKind::kBytes;
    } else if (tag == kLengthDelimitedTag(wire::kFeatureFloatList)) {
      kind = FeatureKind::kFloat;
    } else if (tag == kLengthDelimitedTag(wire::kFeatureInt64List)) {
      kind = FeatureKind::kInt64;
    } else {
      return false;
    }
    if (!TakeField(tag, f, feature_end, &list) || f != feature_end) return false;
  }
  const uint32_t spec = SpecOf(entry, key);
  if (spec == kNoSpec) return true;
  if (met_in_row_[spec] == row_) return false;  // a duplicate key: the last one wins
  met_in_row_[spec] = row_;
  const FeatureView view(kind, list);
  return AppendFeature((*specs_)[spec], &view, &batch->columns[spec], batch).ok();
}

bool ExampleParser::TryAppendRowDirect(std::string_view record, Batch* batch) {
  if (!direct_) return false;
  const char* p = record.data();
  const char* const record_end = p + record.size();
  std::string_view features;
  if (p < record_end && !TakeField(kLengthDelimitedTag(wire::kExampleFeatures), p, record_end, &features)) {
    return false;
  }
  if (p != record_end) return false;  // another field, or `features` twice (merged)
  ++row_;
  internal::MarkColumns(*batch, &marks_);
  p = features.data();
  const char* const end = p + features.size();
  bool ok = true;
  for (size_t entry = 0; ok && p < end; ++entry) {
    ok = AppendEntryDirect(entry, p, end, batch);
  }
  for (size_t i = 0; ok && i < specs_->size(); ++i) {
    if (met_in_row_[i] != row_) ok = AppendFeature((*specs_)[i], nullptr, &batch->columns[i], batch).ok();
  }
  if (!ok) internal::RollBackColumns(marks_, batch);
  return ok;
}

Status ExampleParser::AppendRow(std::string_view record, Batch* batch) {
  record_ = record;
  if (TryAppendRowDirect(record, batch)) return Status::OK();
  TFQ_RETURN_IF_ERROR(view_.Parse(record, ListValidation::kOnUse));
  internal::MarkColumns(*batch, &marks_);
  for (size_t i = 0; i < specs_->size(); ++i) {
    const FeatureSpec& spec = (*specs_)[i];
    // The full decoder is for the rare layouts only: a plain lookup in its key index will do.
    Status status = AppendFeature(spec, view_.features().Find(spec.key), &batch->columns[i], batch);
    if (!status.ok()) {
      internal::RollBackColumns(marks_, batch);
      return status;
    }
  }
  return Status::OK();
}

}  // namespace tfq::pipeline
