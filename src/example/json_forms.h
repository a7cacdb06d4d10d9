// The two JSON forms of records (docs/json-forms.md).
//
// proto-json: the standard protobuf JSON mapping, as google.protobuf.json_format.MessageToJson
//   prints Example/SequenceExample: {"features":{"feature":{"k":{"int64List":{"value":["1"]}}}}};
//   int64 as decimal strings, bytes as standard base64, floats as Python's protobuf prints them
//   (see AppendShortestFloat; always with a '.' or exponent, 1.0), NaN/Infinity/-Infinity as
//   strings, an empty list as {}, a Feature with no kind as {}, fields absent on the wire
//   omitted and present-but-empty messages as {}. Map entries in wire order, compact (no
//   spaces). Exact: parsing it back gives the same message (up to map entry order and NaN
//   payloads).
// flat: {"k":[1,2]} per Example, for jq. int64 as JSON integers, floats as JSON numbers that
//   always carry a '.' or exponent (1.0), non-finite floats as "NaN"/"Infinity"/"-Infinity",
//   bytes as JSON strings where valid UTF-8 and otherwise {"base64":"..."}. A SequenceExample is
//   {"context":{...flat...},"feature_lists":{"k":[[...],[...]]}}, both keys always present.
//   An empty int64/float list and a float list with no finite value print as typed lists,
//   {"int64":[]}, {"float":["NaN"]}, which read back exactly. Lossy only where documented in
//   docs/json-forms.md: a no-kind Feature prints as [] and reads back as an empty bytes list;
//   presence of an empty features/context/feature_lists message is lost.
//
// Keys (both forms) that are not valid UTF-8 are printed with U+FFFD in place of the bad bytes,
// so that the output is always valid JSON; such keys do not survive a round trip.
#ifndef TFQ_EXAMPLE_JSON_FORMS_H_
#define TFQ_EXAMPLE_JSON_FORMS_H_

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "common/byte_buffer.h"
#include "common/status.h"
#include "example/example.h"
#include "example/example_view.h"
#include "example/json_tape.h"

namespace tfq {

enum class JsonForm { kProtoJson, kFlat };
Result<JsonForm> ParseJsonForm(std::string_view name);  // "proto-json" | "flat"

// Appends one JSON object (no newline) for the record to *out. `example` must hold a successful
// Parse (its lists are then known to decode). These write text directly (no nlohmann tree)
// because `tfq inspect --records` is a hot path.
void AppendExampleJson(const ExampleView& example, JsonForm form, std::string* out);
void AppendSequenceExampleJson(const SequenceExampleView& example, JsonForm form, std::string* out);

// Whether every feature key of the record prints as a distinct JSON key. Keys that differ only in
// bytes that are not valid UTF-8 ("a\xff" and "a\xfe") print the same, each bad byte as U+FFFD,
// and reading such JSON back would keep one of them: the writers above cannot say so, converters
// must call this first. kInvalidData naming both keys (bad bytes as \xNN) and what they print
// as. Costs one UTF-8 check per key when every key is valid UTF-8.
Status CheckJsonKeysDistinct(const ExampleView& example);
Status CheckJsonKeysDistinct(const SequenceExampleView& example);

// Reads one JSON object in either form (detected from its shape: proto-json when "features"
// holds an object; for a SequenceExample when "featureLists" is present or "context" /
// "feature_lists" hold the proto wrapper objects) and appends the serialized message to *out
// (on an error, *out holds partial bytes to drop; converters write straight into the buffer
// they frame records in). Map entries come out in the text's order, so
// that printed records read back byte-identical. The text is parsed into a compact JsonTape
// (json_tape.h) and encoded from there: memory is a few times the text, whatever its values.
// proto-json input is read as protobuf's parser reads it: original field names (bytes_list,
// feature_lists, ...) as well as camelCase, null for an absent field, int64 as strings or
// numbers, floats as numbers or strings, standard or URL-safe base64 with optional padding;
// unknown fields are errors.
// Errors (kInvalidData): the text is not valid JSON or repeats a key (JsonTape::Parse's
// messages), or they say what does not fit and where, as a path into the object
// (`features.feature["age"].int64List.value[2]: expected an int64, got the string "x"`,
// `["age"][1]: mixed kinds in one list (numbers and strings)`): nested objects or arrays,
// mixed kinds in one list, integers beyond int64, floats beyond float32, bad base64, unknown
// fields. Never throws. Does not limit nesting: give untrusted text a `guard` that does
// (convert/json_prescan.h). One reader per thread; its buffers are reused from line to line.
class JsonRecordReader {
 public:
  JsonRecordReader() = default;
  explicit JsonRecordReader(const JsonParseGuard& guard) : guard_(guard) {}

  Status ReadExample(std::string_view text, ByteBuffer* out);
  Status ReadSequenceExample(std::string_view text, ByteBuffer* out);
  // Gives memory back after a large line (see JsonTape::ReleaseIfLarger).
  void ReleaseIfLarger(size_t bytes) { tape_.ReleaseIfLarger(bytes); }

 private:
  JsonParseGuard guard_;
  JsonTape tape_;
};

// The same for a value already parsed by nlohmann (tests and fuzzers): its text is read as
// above and decoded into *out. Map entries in the value's iteration order (sorted keys for
// nlohmann::json).
Status ExampleFromJson(const nlohmann::json& value, Example* out);
Status SequenceExampleFromJson(const nlohmann::json& value, SequenceExample* out);
Status ExampleFromJson(const nlohmann::ordered_json& value, Example* out);
Status SequenceExampleFromJson(const nlohmann::ordered_json& value, SequenceExample* out);

// Shortest decimal text that reads back as the same float32 ("0.1", "1e+20", "1", "NaN",
// "Infinity", "-Infinity"), chosen and laid out exactly as Python's protobuf json_format prints
// floats (type_checkers.ToShortestFloat, then repr, minus repr's ".0"): the value correctly
// rounded to p significant digits for the smallest p >= 6 that reads back — through a double,
// as Python and JSON parsers read numbers — as the same float32, trailing zeros dropped. That
// is std::to_chars's shortest value except for subnormals (1.4013e-45, not 1e-45), rare large
// integers (33871890, not 33871888), and two magnitudes where reading through a double rounds
// differently from reading straight to float (7.038531e-26 is 0x15ae43fe through a double but
// 0x15ae43fd by strtof). Fixed notation for decimal exponents -4..15, scientific otherwise.
// Appends to *out. Exposed for the CSV exporter and tests.
void AppendShortestFloat(float value, std::string* out);

// AppendShortestFloat's text with ".0" added where it would otherwise read as an integer
// ("1.0", "874101400.0"; "0.5", "1e+20", "NaN" unchanged): how the flat JSON form and the CSV
// exporter write floats, so that their readers, which infer kinds, read a float back as a float.
void AppendFloatLiteral(float value, std::string* out);

}  // namespace tfq

#endif  // TFQ_EXAMPLE_JSON_FORMS_H_
