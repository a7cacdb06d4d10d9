// SpanInputStream: an InputStream over bytes already contiguous in memory (a file mapping, a
// string). Peek hands out the rest of the span without copying and Skip is pointer arithmetic.
//
// Internal to src/io. Subclasses own the bytes and call SetSpan once they are in place.
#ifndef TFQ_IO_SPAN_INPUT_STREAM_H_
#define TFQ_IO_SPAN_INPUT_STREAM_H_

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "common/status.h"
#include "io/input_stream.h"

namespace tfq {

class SpanInputStream : public InputStream {
 public:
  Status Peek(size_t /*min_bytes*/, std::string_view* available) final {
    *available = span_.substr(position_);
    return Status::OK();
  }
  void Consume(size_t n) final {
    assert(n <= span_.size() - position_);
    position_ += n;
  }
  Status Skip(uint64_t n, uint64_t* skipped) final {
    *skipped = std::min<uint64_t>(n, span_.size() - position_);
    position_ += static_cast<size_t>(*skipped);
    return Status::OK();
  }
  uint64_t position() const final { return position_; }
  const std::string& name() const final { return name_; }

 protected:
  explicit SpanInputStream(std::string name) : name_(std::move(name)) {}
  void SetSpan(std::string_view span) { span_ = span; }

 private:
  const std::string name_;
  std::string_view span_;
  size_t position_ = 0;
};

}  // namespace tfq

#endif  // TFQ_IO_SPAN_INPUT_STREAM_H_
