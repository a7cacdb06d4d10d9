// CheckJsonKeysDistinct (json_forms.h): JSON output must not merge two feature keys.
#include <string>
#include <unordered_map>

#include "common/json_text.h"
#include "example/json_forms.h"

namespace tfq {
namespace {

// The key's bytes for a message: printable ASCII as it is, everything else as \xNN (the key is
// not valid UTF-8, so it cannot be quoted as it is).
std::string EscapedBytes(std::string_view key) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : key) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out.push_back(ch);
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out + "\"";
}

// `entries`: FeaturesView or FeatureList entries, each with a `key`.
template <typename Entries>
Status CheckKeys(const Entries& entries, const char* what) {
  bool all_valid = true;
  for (const auto& e : entries) all_valid = all_valid && IsValidUtf8(e.key);
  if (all_valid) return Status::OK();  // distinct on the wire, so distinct as JSON
  std::unordered_map<std::string, std::string_view> printed;
  for (const auto& e : entries) {
    std::string json;
    AppendJsonString(e.key, &json);
    auto [it, inserted] = printed.emplace(json, e.key);
    if (inserted) continue;
    return Status::InvalidData(std::string(what) + " keys " + EscapedBytes(it->second) + " and " +
                               EscapedBytes(e.key) + " both print as the JSON key " + json +
                               " (bytes that are not UTF-8 print as U+FFFD), so one would be lost; "
                               "rename the keys, or keep the data as TFRecord");
  }
  return Status::OK();
}

}  // namespace

Status CheckJsonKeysDistinct(const ExampleView& example) {
  return CheckKeys(example.features().entries(), "feature");
}

Status CheckJsonKeysDistinct(const SequenceExampleView& example) {
  TFQ_RETURN_IF_ERROR(CheckKeys(example.context().entries(), "context feature"));
  return CheckKeys(example.feature_lists(), "feature list");
}

}  // namespace tfq
