// The two JSON forms of records (docs/json-forms.md).
//
// proto-json: the standard protobuf JSON mapping, as google.protobuf.json_format.MessageToJson
//   prints Example/SequenceExample: {"features":{"feature":{"k":{"int64List":{"value":["1"]}}}}};
//   int64 as decimal strings, bytes as standard base64, floats as the shortest decimal that
//   round-trips through float32, NaN/Infinity/-Infinity as strings, an empty list as {}, fields
//   absent on the wire omitted. Exact: parsing it back gives the same message.
// flat: {"k":[1,2]} per Example, for jq. int64 as JSON integers, floats as JSON numbers that
//   always carry a '.' or exponent (1.0), non-finite floats as "NaN"/"Infinity"/"-Infinity",
//   bytes as JSON strings where valid UTF-8 and otherwise {"base64":"..."}. A SequenceExample is
//   {"context":{...flat...},"feature_lists":{"k":[[...],[...]]}}. Lossy only where documented:
//   an empty list and a no-kind Feature both print as [] and read back as an empty bytes list.
#ifndef TFQ_EXAMPLE_JSON_FORMS_H_
#define TFQ_EXAMPLE_JSON_FORMS_H_

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "common/status.h"
#include "example/example.h"
#include "example/example_view.h"

namespace tfq {

enum class JsonForm { kProtoJson, kFlat };
Result<JsonForm> ParseJsonForm(std::string_view name);  // "proto-json" | "flat"

// Appends one JSON object (no newline) for the record to *out. These write text directly (no
// nlohmann tree) because `tfq inspect --records` is a hot path.
void AppendExampleJson(const ExampleView& example, JsonForm form, std::string* out);
void AppendSequenceExampleJson(const SequenceExampleView& example, JsonForm form, std::string* out);

// Parses one JSON object in either form (detected from its shape) back into a message.
// Errors (kInvalidData) say what does not fit: nested objects, mixed kinds in one list,
// integers beyond int64, bad base64.
Status ExampleFromJson(const nlohmann::json& value, Example* out);
Status SequenceExampleFromJson(const nlohmann::json& value, SequenceExample* out);

// Shortest decimal text that parses back to the same float32 ("0.1", "1e+20", "NaN").
// Exposed for the CSV exporter and tests.
void AppendShortestFloat(float value, std::string* out);

}  // namespace tfq

#endif  // TFQ_EXAMPLE_JSON_FORMS_H_
