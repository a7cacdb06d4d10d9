// Reading the proto-json form: protobuf's JSON mapping of Example / SequenceExample, accepting
// what protobuf's parsers accept (camelCase or original field names, null for an absent field,
// int64 as strings or numbers, floats as numbers or strings, standard or URL-safe base64).
#include "example/json_read_internal.h"

namespace tfq::internal {
namespace {

// The one member of `object` named `json_name` or `proto_name`; nullptr if neither or null.
// Both spellings at once is an error, as in protobuf.
Status Member(const Json& object, const char* json_name, const char* proto_name,
              const std::string& where, const Json** out) {
  *out = nullptr;
  for (const char* name : {json_name, proto_name}) {
    auto it = object.find(name);
    if (it == object.end() || it->is_null()) continue;
    if (*out != nullptr) return JsonError(where, std::string("both ") + json_name + " and " + proto_name);
    *out = &*it;
  }
  return Status::OK();
}

// Every member must be one of `names`: protobuf's parser rejects unknown fields.
Status OnlyKnownMembers(const Json& object, std::initializer_list<const char*> names, const std::string& where) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool known = false;
    for (const char* name : names) known = known || it.key() == name;
    if (!known) return JsonError(where, "unknown field " + QuotedKey(it.key()));
  }
  return Status::OK();
}

Status ExpectObject(const Json& value, const std::string& where) {
  if (value.is_object()) return Status::OK();
  return JsonError(where, "expected an object, got " + std::string(JsonTypeName(value)));
}

// A list message {"value": [...]}; *values is null for an empty list.
Status ListValues(const Json& list, const std::string& where, const Json** values) {
  TFQ_RETURN_IF_ERROR(ExpectObject(list, where));
  TFQ_RETURN_IF_ERROR(OnlyKnownMembers(list, {"value"}, where));
  *values = nullptr;
  auto it = list.find("value");
  if (it == list.end() || it->is_null()) return Status::OK();
  if (!it->is_array()) {
    return JsonError(where + ".value", "expected an array, got " + std::string(JsonTypeName(*it)));
  }
  *values = &*it;
  return Status::OK();
}

Status ProtoJsonToFeature(const Json& json, const std::string& where, Feature* out) {
  *out = Feature();
  TFQ_RETURN_IF_ERROR(ExpectObject(json, where));
  TFQ_RETURN_IF_ERROR(OnlyKnownMembers(
      json, {"bytesList", "bytes_list", "floatList", "float_list", "int64List", "int64_list"}, where));
  const Json* kinds[3];
  TFQ_RETURN_IF_ERROR(Member(json, "bytesList", "bytes_list", where, &kinds[0]));
  TFQ_RETURN_IF_ERROR(Member(json, "floatList", "float_list", where, &kinds[1]));
  TFQ_RETURN_IF_ERROR(Member(json, "int64List", "int64_list", where, &kinds[2]));
  static constexpr const char* kNames[3] = {"bytesList", "floatList", "int64List"};
  int set = -1;
  for (int k = 0; k < 3; ++k) {
    if (kinds[k] == nullptr) continue;
    if (set >= 0) {
      return JsonError(where, std::string("more than one list kind (") + kNames[set] + " and " + kNames[k] + ")");
    }
    set = k;
  }
  if (set < 0) return Status::OK();  // a Feature with no kind
  const std::string list_where = where + "." + kNames[set];
  const Json* values = nullptr;
  TFQ_RETURN_IF_ERROR(ListValues(*kinds[set], list_where, &values));
  const size_t n = values == nullptr ? 0 : values->size();
  const auto at = [&](size_t i) { return list_where + ".value[" + std::to_string(i) + "]"; };
  switch (set) {
    case 0:
      out->kind = FeatureKind::kBytes;
      out->bytes_list.resize(n);
      for (size_t i = 0; i < n; ++i) TFQ_RETURN_IF_ERROR(Base64ToBytes((*values)[i], at(i), &out->bytes_list[i]));
      break;
    case 1:
      out->kind = FeatureKind::kFloat;
      out->float_list.resize(n);
      for (size_t i = 0; i < n; ++i) TFQ_RETURN_IF_ERROR(JsonToFloat((*values)[i], true, at(i), &out->float_list[i]));
      break;
    default:
      out->kind = FeatureKind::kInt64;
      out->int64_list.resize(n);
      for (size_t i = 0; i < n; ++i) TFQ_RETURN_IF_ERROR(JsonToInt64((*values)[i], true, at(i), &out->int64_list[i]));
      break;
  }
  return Status::OK();
}

}  // namespace

Status ProtoJsonToFeatures(const Json& features, const std::string& where, FeatureMap* out) {
  out->clear();
  TFQ_RETURN_IF_ERROR(ExpectObject(features, where));
  TFQ_RETURN_IF_ERROR(OnlyKnownMembers(features, {"feature"}, where));
  auto it = features.find("feature");
  if (it == features.end() || it->is_null()) return Status::OK();
  const std::string map_where = where + ".feature";
  TFQ_RETURN_IF_ERROR(ExpectObject(*it, map_where));
  for (auto entry = it->begin(); entry != it->end(); ++entry) {
    out->emplace_back(entry.key(), Feature());
    TFQ_RETURN_IF_ERROR(ProtoJsonToFeature(entry.value(), map_where + "[" + QuotedKey(entry.key()) + "]",
                                           &out->back().second));
  }
  return Status::OK();
}

Status ProtoJsonToFeatureLists(const Json& lists, const std::string& where,
                               std::vector<std::pair<std::string, std::vector<Feature>>>* out) {
  out->clear();
  TFQ_RETURN_IF_ERROR(ExpectObject(lists, where));
  TFQ_RETURN_IF_ERROR(OnlyKnownMembers(lists, {"featureList", "feature_list"}, where));
  const Json* map;
  TFQ_RETURN_IF_ERROR(Member(lists, "featureList", "feature_list", where, &map));
  if (map == nullptr) return Status::OK();
  const std::string map_where = where + ".featureList";
  TFQ_RETURN_IF_ERROR(ExpectObject(*map, map_where));
  for (auto entry = map->begin(); entry != map->end(); ++entry) {
    const std::string list_where = map_where + "[" + QuotedKey(entry.key()) + "]";
    out->emplace_back(entry.key(), std::vector<Feature>());
    const Json& list = entry.value();
    TFQ_RETURN_IF_ERROR(ExpectObject(list, list_where));
    TFQ_RETURN_IF_ERROR(OnlyKnownMembers(list, {"feature"}, list_where));
    auto steps = list.find("feature");
    if (steps == list.end() || steps->is_null()) continue;
    if (!steps->is_array()) {
      return JsonError(list_where + ".feature", "expected an array, got " + std::string(JsonTypeName(*steps)));
    }
    std::vector<Feature>& features = out->back().second;
    features.resize(steps->size());
    for (size_t i = 0; i < steps->size(); ++i) {
      TFQ_RETURN_IF_ERROR(ProtoJsonToFeature((*steps)[i], list_where + ".feature[" + std::to_string(i) + "]",
                                             &features[i]));
    }
  }
  return Status::OK();
}

}  // namespace tfq::internal
