// Writing JSON text directly (no DOM): string literals and UTF-8 validation, for the hand-written
// JSON writers (example/json_write.cc); the same rule as common/json_output.h.
#ifndef TFQ_COMMON_JSON_TEXT_H_
#define TFQ_COMMON_JSON_TEXT_H_

#include <string>
#include <string_view>

namespace tfq {

// Whether `s` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most
// U+10FFFF) — exactly what a JSON parser such as nlohmann's accepts inside a string.
bool IsValidUtf8(std::string_view s);

// Appends `s` as a JSON string literal, quotes included: '"', '\\' and control characters
// escaped, other characters as UTF-8. Bytes that are not valid UTF-8 become U+FFFD (only
// feature keys can contain them; the writers print bytes values that are not UTF-8 as base64).
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace tfq

#endif  // TFQ_COMMON_JSON_TEXT_H_
