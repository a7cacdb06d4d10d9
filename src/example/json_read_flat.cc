// Reading the flat form (docs/json-forms.md). A feature is written as
//   - an array of values, its kind inferred from them: JSON integers (and true/false, as 1/0) ->
//     int64; any number with a fraction or exponent -> float, which integers and
//     "NaN"/"Infinity"/"-Infinity" may join; strings and {"base64": ...} -> bytes; [] -> an
//     empty bytes list;
//   - one value, read as a one-value array (context and Example features only, not steps);
//   - a typed list {"int64": [...]}, {"float": [...]} or {"bytes": [...]}, which says the kind
//     (the only way to write an empty int64 or float list, or a float list of only "NaN"s).
// An integer joins a float list only when float32 holds it exactly (the CSV reader's rule).
#include <cstdio>
#include <limits>

#include "common/float32_exact.h"
#include "example/json_read_internal.h"
#include "example/wire_format.h"

namespace tfq::internal {
namespace {

bool IsNonFiniteName(const Json& v) {
  if (!v.is_string()) return false;
  const std::string_view s = v.string();
  return s == "NaN" || s == "Infinity" || s == "-Infinity";
}

bool IsBase64Object(const Json& v) { return v.is_object() && v.size() == 1 && v.contains("base64"); }

bool IsIntegerLike(const Json& v) { return v.is_number_integer() || v.is_boolean(); }

// The kind named by a typed list's key ({"int64": [...]}), or kNone.
FeatureKind TypedListKind(const Json& v) {
  if (!v.is_object() || v.size() != 1 || !v.members().value().is_array()) return FeatureKind::kNone;
  const std::string_view key = v.members().key();
  if (key == "int64") return FeatureKind::kInt64;
  if (key == "float") return FeatureKind::kFloat;
  if (key == "bytes") return FeatureKind::kBytes;
  return FeatureKind::kNone;
}

Status ToInt64(const Json& v, const JsonPath& where, int64_t* out) {
  if (v.is_boolean()) {
    *out = v.boolean() ? 1 : 0;
    return Status::OK();
  }
  return JsonToInt64(v, false, where, out);
}

// What float32 makes of `i`, as an integer. Printed through double: near the ends of int64 the
// float rounds to +-2^63, which int64 cannot hold (a cast back was undefined behaviour; found by
// the jsonl_read fuzzer).
std::string RoundedToFloat32(int64_t i) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", static_cast<double>(static_cast<float>(i)));
  return text;
}

// Integers must survive float32 unchanged: 16777217 in a float list would silently become
// 16777216 (csv/values.h applies the same rule when it infers a CSV column).
Status ToFloat(const Json& v, const JsonPath& where, float* out) {
  if (!IsIntegerLike(v)) return JsonToFloat(v, false, where, out);
  int64_t i = 0;
  TFQ_RETURN_IF_ERROR(ToInt64(v, where, &i));
  if (!Float32HoldsExactly(i)) {
    return JsonError(where, "the integer " + std::to_string(i) +
                                " in a float list is not exactly a float32 (it would become " +
                                RoundedToFloat32(i) +
                                "); write it with a '.' (" + std::to_string(i) +
                                ".0) to accept the rounding, or keep integers in an int64 list");
  }
  *out = static_cast<float>(i);
  return Status::OK();
}

Status ToBytes(const Json& v, const JsonPath& where, WireWriter* out) {
  if (v.is_string()) {
    out->Bytes(wire::kListValue, v.string());
    return Status::OK();
  }
  if (IsBase64Object(v)) return Base64ToBytesValue(v.find("base64"), where.Field("base64"), out);
  return JsonError(where, "expected a string or {\"base64\": \"...\"}, got " + std::string(JsonTypeName(v)));
}

// Writes one value of a list of `kind` (inside the list message; int64 and float packed).
Status AppendValue(const Json& v, FeatureKind kind, const JsonPath& where, WireWriter* out) {
  switch (kind) {
    case FeatureKind::kInt64: {
      int64_t i = 0;
      TFQ_RETURN_IF_ERROR(ToInt64(v, where, &i));
      out->Varint(static_cast<uint64_t>(i));
      return Status::OK();
    }
    case FeatureKind::kFloat: {
      float f = 0;
      TFQ_RETURN_IF_ERROR(ToFloat(v, where, &f));
      out->Fixed32(f);
      return Status::OK();
    }
    case FeatureKind::kBytes: return ToBytes(v, where, out);
    case FeatureKind::kNone: break;
  }
  return Status::OK();
}

uint32_t OneofField(FeatureKind kind) {
  return kind == FeatureKind::kBytes   ? wire::kFeatureBytesList
         : kind == FeatureKind::kFloat ? wire::kFeatureFloatList
                                       : wire::kFeatureInt64List;
}

// Writes a Feature's contents: the list message of `kind` holding `values` (one value, or the
// elements of an array).
Status WriteList(const Json& values, bool one_value, FeatureKind kind, const JsonPath& where,
                 WireWriter* out) {
  const size_t list = out->Open(OneofField(kind));
  const bool packed = kind != FeatureKind::kBytes;
  const size_t packed_mark = packed ? out->Open(wire::kListValue) : 0;
  size_t n = 0;
  if (one_value) {
    TFQ_RETURN_IF_ERROR(AppendValue(values, kind, where, out));
    n = 1;
  } else {
    for (JsonMembers m = values.members(); !m.done(); m.Next(), ++n) {
      TFQ_RETURN_IF_ERROR(AppendValue(m.value(), kind, where.Index(n), out));
    }
  }
  if (packed) n == 0 ? out->Drop(packed_mark) : out->Close(packed_mark);  // proto3: no empty packed field
  out->Close(list);
  return Status::OK();
}

// The kind the values of an untyped list say.
Status InferKind(const Json& list, const JsonPath& where, FeatureKind* kind) {
  bool any_float = false, any_integer = false, any_non_finite = false, any_bytes = false;
  size_t i = 0;
  for (JsonMembers m = list.members(); !m.done(); m.Next(), ++i) {
    const Json v = m.value();
    if (v.is_number_float()) {
      any_float = true;
    } else if (IsIntegerLike(v)) {
      any_integer = true;
    } else if (IsNonFiniteName(v)) {
      any_non_finite = true;
    } else if (v.is_string() || IsBase64Object(v)) {
      any_bytes = true;
    } else if (v.is_array()) {
      return JsonError(where.Index(i), "nested arrays are not allowed");
    } else if (v.is_object()) {
      return JsonError(where.Index(i), "nested objects are not allowed (except {\"base64\": \"...\"})");
    } else {
      return JsonError(where.Index(i), "expected a number or a string, got " + std::string(JsonTypeName(v)));
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

// Writes the contents of one Feature message.
Status FlatToFeature(const Json& value, bool allow_one_value, const JsonPath& where, WireWriter* out) {
  if (value.is_array()) {
    FeatureKind kind = FeatureKind::kNone;
    TFQ_RETURN_IF_ERROR(InferKind(value, where, &kind));
    return WriteList(value, false, kind, where, out);
  }
  const FeatureKind typed = TypedListKind(value);
  if (typed != FeatureKind::kNone) {
    const JsonMembers list = value.members();
    return WriteList(list.value(), false, typed, where.Field(list.key()), out);
  }
  const bool one_value = value.is_number() || value.is_boolean() || value.is_string() || IsBase64Object(value);
  if (!allow_one_value || !one_value) {
    return JsonError(where, std::string("expected ") +
                                (allow_one_value ? "a value, " : "") + "an array of values or a typed list "
                                "({\"int64\": [...]}, {\"float\": [...]}, {\"bytes\": [...]}), got " +
                                std::string(JsonTypeName(value)));
  }
  const FeatureKind kind = value.is_number_float()  ? FeatureKind::kFloat
                           : IsIntegerLike(value) ? FeatureKind::kInt64
                                                  : FeatureKind::kBytes;  // "NaN" alone is a string
  return WriteList(value, true, kind, where, out);
}

}  // namespace

bool IsFlatValueObject(const Json& value) {
  return TypedListKind(value) != FeatureKind::kNone ||
         (IsBase64Object(value) && value.members().value().is_string());
}

Status FlatToFeatures(const Json& object, const JsonPath& where, WireWriter* out) {
  if (!object.is_object()) {
    return JsonError(where, "expected an object, got " + std::string(JsonTypeName(object)));
  }
  for (JsonMembers m = object.members(); !m.done(); m.Next()) {
    const size_t entry = out->Open(wire::kFeaturesFeature);
    out->Bytes(wire::kMapKey, m.key());
    const size_t feature = out->Open(wire::kMapValue);
    TFQ_RETURN_IF_ERROR(FlatToFeature(m.value(), true, where.Key(m.key()), out));
    out->Close(feature);
    out->Close(entry);
  }
  return Status::OK();
}

Status FlatToFeatureLists(const Json& object, const JsonPath& where, WireWriter* out) {
  if (!object.is_object()) {
    return JsonError(where, "expected an object, got " + std::string(JsonTypeName(object)));
  }
  for (JsonMembers m = object.members(); !m.done(); m.Next()) {
    const JsonPath list_where = where.Key(m.key());
    const Json steps = m.value();
    if (!steps.is_array()) {
      return JsonError(list_where, "expected an array of steps, got " + std::string(JsonTypeName(steps)));
    }
    const size_t entry = out->Open(wire::kFeatureListsFeatureList);
    out->Bytes(wire::kMapKey, m.key());
    const size_t list = out->Open(wire::kMapValue);
    size_t i = 0;
    for (JsonMembers step = steps.members(); !step.done(); step.Next(), ++i) {
      const size_t feature = out->Open(wire::kFeatureListFeature);
      TFQ_RETURN_IF_ERROR(FlatToFeature(step.value(), false, list_where.Index(i), out));
      out->Close(feature);
    }
    out->Close(list);
    out->Close(entry);
  }
  return Status::OK();
}

}  // namespace tfq::internal
