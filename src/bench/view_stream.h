// ViewInputStream: an InputStream over bytes someone else owns, without copying them.
//
// The in-memory workloads read the same buffer pass after pass on several threads at once; each
// pass gets its own stream over the shared bytes, so what is timed is the reader, not a copy.
// (io's NewMemoryInputStream takes ownership of a string, which would mean one copy per pass.)
//
// Lifetime: the bytes must outlive the stream. Thread safety: none per stream; any number of
// streams may read the same bytes concurrently.
#ifndef TFQ_BENCH_VIEW_STREAM_H_
#define TFQ_BENCH_VIEW_STREAM_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "io/input_stream.h"

namespace tfq::bench {

class ViewInputStream : public InputStream {
 public:
  ViewInputStream(std::string name, std::string_view bytes) : name_(std::move(name)), bytes_(bytes) {}

  Status Peek(size_t /*min_bytes*/, std::string_view* available) override {
    *available = bytes_.substr(position_);
    return Status::OK();
  }
  void Consume(size_t n) override { position_ += std::min(n, bytes_.size() - position_); }
  Status Skip(uint64_t n, uint64_t* skipped) override {
    *skipped = std::min<uint64_t>(n, bytes_.size() - position_);
    position_ += static_cast<size_t>(*skipped);
    return Status::OK();
  }
  uint64_t position() const override { return position_; }
  const std::string& name() const override { return name_; }

 private:
  const std::string name_;
  const std::string_view bytes_;
  size_t position_ = 0;
};

}  // namespace tfq::bench

#endif  // TFQ_BENCH_VIEW_STREAM_H_
