// Reading the flat form (docs/json-forms.md). A feature is written as
//   - an array of values, its kind inferred from them: JSON integers (and true/false, as 1/0) ->
//     int64; any number with a fraction or exponent -> float, which integers and
//     "NaN"/"Infinity"/"-Infinity" may join; strings and {"base64": ...} -> bytes; [] -> an
//     empty bytes list;
//   - one value, read as a one-value array (context and Example features only, not steps);
//   - a typed list {"int64": [...]}, {"float": [...]} or {"bytes": [...]}, which says the kind
//     (the only way to write an empty int64 or float list, or a float list of only "NaN"s).
// An integer joins a float list only when float32 holds it exactly (the CSV reader's rule).
#include <limits>

#include "common/float32_exact.h"
#include "example/json_read_internal.h"

namespace tfq::internal {
namespace {

bool IsNonFiniteName(const Json& v) {
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  return s == "NaN" || s == "Infinity" || s == "-Infinity";
}

bool IsBase64Object(const Json& v) { return v.is_object() && v.size() == 1 && v.contains("base64"); }

bool IsIntegerLike(const Json& v) { return v.is_number_integer() || v.is_boolean(); }

// The kind named by a typed list's key ({"int64": [...]}), or kNone.
FeatureKind TypedListKind(const Json& v) {
  if (!v.is_object() || v.size() != 1 || !v.begin()->is_array()) return FeatureKind::kNone;
  const std::string& key = v.begin().key();
  if (key == "int64") return FeatureKind::kInt64;
  if (key == "float") return FeatureKind::kFloat;
  if (key == "bytes") return FeatureKind::kBytes;
  return FeatureKind::kNone;
}

std::string At(const std::string& where, size_t i) { return where + "[" + std::to_string(i) + "]"; }

Status ToInt64(const Json& v, const std::string& where, int64_t* out) {
  if (v.is_boolean()) {
    *out = v.get<bool>() ? 1 : 0;
    return Status::OK();
  }
  return JsonToInt64(v, false, where, out);
}

// Integers must survive float32 unchanged: 16777217 in a float list would silently become
// 16777216 (csv/values.h applies the same rule when it infers a CSV column).
Status ToFloat(const Json& v, const std::string& where, float* out) {
  if (!IsIntegerLike(v)) return JsonToFloat(v, false, where, out);
  int64_t i = 0;
  TFQ_RETURN_IF_ERROR(ToInt64(v, where, &i));
  if (!Float32HoldsExactly(i)) {
    return JsonError(where, "the integer " + std::to_string(i) +
                                " in a float list is not exactly a float32 (it would become " +
                                std::to_string(static_cast<int64_t>(static_cast<float>(i))) +
                                "); write it with a '.' (" + std::to_string(i) +
                                ".0) to accept the rounding, or keep integers in an int64 list");
  }
  *out = static_cast<float>(i);
  return Status::OK();
}

Status ToBytes(const Json& v, const std::string& where, std::string* out) {
  if (v.is_string()) {
    *out = v.get<std::string>();
    return Status::OK();
  }
  if (IsBase64Object(v)) return Base64ToBytes(v.at("base64"), where + ".base64", out);
  return JsonError(where, "expected a string or {\"base64\": \"...\"}, got " + std::string(JsonTypeName(v)));
}

// Appends one value of a list of `kind` to *out.
Status AppendValue(const Json& v, FeatureKind kind, const std::string& where, Feature* out) {
  switch (kind) {
    case FeatureKind::kInt64: return ToInt64(v, where, &out->int64_list.emplace_back());
    case FeatureKind::kFloat: return ToFloat(v, where, &out->float_list.emplace_back());
    case FeatureKind::kBytes: return ToBytes(v, where, &out->bytes_list.emplace_back());
    case FeatureKind::kNone: break;
  }
  return Status::OK();
}

Status ConvertList(const Json& list, FeatureKind kind, const std::string& where, Feature* out) {
  out->kind = kind;
  switch (kind) {
    case FeatureKind::kInt64: out->int64_list.reserve(list.size()); break;
    case FeatureKind::kFloat: out->float_list.reserve(list.size()); break;
    case FeatureKind::kBytes: out->bytes_list.reserve(list.size()); break;
    case FeatureKind::kNone: break;
  }
  for (size_t i = 0; i < list.size(); ++i) TFQ_RETURN_IF_ERROR(AppendValue(list[i], kind, At(where, i), out));
  return Status::OK();
}

// The kind the values of an untyped list say.
Status InferKind(const Json& list, const std::string& where, FeatureKind* kind) {
  bool any_float = false, any_integer = false, any_non_finite = false, any_bytes = false;
  for (size_t i = 0; i < list.size(); ++i) {
    const Json& v = list[i];
    if (v.is_number_float()) {
      any_float = true;
    } else if (IsIntegerLike(v)) {
      any_integer = true;
    } else if (IsNonFiniteName(v)) {
      any_non_finite = true;
    } else if (v.is_string() || IsBase64Object(v)) {
      any_bytes = true;
    } else if (v.is_array()) {
      return JsonError(At(where, i), "nested arrays are not allowed");
    } else if (v.is_object()) {
      return JsonError(At(where, i), "nested objects are not allowed (except {\"base64\": \"...\"})");
    } else {
      return JsonError(At(where, i), "expected a number or a string, got " + std::string(JsonTypeName(v)));
    }
  }
  if ((any_float || any_integer) && any_bytes) {
    return JsonError(where, "mixed kinds in one list (numbers and strings)");
  }
  *kind = any_float || (any_integer && any_non_finite) ? FeatureKind::kFloat
          : any_integer                                 ? FeatureKind::kInt64
                                                        : FeatureKind::kBytes;  // "NaN" alone is a string
  return Status::OK();
}

Status FlatToFeature(const Json& value, bool allow_one_value, const std::string& where, Feature* out) {
  *out = Feature();
  if (value.is_array()) {
    FeatureKind kind;
    TFQ_RETURN_IF_ERROR(InferKind(value, where, &kind));
    return ConvertList(value, kind, where, out);
  }
  const FeatureKind typed = TypedListKind(value);
  if (typed != FeatureKind::kNone) {
    return ConvertList(*value.begin(), typed, where + "." + value.begin().key(), out);
  }
  const bool one_value = value.is_number() || value.is_boolean() || value.is_string() || IsBase64Object(value);
  if (!allow_one_value || !one_value) {
    return JsonError(where, std::string("expected ") +
                                (allow_one_value ? "a value, " : "") + "an array of values or a typed list "
                                "({\"int64\": [...]}, {\"float\": [...]}, {\"bytes\": [...]}), got " +
                                std::string(JsonTypeName(value)));
  }
  out->kind = value.is_number_float()  ? FeatureKind::kFloat
              : IsIntegerLike(value) ? FeatureKind::kInt64
                                     : FeatureKind::kBytes;  // "NaN" alone is a string
  return AppendValue(value, out->kind, where, out);
}

}  // namespace

bool IsFlatValueObject(const Json& value) {
  return TypedListKind(value) != FeatureKind::kNone ||
         (IsBase64Object(value) && value.begin()->is_string());
}

Status FlatToFeatures(const Json& object, const std::string& where, FeatureMap* out) {
  out->clear();
  if (!object.is_object()) {
    return JsonError(where, "expected an object, got " + std::string(JsonTypeName(object)));
  }
  out->reserve(object.size());
  for (auto it = object.begin(); it != object.end(); ++it) {
    out->emplace_back(it.key(), Feature());
    TFQ_RETURN_IF_ERROR(
        FlatToFeature(it.value(), true, where + "[" + QuotedKey(it.key()) + "]", &out->back().second));
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
      TFQ_RETURN_IF_ERROR(FlatToFeature(steps[i], false, At(list_where, i), &out->back().second[i]));
    }
  }
  return Status::OK();
}

}  // namespace tfq::internal
