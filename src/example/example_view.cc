// ExampleView and SequenceExampleView: the top-level messages of the lazy decoder.
#include <string>
#include <utility>

#include "example/example_view.h"
#include "example/feature_parse.h"
#include "example/wire_reader.h"

namespace tfq {

using wire::WireReader;
using wire::WireType;

Status ExampleView::Parse(std::string_view record, ListValidation validation) {
  has_features_ = false;
  has_sequence_feature_lists_ = false;
  features_.Clear();
  WireReader r(record, 0);
  while (!r.done()) {
    uint32_t field;
    WireType type;
    TFQ_RETURN_IF_ERROR(r.ReadTag(&field, &type));
    if (field != wire::kExampleFeatures) {
      if (field == wire::kSequenceFeatureLists && type == wire::kLengthDelimited) {
        has_sequence_feature_lists_ = true;
      }
      TFQ_RETURN_IF_ERROR(r.Skip(type));
      continue;
    }
    if (type != wire::kLengthDelimited) return r.WrongWireType(type, "Example.features");
    std::string_view features;
    size_t at;
    TFQ_RETURN_IF_ERROR(r.ReadLengthDelimited(&features, &at));
    has_features_ = true;
    // A second `features` field merges into the first: its entries are appended.
    TFQ_RETURN_IF_ERROR(features_.Merge(features, at, validation));
  }
  return Status::OK();
}

Status SequenceExampleView::Parse(std::string_view record) {
  has_context_ = false;
  has_feature_lists_ = false;
  context_.Clear();
  for (FeatureListEntry& entry : feature_lists_) {
    entry.steps.clear();
    spare_steps_.push_back(std::move(entry.steps));
  }
  feature_lists_.clear();
  index_.Clear();
  merged_.Reset();

  WireReader r(record, 0);
  while (!r.done()) {
    uint32_t field;
    WireType type;
    TFQ_RETURN_IF_ERROR(r.ReadTag(&field, &type));
    if (field != wire::kSequenceContext && field != wire::kSequenceFeatureLists) {
      TFQ_RETURN_IF_ERROR(r.Skip(type));
      continue;
    }
    const bool is_context = field == wire::kSequenceContext;
    if (type != wire::kLengthDelimited) {
      return r.WrongWireType(type, is_context ? "SequenceExample.context" : "SequenceExample.feature_lists");
    }
    std::string_view message;
    size_t at;
    TFQ_RETURN_IF_ERROR(r.ReadLengthDelimited(&message, &at));
    if (is_context) {
      has_context_ = true;
      TFQ_RETURN_IF_ERROR(context_.Merge(message, at));
    } else {
      has_feature_lists_ = true;
      TFQ_RETURN_IF_ERROR(ParseFeatureLists(message, at));
    }
  }
  return Status::OK();
}

// FeatureLists: map<string, FeatureList> feature_list = 1.
Status SequenceExampleView::ParseFeatureLists(std::string_view message, size_t base) {
  WireReader r(message, base);
  while (!r.done()) {
    uint32_t field;
    WireType type;
    TFQ_RETURN_IF_ERROR(r.ReadTag(&field, &type));
    if (field != wire::kFeatureListsFeatureList) {
      TFQ_RETURN_IF_ERROR(r.Skip(type));
      continue;
    }
    if (type != wire::kLengthDelimited) return r.WrongWireType(type, "FeatureLists.feature_list");
    std::string_view entry;
    size_t at;
    TFQ_RETURN_IF_ERROR(r.ReadLengthDelimited(&entry, &at));
    TFQ_RETURN_IF_ERROR(ParseFeatureListEntry(entry, at));
  }
  return Status::OK();
}

// One map entry: key (1) and a FeatureList value (2). A repeated key keeps the last; repeated
// values merge, which for a message with one repeated field means their steps concatenate.
Status SequenceExampleView::ParseFeatureListEntry(std::string_view entry, size_t base) {
  WireReader r(entry, base);
  std::string_view key;
  std::vector<FeatureView> steps = TakeSpareSteps();
  Status status;
  while (status.ok() && !r.done()) {
    uint32_t field;
    WireType type;
    status = r.ReadTag(&field, &type);
    if (!status.ok()) break;
    if (field == wire::kMapKey) {
      status = type == wire::kLengthDelimited ? r.ReadLengthDelimited(&key)
                                               : r.WrongWireType(type, "FeatureLists.FeatureListEntry.key");
    } else if (field == wire::kMapValue) {
      std::string_view value;
      size_t at;
      status = type == wire::kLengthDelimited ? r.ReadLengthDelimited(&value, &at)
                                               : r.WrongWireType(type, "FeatureLists.FeatureListEntry.value");
      if (status.ok()) status = AppendSteps(value, at, &steps);
    } else {
      status = r.Skip(type);
    }
  }
  if (!status.ok()) {
    spare_steps_.push_back(std::move(steps));
    return status;
  }
  bool inserted;
  const size_t index = index_.Insert(key, &inserted);
  if (inserted) {
    feature_lists_.push_back(FeatureListEntry{key, std::move(steps)});
  } else {  // the last value for a key wins; recycle the replaced steps
    std::swap(feature_lists_[index].steps, steps);
    steps.clear();
    spare_steps_.push_back(std::move(steps));
  }
  return Status::OK();
}

// FeatureList: repeated Feature feature = 1.
Status SequenceExampleView::AppendSteps(std::string_view feature_list, size_t base,
                                        std::vector<FeatureView>* steps) {
  WireReader r(feature_list, base);
  while (!r.done()) {
    uint32_t field;
    WireType type;
    TFQ_RETURN_IF_ERROR(r.ReadTag(&field, &type));
    if (field != wire::kFeatureListFeature) {
      TFQ_RETURN_IF_ERROR(r.Skip(type));
      continue;
    }
    if (type != wire::kLengthDelimited) return r.WrongWireType(type, "FeatureList.feature");
    std::string_view feature;
    size_t at;
    TFQ_RETURN_IF_ERROR(r.ReadLengthDelimited(&feature, &at));
    FeatureView step;
    TFQ_RETURN_IF_ERROR(internal::ParseFeature(feature, at, &merged_, &step));
    steps->push_back(step);
  }
  return Status::OK();
}

std::vector<FeatureView> SequenceExampleView::TakeSpareSteps() {
  if (spare_steps_.empty()) return {};
  std::vector<FeatureView> steps = std::move(spare_steps_.back());
  spare_steps_.pop_back();
  steps.clear();  // spares from a failed entry still hold its steps
  return steps;
}

}  // namespace tfq
