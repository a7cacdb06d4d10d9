// ExampleFromJson / SequenceExampleFromJson: detect the form from the object's shape, then
// hand over to json_read_proto.cc or json_read_flat.cc. nlohmann exceptions stop here.
#include "example/json_forms.h"
#include "example/json_read_internal.h"

namespace tfq {
namespace {

using internal::Json;
using internal::JsonError;
using internal::JsonTypeName;

// Whether object[name] is an object of proto-json: not one of the flat form's value objects.
bool HasObjectMember(const Json& object, const char* name) {
  auto it = object.find(name);
  return it != object.end() && it->is_object() && !internal::IsFlatValueObject(*it);
}

// proto-json if "features" holds an object other than a flat typed list or base64 value.
Status ReadExample(const Json& value, Example* out) {
  *out = Example();
  if (!value.is_object()) return JsonError("", "expected a JSON object, got " + std::string(JsonTypeName(value)));
  if (!HasObjectMember(value, "features")) {  // flat; {} is an Example without features
    out->has_features = !value.empty();
    return internal::FlatToFeatures(value, "", &out->features);
  }
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (it.key() != "features") return JsonError("", "unknown field " + internal::QuotedKey(it.key()));
  }
  out->has_features = true;
  return internal::ProtoJsonToFeatures(value.at("features"), "features", &out->features);
}

// proto-json if "featureLists" is there, or if "context" / "feature_lists" holds the proto
// wrapper object ({"feature": {...}}, {"featureList": {...}}); flat otherwise.
bool LooksLikeProtoSequence(const Json& value) {
  if (value.contains("featureLists")) return true;
  auto context = value.find("context");
  if (context != value.end() && context->is_object() && HasObjectMember(*context, "feature")) return true;
  auto lists = value.find("feature_lists");
  return lists != value.end() && lists->is_object() &&
         (HasObjectMember(*lists, "featureList") || HasObjectMember(*lists, "feature_list"));
}

Status ReadSequenceExample(const Json& value, SequenceExample* out) {
  *out = SequenceExample();
  out->has_context = out->has_feature_lists = false;
  if (!value.is_object()) return JsonError("", "expected a JSON object, got " + std::string(JsonTypeName(value)));
  const bool proto = LooksLikeProtoSequence(value);
  for (auto it = value.begin(); it != value.end(); ++it) {
    const std::string& key = it.key();
    if (it->is_null() && proto) continue;  // protobuf: null is an absent field
    if (key == "context") {
      out->has_context = true;
      TFQ_RETURN_IF_ERROR(proto ? internal::ProtoJsonToFeatures(*it, "context", &out->context)
                                : internal::FlatToFeatures(*it, "context", &out->context));
    } else if (key == "feature_lists" || (proto && key == "featureLists")) {
      if (out->has_feature_lists) return JsonError("", "both featureLists and feature_lists");
      out->has_feature_lists = true;
      TFQ_RETURN_IF_ERROR(proto ? internal::ProtoJsonToFeatureLists(*it, key, &out->feature_lists)
                                : internal::FlatToFeatureLists(*it, key, &out->feature_lists));
    } else {
      return JsonError("", "unknown field " + internal::QuotedKey(key) +
                               " (a SequenceExample has context and feature_lists)");
    }
  }
  return Status::OK();
}

}  // namespace

Status ExampleFromJson(const nlohmann::json& value, Example* out) {
  return ExampleFromJson(nlohmann::ordered_json(value), out);
}

Status SequenceExampleFromJson(const nlohmann::json& value, SequenceExample* out) {
  return SequenceExampleFromJson(nlohmann::ordered_json(value), out);
}

Status ExampleFromJson(const nlohmann::ordered_json& value, Example* out) {
  try {
    return ReadExample(value, out);
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidData(std::string("unexpected JSON: ") + e.what());
  }
}

Status SequenceExampleFromJson(const nlohmann::ordered_json& value, SequenceExample* out) {
  try {
    return ReadSequenceExample(value, out);
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidData(std::string("unexpected JSON: ") + e.what());
  }
}

}  // namespace tfq
