// Shared pieces of the JSON readers (json_read*.cc). Internal to src/example.
//
// Errors are kInvalidData "<where>: <what>", where <where> is a path into the JSON object in the
// form's own terms (`features.feature["age"].int64List.value[2]`, `"age"[2]`). The readers
// inspect types before every access, so nlohmann never throws on their account; the public
// functions still catch its exceptions at the boundary.
#ifndef TFQ_EXAMPLE_JSON_READ_INTERNAL_H_
#define TFQ_EXAMPLE_JSON_READ_INTERNAL_H_

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "example/example.h"

namespace tfq::internal {

// Ordered: map entries come out in the order the JSON text lists them, so that JSON lines printed
// from a TFRecord file read back into the same bytes (nlohmann::json would sort the keys).
using Json = nlohmann::ordered_json;

Status JsonError(const std::string& where, std::string_view what);
// "a string", "an array", "null", ... for messages.
std::string_view JsonTypeName(const Json& value);
// `"key"` with JSON escapes, for paths.
std::string QuotedKey(std::string_view key);

// The value of a float in either form: any JSON number, or "NaN" / "Infinity" / "-Infinity".
// `allow_numeric_strings`: proto-json also accepts decimal strings ("1.5"), as protobuf does.
Status JsonToFloat(const Json& value, bool allow_numeric_strings, const std::string& where, float* out);
// A JSON integer within int64 (or, with `allow_strings`, a decimal string: proto-json's form).
Status JsonToInt64(const Json& value, bool allow_strings, const std::string& where, int64_t* out);
Status Base64ToBytes(const Json& value, const std::string& where, std::string* out);

// The proto-json form (protobuf's JSON mapping; both camelCase and original field names).
Status ProtoJsonToFeatures(const Json& features, const std::string& where, FeatureMap* out);
Status ProtoJsonToFeatureLists(const Json& lists, const std::string& where,
                               std::vector<std::pair<std::string, std::vector<Feature>>>* out);

// The flat form: {"key": [values...]} with the kind inferred from the values.
// Whether `value` is one of the two objects the flat form has for a feature's value: a typed
// list ({"int64": [...]}, {"float": [...]}, {"bytes": [...]}) or one {"base64": "..."} value.
// Form detection uses it to tell a flat feature named "features" or "feature" from proto-json.
bool IsFlatValueObject(const Json& value);
Status FlatToFeatures(const Json& object, const std::string& where, FeatureMap* out);
Status FlatToFeatureLists(const Json& object, const std::string& where,
                          std::vector<std::pair<std::string, std::vector<Feature>>>* out);

}  // namespace tfq::internal

#endif  // TFQ_EXAMPLE_JSON_READ_INTERNAL_H_
