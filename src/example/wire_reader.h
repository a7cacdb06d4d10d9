// A cursor over one serialized protobuf message that turns malformed bytes into kCorruption
// Statuses naming what is wrong and where ("malformed varint at byte 17"). Internal to
// src/example; the decoder in feature_parse.cc and example_view.cc is built on it.
//
// Byte offsets in messages are relative to the start of the outermost buffer being parsed (the
// record handed to ExampleView::Parse), so a nested reader is created with the offset of its
// first byte. The reader holds views only: the bytes must outlive it.
#ifndef TFQ_EXAMPLE_WIRE_READER_H_
#define TFQ_EXAMPLE_WIRE_READER_H_

#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "example/wire_format.h"

namespace tfq::wire {

class WireReader {
 public:
  WireReader(std::string_view bytes, size_t base_offset)
      : begin_(bytes.data()), p_(bytes.data()), end_(bytes.data() + bytes.size()), base_(base_offset) {}

  bool done() const { return p_ == end_; }
  // Offset (in the outermost buffer) of the next unread byte.
  size_t offset() const { return base_ + static_cast<size_t>(p_ - begin_); }

  // Reads the next tag. Field number 0, wire types 3/4 (groups) and 6/7 are errors: protobuf
  // rejects the first and last, and Example messages never contain groups.
  // The one-byte tags and lengths that nearly every Example is made of are read here, inline;
  // everything else (longer varints, and every error) out of line.
  Status ReadTag(uint32_t* field, WireType* type) {
    tag_start_ = p_;
    if (p_ != end_) {
      const uint8_t tag = static_cast<uint8_t>(*p_);
      constexpr uint32_t kValidTypes = (1u << kVarint) | (1u << kFixed64) |
                                       (1u << kLengthDelimited) | (1u << kFixed32);
      if (tag < 0x80 && (tag >> 3) != 0 && ((kValidTypes >> (tag & 7)) & 1) != 0) {
        ++p_;
        *field = tag >> 3;
        *type = static_cast<WireType>(tag & 7);
        return Status::OK();
      }
    }
    return ReadTagSlow(field, type);
  }

  // Reads a length-delimited payload; *payload_offset (optional) gets the offset of its first byte.
  Status ReadLengthDelimited(std::string_view* payload, size_t* payload_offset = nullptr) {
    if (p_ != end_) {
      const uint8_t length = static_cast<uint8_t>(*p_);
      if (length < 0x80 && length < end_ - p_) {
        *payload = std::string_view(p_ + 1, length);
        if (payload_offset != nullptr) *payload_offset = offset() + 1;
        p_ += 1 + length;
        return Status::OK();
      }
    }
    return ReadLengthDelimitedSlow(payload, payload_offset);
  }
  Status ReadVarint(uint64_t* value);
  Status ReadFixed32(uint32_t* value);

  // Skips the value of an unknown field whose tag was just read.
  Status Skip(WireType type);

  // The error for a known field seen with a wire type its declaration does not allow;
  // `field_name` is qualified ("Example.features"). Offset: the tag just read.
  Status WrongWireType(WireType type, const char* field_name) const;

 private:
  Status ReadTagSlow(uint32_t* field, WireType* type);
  Status ReadLengthDelimitedSlow(std::string_view* payload, size_t* payload_offset);
  Status Malformed(const char* what, size_t at) const;
  size_t tag_offset() const { return base_ + static_cast<size_t>(tag_start_ - begin_); }

  const char* begin_;
  const char* p_;
  const char* end_;
  size_t base_;
  const char* tag_start_ = begin_;  // where the last tag started, for WrongWireType
};

}  // namespace tfq::wire

#endif  // TFQ_EXAMPLE_WIRE_READER_H_
