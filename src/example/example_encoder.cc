// Serialization of Example / SequenceExample exactly as protobuf's C++ serializer writes them:
// fields in field-number order, int64/float lists packed, map entries always with both key and
// value, empty lists and no-kind Features as empty messages (docs/example-format.md).
//
// Sizes are computed before writing (as protobuf does), so every byte is appended once.
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "example/example.h"
#include "example/wire_format.h"

namespace tfq {
namespace {

using wire::AppendLengthDelimitedHead;
using wire::AppendVarint;
using wire::LengthDelimitedSize;
using wire::VarintSize;

size_t PackedInt64PayloadSize(const int64_t* values, size_t n) {
  size_t size = 0;
  for (size_t i = 0; i < n; ++i) size += VarintSize(static_cast<uint64_t>(values[i]));
  return size;
}

// Size of a list message (what a Feature's oneof field holds). For int64 lists the caller
// passes the packed payload size it already computed.
size_t PackedListSize(size_t payload_size, size_t n) {
  return n == 0 ? 0 : LengthDelimitedSize(payload_size);  // proto3 writes no empty packed field
}

void AppendPackedFloats(const float* values, size_t n, std::string* out) {
  if (n == 0) return;
  AppendLengthDelimitedHead(wire::kListValue, 4 * n, out);
  out->append(reinterpret_cast<const char*>(values), 4 * n);  // little-endian host (wire_format.h)
}

void AppendPackedInt64s(const int64_t* values, size_t n, size_t payload_size, std::string* out) {
  if (n == 0) return;
  AppendLengthDelimitedHead(wire::kListValue, payload_size, out);
  const size_t start = out->size();
  out->resize(start + payload_size);
  char* p = out->data() + start;
  for (size_t i = 0; i < n; ++i) p = wire::EncodeVarint(static_cast<uint64_t>(values[i]), p);
}

template <typename Strings>
size_t BytesListSize(const Strings& values) {
  size_t size = 0;
  for (const auto& v : values) size += LengthDelimitedSize(v.size());
  return size;
}

template <typename Strings>
void AppendBytesList(const Strings& values, std::string* out) {
  for (const auto& v : values) {
    AppendLengthDelimitedHead(wire::kListValue, v.size(), out);
    out->append(v.data(), v.size());
  }
}

uint32_t OneofField(FeatureKind kind) {
  switch (kind) {
    case FeatureKind::kBytes: return wire::kFeatureBytesList;
    case FeatureKind::kFloat: return wire::kFeatureFloatList;
    case FeatureKind::kInt64: return wire::kFeatureInt64List;
    case FeatureKind::kNone: break;
  }
  return 0;
}

// Sizes of one Feature: its list message and the Feature message around it.
struct FeatureSizes {
  size_t list = 0;
  size_t feature = 0;
  size_t int64_payload = 0;
};

FeatureSizes SizeFeature(const Feature& f) {
  FeatureSizes s;
  switch (f.kind) {
    case FeatureKind::kBytes: s.list = BytesListSize(f.bytes_list); break;
    case FeatureKind::kFloat: s.list = PackedListSize(4 * f.float_list.size(), f.float_list.size()); break;
    case FeatureKind::kInt64:
      s.int64_payload = PackedInt64PayloadSize(f.int64_list.data(), f.int64_list.size());
      s.list = PackedListSize(s.int64_payload, f.int64_list.size());
      break;
    case FeatureKind::kNone: return s;
  }
  s.feature = LengthDelimitedSize(s.list);
  return s;
}

void WriteFeature(const Feature& f, const FeatureSizes& s, std::string* out) {
  if (f.kind == FeatureKind::kNone) return;
  AppendLengthDelimitedHead(OneofField(f.kind), s.list, out);
  switch (f.kind) {
    case FeatureKind::kBytes: AppendBytesList(f.bytes_list, out); break;
    case FeatureKind::kFloat: AppendPackedFloats(f.float_list.data(), f.float_list.size(), out); break;
    case FeatureKind::kInt64:
      AppendPackedInt64s(f.int64_list.data(), f.int64_list.size(), s.int64_payload, out);
      break;
    case FeatureKind::kNone: break;
  }
}

// A map entry: key = 1, value = 2, both always written (protobuf's MapEntry does).
size_t EntrySize(size_t key_size, size_t value_size) {
  return LengthDelimitedSize(key_size) + LengthDelimitedSize(value_size);
}

void AppendEntryHead(uint32_t map_field, std::string_view key, size_t value_size, std::string* out) {
  AppendLengthDelimitedHead(map_field, EntrySize(key.size(), value_size), out);
  AppendLengthDelimitedHead(wire::kMapKey, key.size(), out);
  out->append(key);
  AppendLengthDelimitedHead(wire::kMapValue, value_size, out);
}

size_t FeatureMapSize(const FeatureMap& map) {
  size_t size = 0;
  for (const auto& [key, feature] : map) {
    size += LengthDelimitedSize(EntrySize(key.size(), SizeFeature(feature).feature));
  }
  return size;
}

void WriteFeatureMap(const FeatureMap& map, std::string* out) {
  for (const auto& [key, feature] : map) {
    const FeatureSizes s = SizeFeature(feature);
    AppendEntryHead(wire::kFeaturesFeature, key, s.feature, out);
    WriteFeature(feature, s, out);
  }
}

size_t FeatureListSize(const std::vector<Feature>& steps) {
  size_t size = 0;
  for (const Feature& f : steps) size += LengthDelimitedSize(SizeFeature(f).feature);
  return size;
}

}  // namespace

void SerializeFeature(const Feature& feature, std::string* out) {
  WriteFeature(feature, SizeFeature(feature), out);
}

void SerializeExample(const Example& example, std::string* out) {
  if (!example.has_features) return;
  AppendLengthDelimitedHead(wire::kExampleFeatures, FeatureMapSize(example.features), out);
  WriteFeatureMap(example.features, out);
}

void SerializeSequenceExample(const SequenceExample& example, std::string* out) {
  if (example.has_context) {
    AppendLengthDelimitedHead(wire::kSequenceContext, FeatureMapSize(example.context), out);
    WriteFeatureMap(example.context, out);
  }
  if (example.has_feature_lists) {
    size_t lists_size = 0;
    for (const auto& [key, steps] : example.feature_lists) {
      lists_size += LengthDelimitedSize(EntrySize(key.size(), FeatureListSize(steps)));
    }
    AppendLengthDelimitedHead(wire::kSequenceFeatureLists, lists_size, out);
    for (const auto& [key, steps] : example.feature_lists) {
      AppendEntryHead(wire::kFeatureListsFeatureList, key, FeatureListSize(steps), out);
      for (const Feature& f : steps) {
        const FeatureSizes s = SizeFeature(f);
        AppendLengthDelimitedHead(wire::kFeatureListFeature, s.feature, out);
        WriteFeature(f, s, out);
      }
    }
  }
}

// --- ExampleEncoder: one map entry per Add, straight into features_ -----------------------------
//
// The hot path of CSV -> TFRecord: a row of short values is a handful of small features, so
// appending tag, length and payload one std::string::append at a time (a capacity check, a length
// update and a terminator each) cost more than the data. Each Add computes the entry's sizes
// first, extends the buffer once (features_ is kept at its capacity and used_ says how much holds
// entries, so growing never zero-fills on the hot path) and writes through a raw pointer.

namespace {

// Varint sizes without wire::VarintSize's divide: lengths in a row of short values are almost
// always below 128 (a predictable branch), else protobuf's multiply-and-shift form.
inline size_t FastVarintSize(uint64_t v) {
  if (v < 0x80) return 1;
  const auto log2 = static_cast<size_t>(63 - std::countl_zero(v));
  return (log2 * 9 + 73) / 64;
}
inline size_t FastLengthDelimitedSize(size_t length) { return 1 + FastVarintSize(length) + length; }

// Writes the head of an entry for `key` whose Feature holds a list message of `list_size` bytes
// in oneof field `oneof` (0: a Feature with no kind, no list) at p (room made by the caller, who
// computed `feature` and `entry`, the sizes of the Feature and the entry), and returns where the
// list's payload goes.
char* EncodeEntryThroughListHead(char* p, std::string_view key, uint32_t oneof, size_t list_size,
                                 size_t feature, size_t entry) {
  *p++ = static_cast<char>(wire::MakeTag(wire::kFeaturesFeature, wire::kLengthDelimited));
  p = wire::EncodeVarint(entry, p);
  *p++ = static_cast<char>(wire::MakeTag(wire::kMapKey, wire::kLengthDelimited));
  p = wire::EncodeVarint(key.size(), p);
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  p += key.size();
  *p++ = static_cast<char>(wire::MakeTag(wire::kMapValue, wire::kLengthDelimited));
  p = wire::EncodeVarint(feature, p);
  if (oneof != 0) {
    *p++ = static_cast<char>(wire::MakeTag(oneof, wire::kLengthDelimited));
    p = wire::EncodeVarint(list_size, p);
  }
  return p;
}

// A packed list's head inside the list message (only for a non-empty list: proto3).
char* EncodePackedHead(size_t payload_size, char* p) {
  *p++ = static_cast<char>(wire::kPackedValueTag);
  return wire::EncodeVarint(payload_size, p);
}

char* EncodeBytesValue(std::string_view v, char* p) {
  *p++ = static_cast<char>(wire::kBytesValueTag);
  p = wire::EncodeVarint(v.size(), p);
  if (!v.empty()) std::memcpy(p, v.data(), v.size());  // data() may be null for an empty view
  return p + v.size();
}

}  // namespace

char* ExampleEncoder::Extend(size_t n) {
  if (features_.size() - used_ < n) features_.resize(std::max(2 * features_.size(), used_ + n + 256));
  char* p = features_.data() + used_;
  used_ += n;
  return p;
}

char* ExampleEncoder::AppendEntry(std::string_view key, uint32_t oneof, size_t list_size) {
  const size_t feature = oneof == 0 ? 0 : FastLengthDelimitedSize(list_size);
  const size_t entry = FastLengthDelimitedSize(key.size()) + FastLengthDelimitedSize(feature);
  return EncodeEntryThroughListHead(Extend(FastLengthDelimitedSize(entry)), key, oneof, list_size,
                                    feature, entry);
}

void ExampleEncoder::Clear() { used_ = 0; }

void ExampleEncoder::AddBytes(std::string_view key, const std::vector<std::string_view>& values) {
  size_t list = 0;
  for (std::string_view v : values) list += FastLengthDelimitedSize(v.size());
  char* p = AppendEntry(key, wire::kFeatureBytesList, list);
  for (std::string_view v : values) p = EncodeBytesValue(v, p);
}

void ExampleEncoder::AddBytes(std::string_view key, std::string_view value) {
  char* p = AppendEntry(key, wire::kFeatureBytesList, FastLengthDelimitedSize(value.size()));
  EncodeBytesValue(value, p);
}

void ExampleEncoder::AddFloats(std::string_view key, const float* values, size_t n) {
  char* p = AppendEntry(key, wire::kFeatureFloatList, n == 0 ? 0 : FastLengthDelimitedSize(4 * n));
  if (n == 0) return;
  p = EncodePackedHead(4 * n, p);
  std::memcpy(p, values, 4 * n);  // little-endian host (wire_format.h)
}

void ExampleEncoder::AddInt64s(std::string_view key, const int64_t* values, size_t n) {
  size_t payload = 0;
  for (size_t i = 0; i < n; ++i) payload += FastVarintSize(static_cast<uint64_t>(values[i]));
  char* p = AppendEntry(key, wire::kFeatureInt64List, n == 0 ? 0 : FastLengthDelimitedSize(payload));
  if (n == 0) return;
  p = EncodePackedHead(payload, p);
  for (size_t i = 0; i < n; ++i) p = wire::EncodeVarint(static_cast<uint64_t>(values[i]), p);
}

void ExampleEncoder::AddEmpty(std::string_view key, FeatureKind kind) {
  AppendEntry(key, OneofField(kind), 0);
}

void ExampleEncoder::Finish(std::string* out) const {
  char head[1 + wire::kMaxVarintBytes];
  head[0] = static_cast<char>(wire::MakeTag(wire::kExampleFeatures, wire::kLengthDelimited));
  const char* head_end = wire::EncodeVarint(used_, head + 1);
  const size_t start = out->size();
  const size_t head_size = static_cast<size_t>(head_end - head);
  out->resize(start + head_size + used_);
  char* p = out->data() + start;
  std::memcpy(p, head, head_size);
  if (used_ != 0) std::memcpy(p + head_size, features_.data(), used_);
}

}  // namespace tfq
