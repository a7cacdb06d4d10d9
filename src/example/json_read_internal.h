// Shared pieces of the JSON readers (json_read*.cc). Internal to src/example.
//
// The readers walk a JsonTape (json_tape.h) and write the serialized message straight into a
// WireWriter, in the order protobuf's serializer writes it, so that no Example is built on the
// way: a line of tiny values would otherwise hold a std::string or a Feature per value.
//
// Errors are kInvalidData "<where>: <what>", where <where> is a path into the JSON object in the
// form's own terms (`features.feature["age"].int64List.value[2]`, `"age"[2]`). On an error the
// bytes written so far are meaningless; the caller drops them.
#ifndef TFQ_EXAMPLE_JSON_READ_INTERNAL_H_
#define TFQ_EXAMPLE_JSON_READ_INTERNAL_H_

#include <string>
#include <string_view>

#include "common/byte_buffer.h"
#include "common/status.h"
#include "example/example_view.h"
#include "example/json_tape.h"

namespace tfq::internal {

using Json = JsonNode;

// Appends protobuf fields whose lengths are known only once their contents are written: Open
// writes the tag and a one-byte length, Close fixes the length (moving the contents when it needs
// more bytes, which happens once per byte per nesting level at most).
class WireWriter {
 public:
  explicit WireWriter(ByteBuffer* out) : out_(out) {}
  // Starts length-delimited field `field` (< 16); returns its mark for Close or Drop.
  size_t Open(uint32_t field);
  void Close(size_t mark);
  void Drop(size_t mark) { out_->CommitTo(out_->data() + mark); }  // as if never opened
  size_t size() const { return out_->size(); }
  void Bytes(uint32_t field, std::string_view value);
  void Varint(uint64_t value);
  void Fixed32(float value);
  // Moves the bytes from `middle` to the end in front of those from `begin` to `middle`.
  void Rotate(size_t begin, size_t middle);
  std::string* scratch() { return &scratch_; }  // for a value decoded before it is written

 private:
  ByteBuffer* out_;
  std::string scratch_;
};

// Where a value is, for messages: steps from the top (a field ".name", a map key ["k"], an index
// [i]), spelled out only when a message needs them. Building every value's path as a string took
// a tenth of converting JSON lines. A step refers to the step before it, so each must outlive
// the steps made from it: make them where the value is read, and pass them down.
class JsonPath {
 public:
  // The top: "" or "context". Implicit, so that a message's place can be given as text.
  JsonPath(std::string_view top = {}) : text_(top) {}           // NOLINT
  JsonPath(const char* top) : text_(top) {}                     // NOLINT
  JsonPath(const std::string& top) : text_(top) {}              // NOLINT
  JsonPath Field(std::string_view name) const { return JsonPath(this, Kind::kField, name, 0); }
  JsonPath Key(std::string_view key) const { return JsonPath(this, Kind::kKey, key, 0); }
  JsonPath Index(size_t i) const { return JsonPath(this, Kind::kIndex, {}, i); }
  // `features.feature["age"].int64List.value[2]`
  std::string str() const;

 private:
  enum class Kind { kTop, kField, kKey, kIndex };
  JsonPath(const JsonPath* parent, Kind kind, std::string_view text, size_t index)
      : parent_(parent), kind_(kind), text_(text), index_(index) {}
  const JsonPath* parent_ = nullptr;
  Kind kind_ = Kind::kTop;
  std::string_view text_;
  size_t index_ = 0;
};

Status JsonError(const JsonPath& where, std::string_view what);
// "a string", "an array", "null", ... for messages.
std::string_view JsonTypeName(const Json& value);
// `"key"` with JSON escapes, for paths.
std::string QuotedKey(std::string_view key);

// The value of a float in either form: any JSON number, or "NaN" / "Infinity" / "-Infinity".
// `allow_numeric_strings`: proto-json also accepts decimal strings ("1.5"), as protobuf does.
Status JsonToFloat(const Json& value, bool allow_numeric_strings, const JsonPath& where, float* out);
// A JSON integer within int64 (or, with `allow_strings`, a decimal string: proto-json's form).
Status JsonToInt64(const Json& value, bool allow_strings, const JsonPath& where, int64_t* out);
// Writes the decoded bytes as a list value (field 1) of a BytesList.
Status Base64ToBytesValue(const Json& value, const JsonPath& where, WireWriter* out);

// The proto-json form (protobuf's JSON mapping; both camelCase and original field names).
// Each writes a map's entries (the contents of a Features or FeatureLists message).
Status ProtoJsonToFeatures(const Json& features, const JsonPath& where, WireWriter* out);
Status ProtoJsonToFeatureLists(const Json& lists, const JsonPath& where, WireWriter* out);

// The flat form: {"key": [values...]} with the kind inferred from the values.
// Whether `value` is one of the two objects the flat form has for a feature's value: a typed
// list ({"int64": [...]}, {"float": [...]}, {"bytes": [...]}) or one {"base64": "..."} value.
// Form detection uses it to tell a flat feature named "features" or "feature" from proto-json.
bool IsFlatValueObject(const Json& value);
Status FlatToFeatures(const Json& object, const JsonPath& where, WireWriter* out);
Status FlatToFeatureLists(const Json& object, const JsonPath& where, WireWriter* out);

}  // namespace tfq::internal

#endif  // TFQ_EXAMPLE_JSON_READ_INTERNAL_H_
