// JsonRecordReader (json_forms.h): parse a line into a JsonTape, detect the form from the
// object's shape, then hand over to json_read_proto.cc or json_read_flat.cc, which write the
// serialized message.
#include <nlohmann/json.hpp>

#include "example/json_forms.h"
#include "example/json_read_internal.h"
#include "example/wire_format.h"

namespace tfq {
namespace {

using internal::Json;
using internal::JsonError;
using internal::JsonTypeName;
using internal::WireWriter;

// Whether object[name] is an object of proto-json: not one of the flat form's value objects.
bool HasObjectMember(const Json& object, const char* name) {
  const Json it = object.find(name);
  return it.valid() && it.is_object() && !internal::IsFlatValueObject(it);
}

// proto-json if "features" holds an object other than a flat typed list or base64 value.
Status WriteExample(const Json& value, WireWriter* out) {
  if (!value.is_object()) return JsonError("", "expected a JSON object, got " + std::string(JsonTypeName(value)));
  if (!HasObjectMember(value, "features")) {  // flat; {} is an Example without features
    if (value.empty()) return Status::OK();
    const size_t features = out->Open(wire::kExampleFeatures);
    TFQ_RETURN_IF_ERROR(internal::FlatToFeatures(value, "", out));
    out->Close(features);
    return Status::OK();
  }
  for (JsonMembers m = value.members(); !m.done(); m.Next()) {
    if (m.key() != "features") return JsonError("", "unknown field " + internal::QuotedKey(m.key()));
  }
  const size_t features = out->Open(wire::kExampleFeatures);
  TFQ_RETURN_IF_ERROR(internal::ProtoJsonToFeatures(value.find("features"), "features", out));
  out->Close(features);
  return Status::OK();
}

// proto-json if "featureLists" is there, or if "context" / "feature_lists" holds the proto
// wrapper object ({"feature": {...}}, {"featureList": {...}}); flat otherwise.
bool LooksLikeProtoSequence(const Json& value) {
  if (value.contains("featureLists")) return true;
  const Json context = value.find("context");
  if (context.valid() && context.is_object() && HasObjectMember(context, "feature")) return true;
  const Json lists = value.find("feature_lists");
  return lists.valid() && lists.is_object() &&
         (HasObjectMember(lists, "featureList") || HasObjectMember(lists, "feature_list"));
}

// Members are read in the text's order (so that the first error in the text is the one
// reported), but protobuf writes context (field 1) before feature_lists (field 2): a context
// that comes second is rotated in front.
Status WriteSequenceExample(const Json& value, WireWriter* out) {
  if (!value.is_object()) return JsonError("", "expected a JSON object, got " + std::string(JsonTypeName(value)));
  const bool proto = LooksLikeProtoSequence(value);
  bool has_feature_lists = false;
  size_t lists_begin = 0;
  for (JsonMembers m = value.members(); !m.done(); m.Next()) {
    const std::string_view key = m.key();
    const Json member = m.value();
    if (member.is_null() && proto) continue;  // protobuf: null is an absent field
    if (key == "context") {
      const size_t begin = out->size();
      const size_t context = out->Open(wire::kSequenceContext);
      TFQ_RETURN_IF_ERROR(proto ? internal::ProtoJsonToFeatures(member, "context", out)
                                : internal::FlatToFeatures(member, "context", out));
      out->Close(context);
      if (has_feature_lists) out->Rotate(lists_begin, begin);
    } else if (key == "feature_lists" || (proto && key == "featureLists")) {
      if (has_feature_lists) return JsonError("", "both featureLists and feature_lists");
      has_feature_lists = true;
      lists_begin = out->size();
      const size_t lists = out->Open(wire::kSequenceFeatureLists);
      const std::string where(key);
      TFQ_RETURN_IF_ERROR(proto ? internal::ProtoJsonToFeatureLists(member, where, out)
                                : internal::FlatToFeatureLists(member, where, out));
      out->Close(lists);
    } else {
      return JsonError("", "unknown field " + internal::QuotedKey(key) +
                               " (a SequenceExample has context and feature_lists)");
    }
  }
  return Status::OK();
}

}  // namespace

Status JsonRecordReader::ReadExample(std::string_view text, ByteBuffer* out) {
  TFQ_RETURN_IF_ERROR(tape_.Parse(text, guard_));
  WireWriter writer(out);
  return WriteExample(tape_.root(), &writer);
}

Status JsonRecordReader::ReadSequenceExample(std::string_view text, ByteBuffer* out) {
  TFQ_RETURN_IF_ERROR(tape_.Parse(text, guard_));
  WireWriter writer(out);
  return WriteSequenceExample(tape_.root(), &writer);
}

namespace {

// The value's text read back through JsonRecordReader, and the bytes decoded into *out.
template <typename Value, typename Message, typename View>
Status FromJsonValue(const Value& value, bool sequence, Message* out, View* view,
                     Status (*convert)(const View&, Message*)) {
  std::string text;
  try {
    text = value.dump();
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidData(std::string("unexpected JSON: ") + e.what());
  }
  JsonRecordReader reader;
  ByteBuffer serialized;
  TFQ_RETURN_IF_ERROR(sequence ? reader.ReadSequenceExample(text, &serialized)
                               : reader.ReadExample(text, &serialized));
  TFQ_RETURN_IF_ERROR(view->Parse(serialized.view()));
  return convert(*view, out);
}

}  // namespace

Status ExampleFromJson(const nlohmann::json& value, Example* out) {
  ExampleView view;
  return FromJsonValue(value, false, out, &view, &ToExample);
}

Status SequenceExampleFromJson(const nlohmann::json& value, SequenceExample* out) {
  SequenceExampleView view;
  return FromJsonValue(value, true, out, &view, &ToSequenceExample);
}

Status ExampleFromJson(const nlohmann::ordered_json& value, Example* out) {
  ExampleView view;
  return FromJsonValue(value, false, out, &view, &ToExample);
}

Status SequenceExampleFromJson(const nlohmann::ordered_json& value, SequenceExample* out) {
  SequenceExampleView view;
  return FromJsonValue(value, true, out, &view, &ToSequenceExample);
}

}  // namespace tfq
