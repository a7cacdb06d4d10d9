// KeyedExampleEncoder: writes tf.Examples whose features have the same keys in the same order in
// every record -- the rows of a table (CSV -> TFRecord).
//
// The bytes equal ExampleEncoder's (and SerializeExample's) for the same features in the same
// order. What is faster: each key's map-entry framing is encoded once, at construction, so a
// one-value int64 or float feature is one copy of a precomputed prefix plus the value, a bytes
// value a few one-byte lengths plus two copies; a record is written in one pass, straight into
// the caller's buffer (the Example's own length prefix is guessed from the previous record and
// the features moved in the rare case the guess was wrong).
//
// Writing a record, with room reserved by the caller (below):
//   char* p = encoder.BeginRecord(begin);
//   p = encoder.Int64(0, 42, p);  p = encoder.Bytes(1, "abc", p);  ...  // each key once, in order
//   char* end = encoder.EndRecord(begin, p);                           // [begin, end) is the Example
//
// Room: BeginRecord + EndRecord need kRecordRoom bytes at `begin`; each feature i needs
// FeatureRoom(i) bytes at p plus, per value, 10 bytes for an int64, 4 for a float and 11 + size
// for a bytes value. (Copies of up to 32 bytes are done as fixed 32-byte copies; the room
// includes that slack.)
//
// Thread safety: the const methods may run on several threads; BeginRecord..EndRecord use the
// encoder's guess of the head size, so use one encoder per thread (copies are cheap).
#ifndef TFQ_EXAMPLE_KEYED_ENCODER_H_
#define TFQ_EXAMPLE_KEYED_ENCODER_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "example/example_view.h"
#include "example/wire_format.h"

namespace tfq {

class KeyedExampleEncoder {
 public:
  static constexpr size_t kRecordRoom = 1 + 2 * wire::kMaxVarintBytes;

  explicit KeyedExampleEncoder(std::span<const std::string> keys);

  size_t FeatureRoom(size_t i) const { return keys_[i].key_field_size + kFramingRoom; }

  char* BeginRecord(char* begin) const { return begin + 1 + head_size_; }
  char* EndRecord(char* begin, char* end) {  // inline: once per record, a call costs as much
    char* const features = begin + 1 + head_size_;
    const auto size = static_cast<size_t>(end - features);
    const size_t head_size = VarintSize(size);
    if (head_size != head_size_) [[unlikely]] return MoveFeatures(begin, end, head_size);
    begin[0] = static_cast<char>(kFeaturesTag);
    wire::EncodeVarint(size, begin + 1);
    return end;
  }

  // A one-value list.
  char* Int64(size_t i, int64_t v, char* p) const {
    const Key& k = keys_[i];
    const auto u = static_cast<uint64_t>(v);
    if (k.short_int64 && u < (uint64_t{1} << 14)) {
      // The common case, without a branch on the value: the lengths follow from the varint's
      // size n (1 or 2) by additions, and both varint bytes are written (the second is dropped
      // when n == 1).
      const size_t n = 1 + (u >= 0x80);
      p[0] = static_cast<char>(kEntryTag);
      p[1] = static_cast<char>(k.key_field_size + 6 + n);
      p = CopySmall(p + 2, table_.data() + k.key_field, k.key_field_size);
      p[0] = static_cast<char>(kValueTag);
      p[1] = static_cast<char>(4 + n);
      p[2] = static_cast<char>(kInt64ListTag);
      p[3] = static_cast<char>(2 + n);
      p[4] = static_cast<char>(wire::kPackedValueTag);
      p[5] = static_cast<char>(n);
      p[6] = static_cast<char>(u | (n - 1) << 7);
      p[7] = static_cast<char>(u >> 7);
      return p + 6 + n;
    }
    const size_t n = VarintSize(u);  // else the key's prefix for this varint size
    p = CopySmall(p, table_.data() + k.int64_prefix[n], k.int64_prefix_size[n]);
    return EncodeVarintUnrolled(u, n, p);
  }
  char* Float(size_t i, float v, char* p) const {
    const Key& k = keys_[i];
    p = CopySmall(p, table_.data() + k.float_prefix, k.float_prefix_size);
    std::memcpy(p, &v, 4);  // little-endian host (wire_format.h)
    return p + 4;
  }
  // `padded`: the 32 bytes at v.data() may be read (the value lies well inside a larger buffer),
  // so a short value is copied as a fixed 32 bytes instead of through a call to memcpy.
  char* Bytes(size_t i, std::string_view v, char* p, bool padded = false) const {
    const Key& k = keys_[i];
    if (v.size() < k.short_bytes) {  // every length below is one byte
      const size_t list = 2 + v.size();
      const size_t feature = 2 + list;
      *p++ = static_cast<char>(kEntryTag);
      *p++ = static_cast<char>(k.key_field_size + 2 + feature);
      p = CopySmall(p, table_.data() + k.key_field, k.key_field_size);
      p[0] = static_cast<char>(kValueTag);
      p[1] = static_cast<char>(feature);
      p[2] = static_cast<char>(kBytesListTag);
      p[3] = static_cast<char>(list);
      p[4] = static_cast<char>(wire::kBytesValueTag);
      p[5] = static_cast<char>(v.size());
      p += 6;
    } else {
      p = Head(k, kBytesListTag, 1 + VarintSize(v.size()) + v.size(), p);
      *p++ = static_cast<char>(wire::kBytesValueTag);
      p = wire::EncodeVarint(v.size(), p);
    }
    if (padded && v.size() <= kCopySlack) {
      std::memcpy(p, v.data(), kCopySlack);
    } else if (!v.empty()) {
      std::memcpy(p, v.data(), v.size());  // data() may be null when empty
    }
    return p + v.size();
  }

