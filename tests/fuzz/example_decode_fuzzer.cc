// Fuzz target: the Example and SequenceExample decoder (src/example), and what is done with a
// record that decodes: re-encoding and both JSON forms.
//
// The input is one serialized record, parsed both as an Example and as a SequenceExample. For
// each parse that succeeds:
//  - copying it out and serializing it gives bytes S that parse again and re-serialize to S
//    (decoding is a function of the message, not of the wire layout);
//  - both JSON forms are valid JSON; the flat form is read back (it is lossy and may be
//    ambiguous, so only for crashes); proto-json reads back to S exactly, unless a key is not
//    UTF-8 (printed with U+FFFD) or a float is a NaN (its payload is not kept).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "example/example.h"
#include "example/example_view.h"
#include "example/json_forms.h"
#include "fuzz_check.h"

namespace {

bool IsUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n;  // continuation bytes
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c >> 5) == 6) {
      n = 1, cp = c & 0x1f;
    } else if ((c >> 4) == 14) {
      n = 2, cp = c & 0x0f;
    } else if ((c >> 3) == 30) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + n >= s.size()) return false;
    for (size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d >> 6) != 2) return false;
      cp = (cp << 6) | (d & 0x3f);
    }
    constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};  // shorter forms are overlong
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

// Whether proto-json must read back to the same bytes (see the header comment).
bool ExactInJson(const tfq::FeatureMap& features) {
  for (const auto& [key, feature] : features) {
    if (!IsUtf8(key)) return false;
    for (float f : feature.float_list) {
      if (std::isnan(f)) return false;
    }
  }
  return true;
}

bool ExactInJson(const tfq::SequenceExample& e) {
  if (!ExactInJson(e.context)) return false;
  for (const auto& [key, steps] : e.feature_lists) {
    if (!IsUtf8(key)) return false;
    for (const tfq::Feature& step : steps) {
      if (!ExactInJson(tfq::FeatureMap{{"", step}})) return false;
    }
  }
  return true;
}

nlohmann::ordered_json ParseJsonOrDie(const std::string& text) {
  nlohmann::ordered_json value = nlohmann::ordered_json::parse(text, nullptr, false);
  if (value.is_discarded()) std::fprintf(stderr, "invalid JSON written: %s\n", text.c_str());
  FUZZ_CHECK(!value.is_discarded());
  return value;
}

void CheckExample(std::string_view record) {
  tfq::ExampleView view;
  if (!view.Parse(record).ok()) return;
  tfq::Example example;
  FUZZ_CHECK(tfq::ToExample(view, &example).ok());
  std::string serialized;
  tfq::SerializeExample(example, &serialized);

  tfq::ExampleView again;
  FUZZ_CHECK(again.Parse(serialized).ok());
  tfq::Example copy;
  FUZZ_CHECK(tfq::ToExample(again, &copy).ok());
  std::string reserialized;
  tfq::SerializeExample(copy, &reserialized);
  FUZZ_CHECK(reserialized == serialized);

  for (tfq::JsonForm form : {tfq::JsonForm::kProtoJson, tfq::JsonForm::kFlat}) {
    std::string text;
    tfq::AppendExampleJson(view, form, &text);
    tfq::Example from_json;
    const tfq::Status read = tfq::ExampleFromJson(ParseJsonOrDie(text), &from_json);
    if (form == tfq::JsonForm::kFlat) continue;
    if (!read.ok()) std::fprintf(stderr, "%s\n%s\n", text.c_str(), read.ToString().c_str());
    FUZZ_CHECK(read.ok());
    if (!ExactInJson(example.features)) continue;
    std::string from_json_bytes;
    tfq::SerializeExample(from_json, &from_json_bytes);
    FUZZ_CHECK(from_json_bytes == serialized);
  }
}

void CheckSequenceExample(std::string_view record) {
  tfq::SequenceExampleView view;
  if (!view.Parse(record).ok()) return;
  tfq::SequenceExample example;
  FUZZ_CHECK(tfq::ToSequenceExample(view, &example).ok());
  std::string serialized;
  tfq::SerializeSequenceExample(example, &serialized);

  tfq::SequenceExampleView again;
  FUZZ_CHECK(again.Parse(serialized).ok());
  tfq::SequenceExample copy;
  FUZZ_CHECK(tfq::ToSequenceExample(again, &copy).ok());
  std::string reserialized;
  tfq::SerializeSequenceExample(copy, &reserialized);
  FUZZ_CHECK(reserialized == serialized);

  for (tfq::JsonForm form : {tfq::JsonForm::kProtoJson, tfq::JsonForm::kFlat}) {
    std::string text;
    tfq::AppendSequenceExampleJson(view, form, &text);
    tfq::SequenceExample from_json;
    const tfq::Status read = tfq::SequenceExampleFromJson(ParseJsonOrDie(text), &from_json);
    if (form == tfq::JsonForm::kFlat) continue;
    if (!read.ok()) std::fprintf(stderr, "%s\n%s\n", text.c_str(), read.ToString().c_str());
    FUZZ_CHECK(read.ok());
    if (!ExactInJson(example)) continue;
    std::string from_json_bytes;
    tfq::SerializeSequenceExample(from_json, &from_json_bytes);
    FUZZ_CHECK(from_json_bytes == serialized);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view record(reinterpret_cast<const char*>(data), size);
  CheckExample(record);
  CheckSequenceExample(record);
  return 0;
}
