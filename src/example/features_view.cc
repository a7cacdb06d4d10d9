// FeaturesView: decoding the map<string, Feature> of Example.features / SequenceExample.context.
#include <string>

#include "example/example_view.h"
#include "example/feature_parse.h"
#include "example/wire_reader.h"

namespace tfq {
namespace {

using wire::WireReader;
using wire::WireType;

// One map entry: key (1) and value (2), in any order, each possibly absent or repeated. As in
// protobuf, a repeated key keeps the last, and a repeated value is merged: the Feature is
// decoded from the concatenation of the value fields.
Status ParseFeatureEntry(std::string_view entry, size_t base, internal::MergeBuffers* merged,
                         ListValidation validation, std::string_view* key, FeatureView* feature) {
  WireReader r(entry, base);
  *key = {};
  *feature = FeatureView();
  bool has_value = false;
  std::string_view first_value;
  std::string* concatenated = nullptr;
  while (!r.done()) {
    uint32_t field;
    WireType type;
    TFQ_RETURN_IF_ERROR(r.ReadTag(&field, &type));
    if (field == wire::kMapKey) {
      if (type != wire::kLengthDelimited) return r.WrongWireType(type, "Features.FeatureEntry.key");
      TFQ_RETURN_IF_ERROR(r.ReadLengthDelimited(key));
    } else if (field == wire::kMapValue) {
      if (type != wire::kLengthDelimited) return r.WrongWireType(type, "Features.FeatureEntry.value");
      std::string_view value;
      size_t at;
      TFQ_RETURN_IF_ERROR(r.ReadLengthDelimited(&value, &at));
      // Parsing each part on its own validates it with offsets into the record.
      FeatureView part;
      TFQ_RETURN_IF_ERROR(internal::ParseFeature(value, at, merged, &part, validation));
      if (!has_value) {
        has_value = true;
        first_value = value;
        *feature = part;
      } else {
        if (concatenated == nullptr) {
          concatenated = merged->Next();
          concatenated->assign(first_value);
        }
        concatenated->append(value);
      }
    } else {
      TFQ_RETURN_IF_ERROR(r.Skip(type));
    }
  }
  if (concatenated != nullptr) {
    // Every part parsed on its own, so the concatenation parses (offsets would not be needed).
    return internal::ParseFeature(*concatenated, 0, merged, feature, validation);
  }
  return Status::OK();
}

}  // namespace

void FeaturesView::Clear() {
  entries_.clear();
  index_.Clear();
  merged_.Reset();
}

Status FeaturesView::Parse(std::string_view features_message, ListValidation validation) {
  Clear();
  return Merge(features_message, 0, validation);
}

Status FeaturesView::Merge(std::string_view features_message, size_t base,
                           ListValidation validation) {
  WireReader r(features_message, base);
  while (!r.done()) {
    uint32_t field;
    WireType type;
    TFQ_RETURN_IF_ERROR(r.ReadTag(&field, &type));
    if (field != wire::kFeaturesFeature) {
      TFQ_RETURN_IF_ERROR(r.Skip(type));
      continue;
    }
    if (type != wire::kLengthDelimited) return r.WrongWireType(type, "Features.feature");
    std::string_view entry;
    size_t at;
    TFQ_RETURN_IF_ERROR(r.ReadLengthDelimited(&entry, &at));
    Entry parsed;
    TFQ_RETURN_IF_ERROR(
        ParseFeatureEntry(entry, at, &merged_, validation, &parsed.key, &parsed.feature));
    bool inserted;
    const size_t index = index_.Insert(parsed.key, &inserted);
    if (inserted) {
      entries_.push_back(parsed);
    } else {
      entries_[index].feature = parsed.feature;  // protobuf's map: the last value for a key wins
    }
  }
  return Status::OK();
}

const FeatureView* FeaturesView::Find(std::string_view key) const {
  const size_t index = index_.Find(key);
  return index == internal::KeyIndex::kNotFound ? nullptr : &entries_[index].feature;
}

}  // namespace tfq
