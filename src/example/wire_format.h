// The protobuf wire format as far as tf.train.Example needs it: the field numbers of the Example
// messages (docs/example-format.md), tags, varints and the fixed-width loads, as inline
// primitives shared by the lazy decoder, the ForEach* templates and the encoder.
//
// Internal to src/example (other parts use example_view.h / example.h). The raw decoders return
// nullptr on malformed input and leave the detailed message to the callers, which know the
// field and the byte offset.
#ifndef TFQ_EXAMPLE_WIRE_FORMAT_H_
#define TFQ_EXAMPLE_WIRE_FORMAT_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "common/swar.h"

static_assert(std::endian::native == std::endian::little,
              "the float and fixed32 loads assume a little-endian host, as the wire format is");

namespace tfq::wire {

enum WireType : uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

constexpr uint32_t MakeTag(uint32_t field, WireType type) { return (field << 3) | type; }

// Field numbers, named once (tensorflow/core/example/{example,feature}.proto).
inline constexpr uint32_t kExampleFeatures = 1;         // Example.features: Features
inline constexpr uint32_t kSequenceContext = 1;         // SequenceExample.context: Features
inline constexpr uint32_t kSequenceFeatureLists = 2;    // SequenceExample.feature_lists
inline constexpr uint32_t kFeaturesFeature = 1;         // Features.feature: map<string, Feature>
inline constexpr uint32_t kFeatureListsFeatureList = 1;  // FeatureLists.feature_list: map<string, FeatureList>
inline constexpr uint32_t kFeatureListFeature = 1;      // FeatureList.feature: repeated Feature
inline constexpr uint32_t kMapKey = 1;                  // every map entry: key = 1, value = 2
inline constexpr uint32_t kMapValue = 2;
inline constexpr uint32_t kFeatureBytesList = 1;        // Feature.kind oneof
inline constexpr uint32_t kFeatureFloatList = 2;
inline constexpr uint32_t kFeatureInt64List = 3;
inline constexpr uint32_t kListValue = 1;               // {Bytes,Float,Int64}List.value

// The tags the hot paths compare against; each fits in one byte.
inline constexpr uint8_t kPackedValueTag = MakeTag(kListValue, kLengthDelimited);  // 0x0a
inline constexpr uint8_t kFloatValueTag = MakeTag(kListValue, kFixed32);           // 0x0d
inline constexpr uint8_t kInt64ValueTag = MakeTag(kListValue, kVarint);            // 0x08
inline constexpr uint8_t kBytesValueTag = MakeTag(kListValue, kLengthDelimited);   // 0x0a

inline constexpr int kMaxVarintBytes = 10;

// Decodes a varint at p (< end). Returns the byte after it, or nullptr if it runs past `end` or
// over 10 bytes. Like protobuf, bits beyond 64 in the tenth byte are dropped.
inline const char* DecodeVarint(const char* p, const char* end, uint64_t* value) {
  if (p < end && static_cast<uint8_t>(*p) < 0x80) {  // one byte: most tags and lengths
    *value = static_cast<uint8_t>(*p);
    return p + 1;
  }
  // Two to eight bytes with eight readable: found and assembled a word at a time, with no
  // branch per byte (ids, hashes and timestamps are varints of this length).
  if (end - p >= 8) {
    uint64_t word = swar::Load(p);
    const uint64_t last_bytes = ~word & swar::kHighs;  // the high bit clear: a varint's last
    if (last_bytes != 0) {
      word &= (last_bytes ^ (last_bytes - 1)) & 0x7f7f7f7f7f7f7f7fu;  // its bytes, 7 bits of each
      word = ((word & 0x7f007f007f007f00u) >> 1) | (word & 0x007f007f007f007fu);
      word = ((word & 0x3fff00003fff0000u) >> 2) | (word & 0x00003fff00003fffu);
      word = ((word & 0x0fffffff00000000u) >> 4) | (word & 0x000000000fffffffu);
      *value = word;
      return p + swar::FirstFlagged(last_bytes) + 1;
    }
  }
  uint64_t result = 0;
  for (int shift = 0; shift < 7 * kMaxVarintBytes; shift += 7) {
    if (p == end) return nullptr;
    const uint8_t byte = static_cast<uint8_t>(*p++);
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) {
      *value = result;
      return p;
    }
  }
  return nullptr;
}

// Decodes a length prefix and checks that the bytes it announces are there. Returns the first
// payload byte, or nullptr (malformed varint or too long; *length is then set if it decoded).
inline const char* DecodeLength(const char* p, const char* end, uint64_t* length) {
  p = DecodeVarint(p, end, length);
  if (p == nullptr || *length > static_cast<uint64_t>(end - p)) return nullptr;
  return p;
}

// Decodes a tag: nullptr if malformed, beyond 32 bits or of field number 0.
inline const char* DecodeTag(const char* p, const char* end, uint32_t* tag) {
  uint64_t value;
  p = DecodeVarint(p, end, &value);
  if (p == nullptr || value > 0xffffffffu || (value >> 3) == 0) return nullptr;
  *tag = static_cast<uint32_t>(value);
  return p;
}

// Skips the value of an unknown field. nullptr if malformed, a group or an invalid wire type.
inline const char* SkipValue(const char* p, const char* end, uint32_t wire_type) {
  uint64_t value;
  switch (wire_type) {
    case kVarint:
      return DecodeVarint(p, end, &value);
    case kFixed64:
      return end - p >= 8 ? p + 8 : nullptr;
    case kLengthDelimited:
      p = DecodeLength(p, end, &value);
      return p == nullptr ? nullptr : p + value;
    case kFixed32:
      return end - p >= 4 ? p + 4 : nullptr;
    default:
      return nullptr;
  }
}

inline float LoadFloat(const char* p) {
  float f;
  std::memcpy(&f, p, sizeof f);  // an unaligned 4-byte load, not a call
  return f;
}

// --- encoding -----------------------------------------------------------------------------------

inline size_t VarintSize(uint64_t v) {
  // 1 + floor(log2(v) / 7) without a loop; v | 1 keeps countl_zero defined for 0.
  return static_cast<size_t>((64 - std::countl_zero(v | 1) + 6) / 7);
}

inline char* EncodeVarint(uint64_t v, char* p) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

inline void AppendVarint(uint64_t v, std::string* out) {
  char buf[kMaxVarintBytes];
  out->append(buf, EncodeVarint(v, buf));
}

// A tag and a length prefix: the head of every length-delimited field.
inline void AppendLengthDelimitedHead(uint32_t field, size_t length, std::string* out) {
  out->push_back(static_cast<char>(MakeTag(field, kLengthDelimited)));  // fields here are < 16
  AppendVarint(length, out);
}

// Size of a length-delimited field with a one-byte tag and `length` payload bytes.
inline size_t LengthDelimitedSize(size_t length) { return 1 + VarintSize(length) + length; }

}  // namespace tfq::wire

#endif  // TFQ_EXAMPLE_WIRE_FORMAT_H_
