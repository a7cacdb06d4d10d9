// Reading the proto-json form: protobuf's JSON mapping of Example / SequenceExample, accepting
// what protobuf's parsers accept (camelCase or original field names, null for an absent field,
// int64 as strings or numbers, floats as numbers or strings, standard or URL-safe base64).
#include "example/json_read_internal.h"
#include "example/wire_format.h"

namespace tfq::internal {
namespace {

// The one member of `object` named `json_name` or `proto_name`; invalid if neither or null.
// Both spellings at once is an error, as in protobuf.
Status Member(const Json& object, const char* json_name, const char* proto_name,
              const JsonPath& where, Json* out) {
  *out = Json();
  for (const char* name : {json_name, proto_name}) {
    const Json it = object.find(name);
    if (!it.valid() || it.is_null()) continue;
    if (out->valid()) return JsonError(where, std::string("both ") + json_name + " and " + proto_name);
    *out = it;
  }
  return Status::OK();
}

// Every member must be one of `names`: protobuf's parser rejects unknown fields.
Status OnlyKnownMembers(const Json& object, std::initializer_list<const char*> names, const JsonPath& where) {
  for (JsonMembers m = object.members(); !m.done(); m.Next()) {
    bool known = false;
    for (const char* name : names) known = known || m.key() == name;
    if (!known) return JsonError(where, "unknown field " + QuotedKey(m.key()));
  }
  return Status::OK();
}

Status ExpectObject(const Json& value, const JsonPath& where) {
  if (value.is_object()) return Status::OK();
  return JsonError(where, "expected an object, got " + std::string(JsonTypeName(value)));
}

// A list message {"value": [...]}; *values is invalid for an empty list.
Status ListValues(const Json& list, const JsonPath& where, Json* values) {
  TFQ_RETURN_IF_ERROR(ExpectObject(list, where));
  TFQ_RETURN_IF_ERROR(OnlyKnownMembers(list, {"value"}, where));
  *values = Json();
  const Json it = list.find("value");
  if (!it.valid() || it.is_null()) return Status::OK();
  if (!it.is_array()) {
    return JsonError(where.Field("value"), "expected an array, got " + std::string(JsonTypeName(it)));
  }
  *values = it;
  return Status::OK();
}

// Writes the contents of one Feature message.
Status ProtoJsonToFeature(const Json& json, const JsonPath& where, WireWriter* out) {
  TFQ_RETURN_IF_ERROR(ExpectObject(json, where));
  TFQ_RETURN_IF_ERROR(OnlyKnownMembers(
      json, {"bytesList", "bytes_list", "floatList", "float_list", "int64List", "int64_list"}, where));
  Json kinds[3];
  TFQ_RETURN_IF_ERROR(Member(json, "bytesList", "bytes_list", where, &kinds[0]));
  TFQ_RETURN_IF_ERROR(Member(json, "floatList", "float_list", where, &kinds[1]));
  TFQ_RETURN_IF_ERROR(Member(json, "int64List", "int64_list", where, &kinds[2]));
  static constexpr const char* kNames[3] = {"bytesList", "floatList", "int64List"};
  static constexpr uint32_t kFields[3] = {wire::kFeatureBytesList, wire::kFeatureFloatList,
                                          wire::kFeatureInt64List};
  int set = -1;
  for (int k = 0; k < 3; ++k) {
    if (!kinds[k].valid()) continue;
    if (set >= 0) {
      return JsonError(where, std::string("more than one list kind (") + kNames[set] + " and " + kNames[k] + ")");
    }
    set = k;
  }
  if (set < 0) return Status::OK();  // a Feature with no kind
  const JsonPath list_where = where.Field(kNames[set]);
  Json values;
  TFQ_RETURN_IF_ERROR(ListValues(kinds[set], list_where, &values));
  const JsonPath values_where = list_where.Field("value");
  const auto at = [&](size_t i) { return values_where.Index(i); };
  const size_t list = out->Open(kFields[set]);
  const size_t packed = set == 0 ? 0 : out->Open(wire::kListValue);
  size_t n = 0;
  for (JsonMembers m = values.valid() ? values.members() : JsonMembers(); !m.done(); m.Next(), ++n) {
    if (set == 0) {
      TFQ_RETURN_IF_ERROR(Base64ToBytesValue(m.value(), at(n), out));
    } else if (set == 1) {
      float f = 0;
      TFQ_RETURN_IF_ERROR(JsonToFloat(m.value(), true, at(n), &f));
      out->Fixed32(f);
    } else {
      int64_t i = 0;
      TFQ_RETURN_IF_ERROR(JsonToInt64(m.value(), true, at(n), &i));
      out->Varint(static_cast<uint64_t>(i));
    }
  }
  if (set != 0) n == 0 ? out->Drop(packed) : out->Close(packed);  // proto3: no empty packed field
  out->Close(list);
  return Status::OK();
}

}  // namespace

Status ProtoJsonToFeatures(const Json& features, const JsonPath& where, WireWriter* out) {
  TFQ_RETURN_IF_ERROR(ExpectObject(features, where));
  TFQ_RETURN_IF_ERROR(OnlyKnownMembers(features, {"feature"}, where));
  const Json map = features.find("feature");
  if (!map.valid() || map.is_null()) return Status::OK();
  const JsonPath map_where = where.Field("feature");
  TFQ_RETURN_IF_ERROR(ExpectObject(map, map_where));
  for (JsonMembers m = map.members(); !m.done(); m.Next()) {
    const size_t entry = out->Open(wire::kFeaturesFeature);
    out->Bytes(wire::kMapKey, m.key());
    const size_t feature = out->Open(wire::kMapValue);
    TFQ_RETURN_IF_ERROR(ProtoJsonToFeature(m.value(), map_where.Key(m.key()), out));
    out->Close(feature);
    out->Close(entry);
  }
  return Status::OK();
}

Status ProtoJsonToFeatureLists(const Json& lists, const JsonPath& where, WireWriter* out) {
  TFQ_RETURN_IF_ERROR(ExpectObject(lists, where));
  TFQ_RETURN_IF_ERROR(OnlyKnownMembers(lists, {"featureList", "feature_list"}, where));
  Json map;
  TFQ_RETURN_IF_ERROR(Member(lists, "featureList", "feature_list", where, &map));
  if (!map.valid()) return Status::OK();
  const JsonPath map_where = where.Field("featureList");
  TFQ_RETURN_IF_ERROR(ExpectObject(map, map_where));
  for (JsonMembers m = map.members(); !m.done(); m.Next()) {
    const JsonPath list_where = map_where.Key(m.key());
    const size_t entry = out->Open(wire::kFeatureListsFeatureList);
    out->Bytes(wire::kMapKey, m.key());
    const size_t feature_list = out->Open(wire::kMapValue);
    const Json list = m.value();
    TFQ_RETURN_IF_ERROR(ExpectObject(list, list_where));
    TFQ_RETURN_IF_ERROR(OnlyKnownMembers(list, {"feature"}, list_where));
    const Json steps = list.find("feature");
    if (steps.valid() && !steps.is_null()) {
      if (!steps.is_array()) {
        return JsonError(list_where.Field("feature"), "expected an array, got " + std::string(JsonTypeName(steps)));
      }
      size_t i = 0;
      for (JsonMembers step = steps.members(); !step.done(); step.Next(), ++i) {
        const size_t feature = out->Open(wire::kFeatureListFeature);
        TFQ_RETURN_IF_ERROR(
            ProtoJsonToFeature(step.value(), list_where.Field("feature").Index(i), out));
        out->Close(feature);
      }
    }
    out->Close(feature_list);
    out->Close(entry);
  }
  return Status::OK();
}

}  // namespace tfq::internal
