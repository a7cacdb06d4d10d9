// FeatureView: counting and collecting the values of one lazily decoded list.
#include <string>

#include "example/example_view.h"
#include "example/feature_parse.h"
#include "example/wire_format.h"

namespace tfq {

std::string_view FeatureKindName(FeatureKind kind) {
  switch (kind) {
    case FeatureKind::kBytes: return "bytes";
    case FeatureKind::kFloat: return "float";
    case FeatureKind::kInt64: return "int64";
    case FeatureKind::kNone: break;
  }
  return "none";
}

namespace internal {

Status ListCorruption(FeatureKind kind, std::string_view list) {
  Status detailed = ValidateList(kind, list, 0);
  if (!detailed.ok()) return detailed;
  return Status::Corruption("malformed " + std::string(FeatureKindName(kind)) + " list");
}

Status KindMismatch(FeatureKind have, FeatureKind wanted) {
  const auto article = [](FeatureKind k) { return k == FeatureKind::kInt64 ? "an " : "a "; };
  return Status::InvalidArgument("feature holds " + std::string(article(have)) +
                                 std::string(FeatureKindName(have)) + " list, not " + article(wanted) +
                                 std::string(FeatureKindName(wanted)) + " list");
}

}  // namespace internal

bool FeatureView::PackedFloats(std::string_view* raw) const {
  if (kind_ != FeatureKind::kFloat || list_.empty() ||
      static_cast<uint8_t>(list_[0]) != wire::kPackedValueTag) {
    return false;
  }
  const char* end = list_.data() + list_.size();
  uint64_t length;
  const char* run = wire::DecodeLength(list_.data() + 1, end, &length);
  if (run == nullptr || run + length != end || length % 4 != 0) return false;
  *raw = std::string_view(run, static_cast<size_t>(length));
  return true;
}

bool FeatureView::PackedInt64s(std::string_view* run) const {
  if (kind_ != FeatureKind::kInt64 || list_.empty() ||
      static_cast<uint8_t>(list_[0]) != wire::kPackedValueTag) {
    return false;
  }
  const char* end = list_.data() + list_.size();
  uint64_t length;
  const char* start = wire::DecodeLength(list_.data() + 1, end, &length);
  if (start == nullptr || start + length != end) return false;
  *run = std::string_view(start, static_cast<size_t>(length));
  return true;
}

Status FeatureView::CountValues(size_t* count) const {
  *count = 0;
  std::string_view run;
  if (PackedFloats(&run)) {  // the O(1) case
    *count = run.size() / 4;
    return Status::OK();
  }
  const char* p = list_.data();
  const char* const end = p + list_.size();
  size_t n = 0;
  while (p != nullptr && p < end) {
    uint32_t tag;
    p = wire::DecodeTag(p, end, &tag);
    if (p == nullptr) break;
    uint64_t length;
    if (kind_ == FeatureKind::kFloat && tag == wire::kPackedValueTag) {
      p = wire::DecodeLength(p, end, &length);
      if (p == nullptr || length % 4 != 0) p = nullptr; else { n += length / 4; p += length; }
    } else if (kind_ == FeatureKind::kFloat && tag == wire::kFloatValueTag) {
      p = end - p >= 4 ? p + 4 : nullptr;
      ++n;
    } else if (kind_ == FeatureKind::kInt64 && tag == wire::kPackedValueTag) {
      p = wire::DecodeLength(p, end, &length);
      if (p != nullptr) {
        // One value per terminating byte; a malformed run is caught by the last-byte check.
        for (const char* q = p; q < p + length; ++q) n += static_cast<uint8_t>(*q) < 0x80;
        if (length > 0 && static_cast<uint8_t>(p[length - 1]) >= 0x80) p = nullptr; else p += length;
      }
    } else if (kind_ == FeatureKind::kInt64 && tag == wire::kInt64ValueTag) {
      p = wire::DecodeVarint(p, end, &length);
      ++n;
    } else if (kind_ == FeatureKind::kBytes && tag == wire::kBytesValueTag) {
      p = wire::DecodeLength(p, end, &length);
      if (p != nullptr) p += length;
      ++n;
    } else {
      p = internal::SkipListField(p, end, tag);
    }
  }
  if (p != end) return internal::ListCorruption(kind_, list_);
  *count = n;
  return Status::OK();
}

Status FeatureView::AppendInt64s(std::vector<int64_t>* out) const {
  return ForEachInt64([out](int64_t v) { out->push_back(v); });
}

Status FeatureView::AppendFloats(std::vector<float>* out) const {
  return ForEachFloat([out](float v) { out->push_back(v); });
}

Status FeatureView::AppendBytes(std::vector<std::string_view>* out) const {
  return ForEachBytes([out](std::string_view v) { out->push_back(v); });
}

Status ValidateFeatureList(const FeatureView& feature, size_t base) {
  return internal::ValidateList(feature.kind(), feature.list_bytes(), base);
}

}  // namespace tfq
