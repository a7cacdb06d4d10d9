// Decoding one Feature and validating its list (see feature_parse.h).
#include "example/feature_parse.h"

#include <string>

#include "example/wire_reader.h"

namespace tfq::internal {
namespace {

using wire::WireReader;
using wire::WireType;

// A packed int64 run is valid when every varint in it ends within it and none is longer than
// ten bytes: count continuation bytes instead of decoding the values.
Status ValidatePackedVarints(std::string_view run, size_t base) {
  int continuation = 0;
  for (size_t i = 0; i < run.size(); ++i) {
    if (static_cast<uint8_t>(run[i]) & 0x80) {
      if (++continuation == wire::kMaxVarintBytes) {
        return Status::Corruption("malformed varint in packed Int64List.value at byte " +
                                  std::to_string(base + i + 1 - continuation));
      }
    } else {
      continuation = 0;
    }
  }
  if (continuation != 0) {
    return Status::Corruption("malformed varint in packed Int64List.value at byte " +
                              std::to_string(base + run.size() - continuation));
  }
  return Status::OK();
}

Status ValidateBytesList(std::string_view list, size_t base) {
  WireReader r(list, base);
  while (!r.done()) {
    uint32_t field;
    WireType type;
    TFQ_RETURN_IF_ERROR(r.ReadTag(&field, &type));
    if (field != wire::kListValue) {
      TFQ_RETURN_IF_ERROR(r.Skip(type));
    } else if (type == wire::kLengthDelimited) {
      std::string_view value;
      TFQ_RETURN_IF_ERROR(r.ReadLengthDelimited(&value));
    } else {
      return r.WrongWireType(type, "BytesList.value");
    }
  }
  return Status::OK();
}

Status ValidateFloatList(std::string_view list, size_t base) {
  WireReader r(list, base);
  while (!r.done()) {
    uint32_t field;
    WireType type;
    TFQ_RETURN_IF_ERROR(r.ReadTag(&field, &type));
    if (field != wire::kListValue) {
      TFQ_RETURN_IF_ERROR(r.Skip(type));
    } else if (type == wire::kLengthDelimited) {
      std::string_view run;
      size_t at;
      TFQ_RETURN_IF_ERROR(r.ReadLengthDelimited(&run, &at));
      if (run.size() % 4 != 0) {
        return Status::Corruption("packed FloatList.value of " + std::to_string(run.size()) +
                                  " bytes (not a multiple of 4) at byte " + std::to_string(at));
      }
    } else if (type == wire::kFixed32) {
      uint32_t ignored;
      TFQ_RETURN_IF_ERROR(r.ReadFixed32(&ignored));
    } else {
      return r.WrongWireType(type, "FloatList.value");
    }
  }
  return Status::OK();
}

Status ValidateInt64List(std::string_view list, size_t base) {
  WireReader r(list, base);
  while (!r.done()) {
    uint32_t field;
    WireType type;
    TFQ_RETURN_IF_ERROR(r.ReadTag(&field, &type));
    if (field != wire::kListValue) {
      TFQ_RETURN_IF_ERROR(r.Skip(type));
    } else if (type == wire::kLengthDelimited) {
      std::string_view run;
      size_t at;
      TFQ_RETURN_IF_ERROR(r.ReadLengthDelimited(&run, &at));
      TFQ_RETURN_IF_ERROR(ValidatePackedVarints(run, at));
    } else if (type == wire::kVarint) {
      uint64_t ignored;
      TFQ_RETURN_IF_ERROR(r.ReadVarint(&ignored));
    } else {
      return r.WrongWireType(type, "Int64List.value");
    }
  }
  return Status::OK();
}

}  // namespace

Status ValidateList(FeatureKind kind, std::string_view list, size_t base) {
  switch (kind) {
    case FeatureKind::kBytes:
      return ValidateBytesList(list, base);
    case FeatureKind::kFloat:
      return ValidateFloatList(list, base);
    case FeatureKind::kInt64:
      return ValidateInt64List(list, base);
    case FeatureKind::kNone:
      break;
  }
  return Status::OK();
}

Status ParseFeature(std::string_view feature, size_t base, MergeBuffers* merged, FeatureView* out,
                    ListValidation validation) {
  WireReader r(feature, base);
  FeatureKind kind = FeatureKind::kNone;
  std::string_view list;
  std::string* concatenated = nullptr;  // holds the merged list once the kind repeats
  bool use_concatenated = false;
  while (!r.done()) {
    uint32_t field;
    WireType type;
    TFQ_RETURN_IF_ERROR(r.ReadTag(&field, &type));
    FeatureKind field_kind;
    const char* name;
    switch (field) {
      case wire::kFeatureBytesList: field_kind = FeatureKind::kBytes; name = "Feature.bytes_list"; break;
      case wire::kFeatureFloatList: field_kind = FeatureKind::kFloat; name = "Feature.float_list"; break;
      case wire::kFeatureInt64List: field_kind = FeatureKind::kInt64; name = "Feature.int64_list"; break;
      default:
        TFQ_RETURN_IF_ERROR(r.Skip(type));
        continue;
    }
    if (type != wire::kLengthDelimited) return r.WrongWireType(type, name);
    std::string_view chunk;
    size_t at;
    TFQ_RETURN_IF_ERROR(r.ReadLengthDelimited(&chunk, &at));
    if (validation == ListValidation::kAll) TFQ_RETURN_IF_ERROR(ValidateList(field_kind, chunk, at));
    if (field_kind != kind) {  // a different member of the oneof replaces the current one
      kind = field_kind;
      list = chunk;
      use_concatenated = false;
      continue;
    }
    // The member already set, again: protobuf merges, i.e. the list values concatenate. All list
    // fields are repeated, so the merged message is the concatenation of the two.
    if (!use_concatenated) {
      if (concatenated == nullptr) concatenated = merged->Next();
      concatenated->assign(list);
      use_concatenated = true;
    }
    concatenated->append(chunk);
  }
  *out = FeatureView(kind, use_concatenated ? std::string_view(*concatenated) : list);
  return Status::OK();
}

std::string* MergeBuffers::Next() {
  if (used_ == buffers_.size()) buffers_.push_back(std::make_unique<std::string>());
  std::string* buffer = buffers_[used_++].get();
  buffer->clear();
  return buffer;
}

}  // namespace tfq::internal
