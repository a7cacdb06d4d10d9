// The precomputed parts of KeyedExampleEncoder (construction) and its cooler paths: lists and the
// record head.
#include "example/keyed_encoder.h"

#include <cstring>

namespace tfq {

uint32_t KeyedExampleEncoder::Store(std::string_view bytes) {
  const auto at = static_cast<uint32_t>(table_.size());
  table_.append(bytes);
  return at;
}

KeyedExampleEncoder::KeyedExampleEncoder(std::span<const std::string> keys) {
  for (const std::string& key : keys) {
    Key k;
    std::string field(1 + wire::kMaxVarintBytes, '\0');
    field[0] = static_cast<char>(kKeyTag);
    field.resize(static_cast<size_t>(wire::EncodeVarint(key.size(), field.data() + 1) - field.data()));
    field += key;
    k.key_field = Store(field);
    k.key_field_size = static_cast<uint32_t>(field.size());

    // An entry whose Feature holds a list message of `list` bytes under `list_tag` (0: none),
    // through the list's head.
    auto head = [&](uint8_t list_tag, size_t list) {
      const size_t feature = list_tag == 0 ? 0 : 1 + VarintSize(list) + list;
      const size_t entry = field.size() + 1 + VarintSize(feature) + feature;
      std::string s(field.size() + 4 * (1 + wire::kMaxVarintBytes), '\0');
      char* p = s.data();
      *p++ = static_cast<char>(kEntryTag);
      p = wire::EncodeVarint(entry, p);
      std::memcpy(p, field.data(), field.size());
      p += field.size();
      *p++ = static_cast<char>(kValueTag);
      p = wire::EncodeVarint(feature, p);
      if (list_tag != 0) {
        *p++ = static_cast<char>(list_tag);
        p = wire::EncodeVarint(list, p);
      }
      s.resize(static_cast<size_t>(p - s.data()));
      return s;
    };
    std::string s = head(kFloatListTag, 2 + 4);
    s.push_back(static_cast<char>(wire::kPackedValueTag));
    s.push_back(4);
    k.float_prefix = Store(s);
    k.float_prefix_size = static_cast<uint32_t>(s.size());
    // Bytes(): the value's length, the list's (2 + n), the Feature's (4 + n) and the entry's
    // (key field + 6 + n) must each fit in one byte.
    const size_t largest = field.size() + 6;
    k.short_bytes = largest < 0x80 ? 0x80 - largest : 0;
    k.short_int64 = largest + wire::kMaxVarintBytes < 0x80;  // Int64(): n <= 10 in place of the size
    for (size_t n = 1; n <= wire::kMaxVarintBytes; ++n) {
      s = head(kInt64ListTag, 2 + n);
      s.push_back(static_cast<char>(wire::kPackedValueTag));
      s.push_back(static_cast<char>(n));
      k.int64_prefix[n] = Store(s);
      k.int64_prefix_size[n] = static_cast<uint32_t>(s.size());
    }
    const uint8_t list_tags[4] = {0, kBytesListTag, kFloatListTag, kInt64ListTag};  // by FeatureKind
    for (size_t kind = 0; kind < 4; ++kind) {
      s = head(list_tags[kind], 0);
      k.empty[kind] = Store(s);
      k.empty_size[kind] = static_cast<uint32_t>(s.size());
    }
    keys_.push_back(k);
  }
  table_.append(kCopySlack, '\0');
}

char* KeyedExampleEncoder::MoveFeatures(char* begin, char* end, size_t head_size) {
  char* const features = begin + 1 + head_size_;
  const auto size = static_cast<size_t>(end - features);
  std::memmove(begin + 1 + head_size, features, size);
  head_size_ = head_size;
  begin[0] = static_cast<char>(kFeaturesTag);
  wire::EncodeVarint(size, begin + 1);
  return begin + 1 + head_size + size;
}

char* KeyedExampleEncoder::Int64s(size_t i, std::span<const int64_t> v, char* p) const {
  if (v.empty()) return Empty(i, FeatureKind::kInt64, p);
  size_t payload = 0;
  for (int64_t x : v) payload += VarintSize(static_cast<uint64_t>(x));
  p = Head(keys_[i], kInt64ListTag, 1 + VarintSize(payload) + payload, p);
  *p++ = static_cast<char>(wire::kPackedValueTag);
  p = wire::EncodeVarint(payload, p);
  for (int64_t x : v) p = wire::EncodeVarint(static_cast<uint64_t>(x), p);
  return p;
}

char* KeyedExampleEncoder::Floats(size_t i, std::span<const float> v, char* p) const {
  if (v.empty()) return Empty(i, FeatureKind::kFloat, p);
  const size_t payload = 4 * v.size();
  p = Head(keys_[i], kFloatListTag, 1 + VarintSize(payload) + payload, p);
  *p++ = static_cast<char>(wire::kPackedValueTag);
  p = wire::EncodeVarint(payload, p);
  std::memcpy(p, v.data(), payload);  // little-endian host (wire_format.h)
  return p + payload;
}

char* KeyedExampleEncoder::BytesList(size_t i, std::span<const std::string_view> v, char* p) const {
  if (v.empty()) return Empty(i, FeatureKind::kBytes, p);
  size_t list = 0;
  for (std::string_view s : v) list += 1 + VarintSize(s.size()) + s.size();
  p = Head(keys_[i], kBytesListTag, list, p);
  for (std::string_view s : v) {
    *p++ = static_cast<char>(wire::kBytesValueTag);
    p = wire::EncodeVarint(s.size(), p);
    if (!s.empty()) std::memcpy(p, s.data(), s.size());
    p += s.size();
  }
  return p;
}

}  // namespace tfq
