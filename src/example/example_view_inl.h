// The FeatureView::ForEach* templates (included by example_view.h; do not include directly).
//
// Each walks the list message once, decoding values in place: a packed run is a tight loop
// over its bytes, unpacked values and unknown fields are handled as protobuf does. On bytes that
// do not parse (only possible for a hand-built FeatureView), the loops stop and the cold
// internal::ListCorruption produces the detailed message.
#ifndef TFQ_EXAMPLE_EXAMPLE_VIEW_INL_H_
#define TFQ_EXAMPLE_EXAMPLE_VIEW_INL_H_

#include <cstdint>
#include <string_view>

#include "example/wire_format.h"

namespace tfq {
namespace internal {

Status ListCorruption(FeatureKind kind, std::string_view list);             // cold
Status KindMismatch(FeatureKind have, FeatureKind wanted);                  // cold

// Skips an unknown field of a list message; nullptr on a malformed one or on the `value`
// field (number 1) with a wire type the caller does not handle.
inline const char* SkipListField(const char* p, const char* end, uint32_t tag) {
  if ((tag >> 3) == wire::kListValue) return nullptr;
  return wire::SkipValue(p, end, tag & 7);
}

}  // namespace internal

template <typename Fn>
Status FeatureView::ForEachFloat(Fn&& fn) const {
  if (kind_ != FeatureKind::kFloat) {
    return kind_ == FeatureKind::kNone ? Status::OK() : internal::KindMismatch(kind_, FeatureKind::kFloat);
  }
  const char* p = list_.data();
  const char* const end = p + list_.size();
  while (p < end) {
    uint32_t tag;
    p = wire::DecodeTag(p, end, &tag);
    if (p == nullptr) break;
    if (tag == wire::kPackedValueTag) {
      uint64_t length;
      const char* run = wire::DecodeLength(p, end, &length);
      if (run == nullptr || length % 4 != 0) {
        p = nullptr;
        break;
      }
      p = run + length;
      for (; run < p; run += 4) fn(wire::LoadFloat(run));
    } else if (tag == wire::kFloatValueTag) {
      if (end - p < 4) {
        p = nullptr;
        break;
      }
      fn(wire::LoadFloat(p));
      p += 4;
    } else {
      p = internal::SkipListField(p, end, tag);
      if (p == nullptr) break;
    }
  }
  return p == end ? Status::OK() : internal::ListCorruption(kind_, list_);
}

template <typename Fn>
Status FeatureView::ForEachInt64(Fn&& fn) const {
  if (kind_ != FeatureKind::kInt64) {
    return kind_ == FeatureKind::kNone ? Status::OK() : internal::KindMismatch(kind_, FeatureKind::kInt64);
  }
  const char* p = list_.data();
  const char* const end = p + list_.size();
  while (p < end) {
    uint32_t tag;
    p = wire::DecodeTag(p, end, &tag);
    if (p == nullptr) break;
    uint64_t value;
    if (tag == wire::kPackedValueTag) {
      uint64_t length;
      const char* run = wire::DecodeLength(p, end, &length);
      if (run == nullptr) {
        p = nullptr;
        break;
      }
      p = run + length;
      while (run != nullptr && run < p) {
        run = wire::DecodeVarint(run, p, &value);
        if (run != nullptr) fn(static_cast<int64_t>(value));
      }
      if (run == nullptr) {
        p = nullptr;
        break;
      }
    } else if (tag == wire::kInt64ValueTag) {
      p = wire::DecodeVarint(p, end, &value);
      if (p == nullptr) break;
      fn(static_cast<int64_t>(value));
    } else {
      p = internal::SkipListField(p, end, tag);
      if (p == nullptr) break;
    }
  }
  return p == end ? Status::OK() : internal::ListCorruption(kind_, list_);
}

template <typename Fn>
Status FeatureView::ForEachBytes(Fn&& fn) const {
  if (kind_ != FeatureKind::kBytes) {
    return kind_ == FeatureKind::kNone ? Status::OK() : internal::KindMismatch(kind_, FeatureKind::kBytes);
  }
  const char* p = list_.data();
  const char* const end = p + list_.size();
  while (p < end) {
    uint32_t tag;
    p = wire::DecodeTag(p, end, &tag);
    if (p == nullptr) break;
    if (tag == wire::kBytesValueTag) {
      uint64_t length;
      const char* value = wire::DecodeLength(p, end, &length);
      if (value == nullptr) {
        p = nullptr;
        break;
      }
      fn(std::string_view(value, static_cast<size_t>(length)));
      p = value + length;
    } else {
      p = internal::SkipListField(p, end, tag);
      if (p == nullptr) break;
    }
  }
  return p == end ? Status::OK() : internal::ListCorruption(kind_, list_);
}

}  // namespace tfq

#endif  // TFQ_EXAMPLE_EXAMPLE_VIEW_INL_H_
