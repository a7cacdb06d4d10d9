// Reading the flat form: {"key": [values...]}, the list's kind inferred from its values
// (docs/json-forms.md): JSON integers -> int64; any number with a fraction or exponent -> float
// (integers and "NaN"/"Infinity"/"-Infinity" may join it); strings and {"base64": ...} -> bytes;
// [] -> an empty bytes list.
#include "example/json_read_internal.h"

namespace tfq::internal {
namespace {

bool IsNonFiniteName(const Json& v) {
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  return s == "NaN" || s == "Infinity" || s == "-Infinity";
}

bool IsBase64Object(const Json& v) { return v.is_object() && v.size() == 1 && v.contains("base64"); }

Status FlatToFeature(const Json& list, const std::string& where, Feature* out) {
  *out = Feature();
  if (!list.is_array()) {
    return JsonError(where, "expected an array of values, got " + std::string(JsonTypeName(list)));
  }
  bool any_float = false, any_integer = false, any_non_finite = false, any_bytes = false;
  for (size_t i = 0; i < list.size(); ++i) {
    const Json& v = list[i];
    if (v.is_number_float()) {
      any_float = true;
    } else if (v.is_number_integer()) {
      any_integer = true;
    } else if (IsNonFiniteName(v)) {
      any_non_finite = true;
    } else if (v.is_string() || IsBase64Object(v)) {
      any_bytes = true;
    } else {
      const std::string at = where + "[" + std::to_string(i) + "]";
      if (v.is_array()) return JsonError(at, "nested arrays are not allowed");
      if (v.is_object()) return JsonError(at, "nested objects are not allowed (except {\"base64\": \"...\"})");
      return JsonError(at, "expected a number or a string, got " + std::string(JsonTypeName(v)));
    }
  }
  if ((any_float || any_integer) && any_bytes) {
    return JsonError(where, "mixed kinds in one list (numbers and strings)");
  }
  const auto at = [&](size_t i) { return where + "[" + std::to_string(i) + "]"; };
  if (any_float || (any_integer && any_non_finite)) {
    out->kind = FeatureKind::kFloat;
    out->float_list.resize(list.size());
    for (size_t i = 0; i < list.size(); ++i) TFQ_RETURN_IF_ERROR(JsonToFloat(list[i], false, at(i), &out->float_list[i]));
  } else if (any_integer) {
    out->kind = FeatureKind::kInt64;
    out->int64_list.resize(list.size());
    for (size_t i = 0; i < list.size(); ++i) TFQ_RETURN_IF_ERROR(JsonToInt64(list[i], false, at(i), &out->int64_list[i]));
  } else {  // strings, base64 objects, or nothing: bytes ("NaN" alone is the string NaN)
    out->kind = FeatureKind::kBytes;
    out->bytes_list.resize(list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].is_string()) {
        out->bytes_list[i] = list[i].get<std::string>();
      } else {
        TFQ_RETURN_IF_ERROR(Base64ToBytes(list[i]["base64"], at(i) + ".base64", &out->bytes_list[i]));
      }
    }
  }
  return Status::OK();
}

}  // namespace

Status FlatToFeatures(const Json& object, const std::string& where, FeatureMap* out) {
  out->clear();
  if (!object.is_object()) {
    return JsonError(where, "expected an object, got " + std::string(JsonTypeName(object)));
  }
  for (auto it = object.begin(); it != object.end(); ++it) {
    out->emplace_back(it.key(), Feature());
    TFQ_RETURN_IF_ERROR(FlatToFeature(it.value(), where + "[" + QuotedKey(it.key()) + "]", &out->back().second));
  }
  return Status::OK();
}

Status FlatToFeatureLists(const Json& object, const std::string& where,
                          std::vector<std::pair<std::string, std::vector<Feature>>>* out) {
  out->clear();
  if (!object.is_object()) {
    return JsonError(where, "expected an object, got " + std::string(JsonTypeName(object)));
  }
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string list_where = where + "[" + QuotedKey(it.key()) + "]";
    const Json& steps = it.value();
    if (!steps.is_array()) {
      return JsonError(list_where, "expected an array of steps, got " + std::string(JsonTypeName(steps)));
    }
    out->emplace_back(it.key(), std::vector<Feature>(steps.size()));
    for (size_t i = 0; i < steps.size(); ++i) {
      TFQ_RETURN_IF_ERROR(FlatToFeature(steps[i], list_where + "[" + std::to_string(i) + "]",
                                        &out->back().second[i]));
    }
  }
  return Status::OK();
}

}  // namespace tfq::internal
