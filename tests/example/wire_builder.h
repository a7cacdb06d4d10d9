// Hand-built protobuf wire bytes for the decoder tests: the tests spell records out field by
// field, so each one shows exactly which wire feature it exercises.
#ifndef TFQ_TESTS_EXAMPLE_WIRE_BUILDER_H_
#define TFQ_TESTS_EXAMPLE_WIRE_BUILDER_H_

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

namespace tfq::testing {

inline std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

inline std::string Tag(uint32_t field, uint32_t wire_type) { return Varint(uint64_t{field} << 3 | wire_type); }

// A length-delimited field.
inline std::string Ld(uint32_t field, std::string_view payload) {
  return Tag(field, 2) + Varint(payload.size()) + std::string(payload);
}

inline std::string VarintField(uint32_t field, uint64_t v) { return Tag(field, 0) + Varint(v); }

inline std::string Fixed32Bytes(float f) {
  std::string out(4, '\0');
  std::memcpy(out.data(), &f, 4);
  return out;
}

inline std::string Fixed32Field(uint32_t field, float f) { return Tag(field, 5) + Fixed32Bytes(f); }
inline std::string Fixed64Field(uint32_t field, uint64_t v) {
  std::string out = Tag(field, 1);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
  return out;
}

// Lists and Features (field numbers from feature.proto).
inline std::string PackedInt64s(std::initializer_list<int64_t> values) {
  std::string payload;
  for (int64_t v : values) payload += Varint(static_cast<uint64_t>(v));
  return Ld(1, payload);
}
inline std::string PackedFloats(std::initializer_list<float> values) {
  std::string payload;
  for (float v : values) payload += Fixed32Bytes(v);
  return Ld(1, payload);
}
inline std::string BytesFeature(std::string_view list) { return Ld(1, list); }
inline std::string FloatFeature(std::string_view list) { return Ld(2, list); }
inline std::string Int64Feature(std::string_view list) { return Ld(3, list); }
// A map entry (key = 1, value = 2) as a field of its map.
inline std::string Entry(std::string_view key, std::string_view value) { return Ld(1, Ld(1, key) + Ld(2, value)); }
inline std::string ExampleOf(std::string_view features) { return Ld(1, features); }

// A string from hex digits ("0a00" -> "\x0a\x00"): expected bytes pasted from protobuf.
inline std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

}  // namespace tfq::testing

#endif  // TFQ_TESTS_EXAMPLE_WIRE_BUILDER_H_
