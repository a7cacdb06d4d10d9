#include "example/wire_reader.h"

#include <limits>
#include <string>

namespace tfq::wire {

Status WireReader::Malformed(const char* what, size_t at) const {
  return Status::Corruption(std::string(what) + " at byte " + std::to_string(at));
}

Status WireReader::ReadTagSlow(uint32_t* field, WireType* type) {
  const size_t at = tag_offset();
  uint64_t tag;
  const char* next = DecodeVarint(p_, end_, &tag);
  if (next == nullptr) return Malformed("malformed varint (tag)", at);
  if (tag > std::numeric_limits<uint32_t>::max()) return Malformed("tag beyond 32 bits", at);
  p_ = next;
  *field = static_cast<uint32_t>(tag >> 3);
  *type = static_cast<WireType>(tag & 7);
  if (*type == kStartGroup || *type == kEndGroup) {
    return Status::Corruption("wire type " + std::to_string(*type) +
                              " (group) is not supported at byte " + std::to_string(at));
  }
  if (*type > kFixed32) {
    return Malformed(("invalid wire type " + std::to_string(*type)).c_str(), at);
  }
  if (*field == 0) return Malformed("field number 0", at);
  return Status::OK();
}

Status WireReader::ReadVarint(uint64_t* value) {
  const char* next = DecodeVarint(p_, end_, value);
  if (next == nullptr) return Malformed("malformed varint", offset());
  p_ = next;
  return Status::OK();
}

Status WireReader::ReadLengthDelimitedSlow(std::string_view* payload, size_t* payload_offset) {
  const size_t at = offset();
  uint64_t length;
  const char* start = DecodeVarint(p_, end_, &length);
  if (start == nullptr) return Malformed("malformed varint (length)", at);
  if (length > static_cast<uint64_t>(end_ - start)) {
    return Status::Corruption("length " + std::to_string(length) +
                              " past the end of the message at byte " + std::to_string(at));
  }
  *payload = std::string_view(start, static_cast<size_t>(length));
  p_ = start + length;
  if (payload_offset != nullptr) *payload_offset = base_ + static_cast<size_t>(start - begin_);
  return Status::OK();
}

Status WireReader::ReadFixed32(uint32_t* value) {
  if (end_ - p_ < 4) return Malformed("fixed32 value past the end of the message", offset());
  std::memcpy(value, p_, 4);
  p_ += 4;
  return Status::OK();
}

Status WireReader::Skip(WireType type) {
  switch (type) {
    case kVarint: {
      uint64_t ignored;
      return ReadVarint(&ignored);
    }
    case kFixed64:
      if (end_ - p_ < 8) return Malformed("fixed64 value past the end of the message", offset());
      p_ += 8;
      return Status::OK();
    case kLengthDelimited: {
      std::string_view ignored;
      return ReadLengthDelimited(&ignored);
    }
    case kFixed32: {
      uint32_t ignored;
      return ReadFixed32(&ignored);
    }
    default:  // ReadTag has rejected the others
      return Malformed("invalid wire type", tag_offset());
  }
}

Status WireReader::WrongWireType(WireType type, const char* field_name) const {
  return Status::Corruption("wrong wire type " + std::to_string(type) + " for field " + field_name +
                            " at byte " + std::to_string(tag_offset()));
}

}  // namespace tfq::wire
