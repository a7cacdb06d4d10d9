// The one rule for JSON that tfq prints or writes: strings that are not valid UTF-8 (feature keys,
// paths, CSV headers all come from user data) have each bad byte replaced by U+FFFD, so the
// output is always valid JSON and nlohmann's writer never throws. Hand-written JSON writers
// (common/json_text.h) follow the same rule.
#ifndef TFQ_COMMON_JSON_OUTPUT_H_
#define TFQ_COMMON_JSON_OUTPUT_H_

#include <string>

#include <nlohmann/json.hpp>

namespace tfq {

// `indent` as nlohmann's dump(): -1 for one line, n >= 0 for pretty-printing with n spaces.
std::string ToJsonText(const nlohmann::json& value, int indent = -1);
std::string ToJsonText(const nlohmann::ordered_json& value, int indent = -1);

}  // namespace tfq

#endif  // TFQ_COMMON_JSON_OUTPUT_H_
