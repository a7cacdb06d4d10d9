// The JSON writers (docs/json-forms.md): text appended directly, values decoded straight from
// the lazy views. The views come from a successful Parse, so the ForEach* calls cannot fail and
// their Status is ignored.
#include <charconv>
#include <cmath>
#include <string>

#include "common/base64.h"
#include "common/json_text.h"
#include "example/json_forms.h"

namespace tfq {

Result<JsonForm> ParseJsonForm(std::string_view name) {
  if (name == "proto-json") return JsonForm::kProtoJson;
  if (name == "flat") return JsonForm::kFlat;
  return Status::InvalidArgument("unknown JSON form \"" + std::string(name) +
                                 "\" (expected proto-json or flat)");
}

namespace {


void AppendInt64(int64_t v, std::string* out) {
  char buf[24];
  out->append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

// A float as a JSON value: a number that always reads as a float (Python prints 1.0, not 1),
// or one of the strings protobuf uses for non-finite values.
void AppendFloatValue(float v, std::string* out) {
  if (!std::isfinite(v)) out->push_back('"');
  AppendFloatLiteral(v, out);
  if (!std::isfinite(v)) out->push_back('"');
}

// Writes the values for_each yields, separated by commas; returns whether there were any.
template <typename ForEach, typename Write>
bool AppendValues(const ForEach& for_each, const Write& write, std::string* out) {
  bool first = true;
  (void)for_each([&](auto v) {
    if (!first) out->push_back(',');
    first = false;
    write(v, out);
  });
  return !first;
}

// The values of a feature as the elements of a JSON array (without the brackets).
// proto-json: int64 as strings, bytes as base64. flat: int64 as numbers, bytes as strings when
// they are UTF-8 and {"base64": ...} otherwise.
bool AppendElements(const FeatureView& f, JsonForm form, std::string* out) {
  const bool proto = form == JsonForm::kProtoJson;
  switch (f.kind()) {
    case FeatureKind::kBytes:
      return AppendValues([&](auto fn) { return f.ForEachBytes(fn); },
                          [proto](std::string_view v, std::string* o) {
                            if (!proto && IsValidUtf8(v)) {
                              AppendJsonString(v, o);
                              return;
                            }
                            o->append(proto ? "\"" : "{\"base64\":\"");
                            AppendBase64(v, o);
                            o->append(proto ? "\"" : "\"}");
                          },
                          out);
    case FeatureKind::kFloat:
      return AppendValues([&](auto fn) { return f.ForEachFloat(fn); },
                          [](float v, std::string* o) { AppendFloatValue(v, o); }, out);
    case FeatureKind::kInt64:
      return AppendValues([&](auto fn) { return f.ForEachInt64(fn); },
                          [proto](int64_t v, std::string* o) {
                            if (proto) o->push_back('"');
                            AppendInt64(v, o);
                            if (proto) o->push_back('"');
                          },
                          out);
    case FeatureKind::kNone:
      break;
  }
  return false;
}

// proto-json Feature: {"int64List":{"value":["1"]}}; an empty list {"int64List":{}}; no kind {}.
void AppendProtoFeature(const FeatureView& f, std::string* out) {
  switch (f.kind()) {
    case FeatureKind::kBytes: out->append("{\"bytesList\":{"); break;
    case FeatureKind::kFloat: out->append("{\"floatList\":{"); break;
    case FeatureKind::kInt64: out->append("{\"int64List\":{"); break;
    case FeatureKind::kNone: out->append("{}"); return;
  }
  const size_t before_value = out->size();
  out->append("\"value\":[");
  if (AppendElements(f, JsonForm::kProtoJson, out)) {
    out->push_back(']');
  } else {
    out->resize(before_value);  // proto3 JSON omits an empty repeated field
  }
  out->append("}}");
}

// Whether a flat array of these values would read back as another kind: an int64 or float list
// with no value, or a float list with no finite value (["NaN"] reads back as bytes).
bool NeedsTypedList(const FeatureView& f) {
  if (f.kind() == FeatureKind::kInt64) {
    size_t count = 0;
    (void)f.CountValues(&count);
    return count == 0;
  }
  if (f.kind() != FeatureKind::kFloat) return false;
  bool any_finite = false;
  (void)f.ForEachFloat([&](float v) { any_finite = any_finite || std::isfinite(v); });
  return !any_finite;
}

// [values], or {"int64":[...]} / {"float":[...]} where the values alone would not say the kind.
void AppendFlatFeature(const FeatureView& f, std::string* out) {
  const bool typed = NeedsTypedList(f);
  if (typed) out->append(f.kind() == FeatureKind::kInt64 ? "{\"int64\":" : "{\"float\":");
  out->push_back('[');
  AppendElements(f, JsonForm::kFlat, out);
  out->push_back(']');
  if (typed) out->push_back('}');
}

// proto-json Features message: {"feature":{...}}, or {} when the map is empty.
void AppendProtoFeatures(const FeaturesView& features, std::string* out) {
  if (features.size() == 0) {
    out->append("{}");
    return;
  }
  out->append("{\"feature\":{");
  bool first = true;
  for (const FeaturesView::Entry& e : features.entries()) {
    if (!first) out->push_back(',');
    first = false;
    AppendJsonString(e.key, out);
    out->push_back(':');
    AppendProtoFeature(e.feature, out);
  }
  out->append("}}");
}

void AppendFlatFeatures(const FeaturesView& features, std::string* out) {
  out->push_back('{');
  bool first = true;
  for (const FeaturesView::Entry& e : features.entries()) {
    if (!first) out->push_back(',');
    first = false;
    AppendJsonString(e.key, out);
    out->push_back(':');
    AppendFlatFeature(e.feature, out);
  }
  out->push_back('}');
}

void AppendProtoFeatureLists(const SequenceExampleView& example, std::string* out) {
  if (example.feature_lists().empty()) {
    out->append("{}");
    return;
  }
  out->append("{\"featureList\":{");
  bool first = true;
  for (const SequenceExampleView::FeatureListEntry& e : example.feature_lists()) {
    if (!first) out->push_back(',');
    first = false;
    AppendJsonString(e.key, out);
    if (e.steps.empty()) {
      out->append(":{}");
      continue;
    }
    out->append(":{\"feature\":[");
    for (size_t i = 0; i < e.steps.size(); ++i) {
      if (i > 0) out->push_back(',');
      AppendProtoFeature(e.steps[i], out);
    }
    out->append("]}");
  }
  out->append("}}");
}

void AppendFlatFeatureLists(const SequenceExampleView& example, std::string* out) {
  out->push_back('{');
  bool first = true;
  for (const SequenceExampleView::FeatureListEntry& e : example.feature_lists()) {
    if (!first) out->push_back(',');
    first = false;
    AppendJsonString(e.key, out);
    out->append(":[");
    for (size_t i = 0; i < e.steps.size(); ++i) {
      if (i > 0) out->push_back(',');
      AppendFlatFeature(e.steps[i], out);
    }
    out->push_back(']');
  }
  out->push_back('}');
}

}  // namespace

void AppendFloatLiteral(float value, std::string* out) {
  const size_t start = out->size();
  AppendShortestFloat(value, out);
  if (std::isfinite(value) && out->find_first_of(".e", start) == std::string::npos) out->append(".0");
}

void AppendExampleJson(const ExampleView& example, JsonForm form, std::string* out) {
  if (form == JsonForm::kFlat) {
    AppendFlatFeatures(example.features(), out);
    return;
  }
  if (!example.has_features()) {
    out->append("{}");
    return;
  }
  out->append("{\"features\":");
  AppendProtoFeatures(example.features(), out);
  out->push_back('}');
}

void AppendSequenceExampleJson(const SequenceExampleView& example, JsonForm form, std::string* out) {
  if (form == JsonForm::kFlat) {  // both keys always, so that jq paths need no null checks
    out->append("{\"context\":");
    AppendFlatFeatures(example.context(), out);
    out->append(",\"feature_lists\":");
    AppendFlatFeatureLists(example, out);
    out->push_back('}');
    return;
  }
  out->push_back('{');
  if (example.has_context()) {
    out->append("\"context\":");
    AppendProtoFeatures(example.context(), out);
  }
  if (example.has_feature_lists()) {
    if (example.has_context()) out->push_back(',');
    out->append("\"featureLists\":");
    AppendProtoFeatureLists(example, out);
  }
  out->push_back('}');
}

}  // namespace tfq
