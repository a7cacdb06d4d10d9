// BufferedInputStream: the Peek/Consume/Skip machinery shared by streams that must copy their
// bytes into memory before handing them out (pipes and other unmappable files, decompressors).
//
// Internal to src/io. Subclasses only say how to produce more bytes (Refill); this class keeps the
// unconsumed bytes contiguous so that Peek can return them as one view, and grows its buffer only
// as far as the largest Peek asks (or the subclass's preferred chunk, whichever is larger).
#ifndef TFQ_IO_BUFFERED_INPUT_STREAM_H_
#define TFQ_IO_BUFFERED_INPUT_STREAM_H_

#include <cstddef>
#include <memory>
#include <vector>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/page_buffer.h"
#include "common/page_buffer_pool.h"
#include "common/status.h"
#include "io/input_stream.h"

namespace tfq {

class BufferedInputStream : public InputStream {
 public:
  Status Peek(size_t min_bytes, std::string_view* available) final;
  void Consume(size_t n) final;
  Status Skip(uint64_t n, uint64_t* skipped) final;
  uint64_t position() const final { return position_; }
  // While pinned, a buffer is never moved within or overwritten: the stream continues in another.
  std::shared_ptr<const void> PinBuffer() const final { return buffer_; }

 protected:
  // `chunk` is the size of one Refill when nothing larger is asked for.
  explicit BufferedInputStream(size_t chunk) : chunk_(chunk) {}

  // Writes up to `capacity` (> 0) bytes to `dst` and sets *produced. *produced == 0 means the
  // stream has ended; Refill is then not called again. An error is sticky: the bytes produced
  // before it can still be peeked and consumed, and every later call that needs more returns it.
  virtual Status Refill(char* dst, size_t capacity, size_t* produced) = 0;

  // Skips up to `n` bytes of the source that are not buffered yet, without reading them, and
  // returns how many it skipped (less than `n` only at the end). The default cannot seek and
  // returns 0, so Skip reads and discards instead.
  virtual uint64_t SkipUnread(uint64_t n) { return 0; }

 private:
  size_t buffered() const { return end_ - begin_; }
  // Refills until `min_bytes` are buffered or the stream ends.
  Status Fill(size_t min_bytes);
  // Makes room after the buffered bytes for `min_total` buffered bytes in all, compacting or
  // growing the buffer, or moving to a fresh one when it is pinned.
  void Reserve(size_t min_total);
  // Moves the buffered bytes to `place` in a fresh buffer of `capacity` bytes from the shared
  // pool (common/page_buffer_pool.h); a pinned buffer goes back there when its pins are gone.
  void MoveToNewBuffer(size_t capacity, size_t place);

  const size_t chunk_;
  std::shared_ptr<char> buffer_;  // page-aligned (common/page_buffer_pool.h); shared while pinned
  size_t capacity_ = 0;
  size_t begin_ = 0;  // first unconsumed byte
  size_t end_ = 0;    // one past the last buffered byte
  uint64_t position_ = 0;
  bool ended_ = false;
  Status error_;
};

}  // namespace tfq

#endif  // TFQ_IO_BUFFERED_INPUT_STREAM_H_
