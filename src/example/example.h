// Owning, buildable tf.train.Example / SequenceExample values and their serialization.
//
// The encoder writes exactly the bytes Google's protobuf C++ serializer writes for the same
// message with map entries in the given order: map entries as (key=1, value=2) submessages,
// int64 and float lists packed (proto3 default), an empty list as an empty list message, a
// Feature of kind kNone as an empty Feature message, message fields present even when empty.
// docs/example-format.md has the rules; tests/example/example_encoder_test.cc pins them with
// bytes from the real serializer. Converters build these; readers use the lazy views in
// example_view.h.
#ifndef TFQ_EXAMPLE_EXAMPLE_H_
#define TFQ_EXAMPLE_EXAMPLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "example/example_view.h"

namespace tfq {

struct Feature {
  FeatureKind kind = FeatureKind::kNone;
  std::vector<std::string> bytes_list;
  std::vector<float> float_list;
  std::vector<int64_t> int64_list;

  static Feature Bytes(std::vector<std::string> v);
  static Feature Floats(std::vector<float> v);
  static Feature Int64s(std::vector<int64_t> v);
  bool operator==(const Feature&) const = default;
};

// Map entries in serialization order. Keys are expected unique (a duplicate is serialized as
// given; a reader keeps the last).
using FeatureMap = std::vector<std::pair<std::string, Feature>>;

struct Example {
  FeatureMap features;
  bool has_features = true;  // false: serialize no `features` field at all (an empty message)
  bool operator==(const Example&) const = default;
};

struct SequenceExample {
  FeatureMap context;
  std::vector<std::pair<std::string, std::vector<Feature>>> feature_lists;
  bool has_context = true;
  bool has_feature_lists = true;
  bool operator==(const SequenceExample&) const = default;
};

// Appends the serialized message to *out (does not clear it).
void SerializeExample(const Example& example, std::string* out);
void SerializeSequenceExample(const SequenceExample& example, std::string* out);

// Appends one serialized Feature message (no tag) to *out: the building block for encoders that
// stream features without building an Example first (CSV and image converters).
void SerializeFeature(const Feature& feature, std::string* out);

// Streaming encoder for one Example: appends features one by one without materializing a
// Feature, then writes the framing. The bytes equal SerializeExample's for the same features
// in the same order (has_features = true: with no Add at all, Finish writes an empty
// `features` message, not an empty Example). Keys and values are copied during each call.
// Reuse one encoder per thread (Clear between records); nothing allocates once its buffer has
// grown.
class ExampleEncoder {
 public:
  void Clear();
  void AddBytes(std::string_view key, const std::vector<std::string_view>& values);
  void AddBytes(std::string_view key, std::string_view value);  // one-value list
  void AddFloats(std::string_view key, const float* values, size_t n);
  void AddInt64s(std::string_view key, const int64_t* values, size_t n);
  void AddInt64(std::string_view key, int64_t value) { AddInt64s(key, &value, 1); }
  void AddFloat(std::string_view key, float value) { AddFloats(key, &value, 1); }
  void AddEmpty(std::string_view key, FeatureKind kind);  // empty list (or no-kind Feature)
  // Appends the serialized Example to *out.
  void Finish(std::string* out) const;

 private:
  char* Extend(size_t n);  // n more bytes at the end of [0, used_), not zero-filled
  // Extends by a whole map entry and writes it up to its list's payload; returns the payload's place.
  char* AppendEntry(std::string_view key, uint32_t oneof, size_t list_size);
  std::string features_;  // serialized map entries so far: [0, used_); the rest is spare room
  size_t used_ = 0;
};

// Copies a decoded view into owning values (cold paths: JSON round trips, tests). Entries keep
// the view's order (first appearance of each key, last value).
Status ToExample(const ExampleView& view, Example* out);
Status ToSequenceExample(const SequenceExampleView& view, SequenceExample* out);

}  // namespace tfq

#endif  // TFQ_EXAMPLE_EXAMPLE_H_