  // Lists of any length (an empty one is Empty(i, kind)).
  char* Int64s(size_t i, std::span<const int64_t> v, char* p) const;
  char* Floats(size_t i, std::span<const float> v, char* p) const;
  char* BytesList(size_t i, std::span<const std::string_view> v, char* p) const;
  // An empty list of `kind` (kNone: a Feature with no kind).
  char* Empty(size_t i, FeatureKind kind, char* p) const {
    const Key& k = keys_[i];
    const auto c = static_cast<size_t>(kind);
    return CopySmall(p, table_.data() + k.empty[c], k.empty_size[c]);
  }

 private:
  static constexpr uint8_t kFeaturesTag =
      wire::MakeTag(wire::kExampleFeatures, wire::kLengthDelimited);
  static constexpr uint8_t kEntryTag = wire::MakeTag(wire::kFeaturesFeature, wire::kLengthDelimited);
  static constexpr uint8_t kKeyTag = wire::MakeTag(wire::kMapKey, wire::kLengthDelimited);
  static constexpr uint8_t kValueTag = wire::MakeTag(wire::kMapValue, wire::kLengthDelimited);
  static constexpr uint8_t kBytesListTag = wire::MakeTag(wire::kFeatureBytesList, wire::kLengthDelimited);
  static constexpr uint8_t kFloatListTag = wire::MakeTag(wire::kFeatureFloatList, wire::kLengthDelimited);
  static constexpr uint8_t kInt64ListTag = wire::MakeTag(wire::kFeatureInt64List, wire::kLengthDelimited);
  static constexpr size_t kCopySlack = 32;
  // Entry, Feature, list and packed heads (a tag and a varint each) plus the copy slack.
  static constexpr size_t kFramingRoom = 4 * (1 + wire::kMaxVarintBytes) + kCopySlack;

  // Offsets into table_ of each key's precomputed bytes.
  struct Key {
    uint32_t key_field = 0;  // the map key field: tag, length, key
    uint32_t key_field_size = 0;
    uint32_t float_prefix = 0;  // a one-float entry up to the float
    uint32_t float_prefix_size = 0;
    uint32_t int64_prefix[wire::kMaxVarintBytes + 1] = {};  // by the value's varint size
    uint32_t int64_prefix_size[wire::kMaxVarintBytes + 1] = {};
    uint32_t empty[4] = {};  // whole entries of an empty list, by FeatureKind
    uint32_t empty_size[4] = {};
    size_t short_bytes = 0;  // bytes values shorter than this have one-byte lengths throughout
    bool short_int64 = false;  // every int64 entry has one-byte lengths
  };

  static size_t VarintSize(uint64_t v) {
    if (v < 0x80) return 1;
    return static_cast<size_t>((63 - std::countl_zero(v)) * 9 + 73) / 64;
  }
  // wire::EncodeVarint of `v`, whose size is n, without a loop: a negative int64 takes all 10
  // bytes, and a loop that runs 10 times (or a varying count) costs more than writing them all.
  // Writes 10 bytes whatever n is (the room per int64 value).
  static char* EncodeVarintUnrolled(uint64_t v, size_t n, char* p) {
    for (size_t i = 0; i < static_cast<size_t>(wire::kMaxVarintBytes); ++i) {
      p[i] = static_cast<char>((v >> (7 * i)) | 0x80);
    }
    p[n - 1] &= 0x7f;
    return p + n;
  }
  static char* CopySmall(char* p, const char* src, size_t n) {
    if (n <= kCopySlack) {
      std::memcpy(p, src, kCopySlack);  // one fixed-size copy; table_ and the room are padded
    } else {
      std::memcpy(p, src, n);
    }
    return p + n;
  }
  // Writes an entry's head through the list's length; returns where the list's payload goes.
  char* Head(const Key& k, uint8_t list_tag, size_t list, char* p) const {
    const size_t feature = 1 + VarintSize(list) + list;
    const size_t entry = k.key_field_size + 1 + VarintSize(feature) + feature;
    *p++ = static_cast<char>(kEntryTag);
    p = wire::EncodeVarint(entry, p);
    p = CopySmall(p, table_.data() + k.key_field, k.key_field_size);
    *p++ = static_cast<char>(kValueTag);
    p = wire::EncodeVarint(feature, p);
    *p++ = static_cast<char>(list_tag);
    return wire::EncodeVarint(list, p);
  }
  uint32_t Store(std::string_view bytes);
  // EndRecord when the guess of the head size was wrong: moves the features once.
  char* MoveFeatures(char* begin, char* end, size_t head_size);

  std::vector<Key> keys_;
  std::string table_;  // the precomputed bytes, padded by kCopySlack
  size_t head_size_ = 1;  // the Example's length prefix: the size of the last record's
};

}  // namespace tfq

#endif  // TFQ_EXAMPLE_KEYED_ENCODER_H_
