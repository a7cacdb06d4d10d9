// InputStream: a sequential source of bytes with a peek/consume interface.
//
// Readers of framed formats (TFRecord, CSV) need to look at a header before deciding how many more
// bytes they want, and want those bytes as one contiguous view without copying when the source
// allows it. Peek/Consume gives both: an in-memory source hands out views of its bytes, while a
// file, a pipe or a decompressor hands out views of its own buffer, grown on demand; a record is
// copied at most once, from the kernel into that buffer.
//
// Thread safety: none; one thread uses a stream at a time.
#ifndef TFQ_IO_INPUT_STREAM_H_
#define TFQ_IO_INPUT_STREAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tfq {

class InputStream {
 public:
  virtual ~InputStream() = default;

  // Makes at least `min_bytes` bytes available from the current position (fewer only when the
  // stream ends first) and sets *available to a view of every byte available now, which may be
  // more than asked for. The view stays valid until the next non-const call on this stream.
  // The caller bounds `min_bytes` (the stream buffers that much in memory when it cannot map).
  // An error is returned only when fewer than `min_bytes` bytes precede it: the bytes before a
  // read error or a corrupt compressed block are handed out first, and every later call that
  // needs more returns the same error.
  virtual Status Peek(size_t min_bytes, std::string_view* available) = 0;

  // Advances the position by `n` bytes; `n` must not exceed what the last Peek made available.
  virtual void Consume(size_t n) = 0;

  // Advances the position by up to `n` bytes without handing them out, possibly past what was
  // peeked. Sets *skipped to the count actually skipped (less than `n` only at end of stream).
  // Seekable sources skip without reading.
  virtual Status Skip(uint64_t n, uint64_t* skipped) = 0;

  // Offset of the current position from the start of the stream (in decompressed bytes for a
  // decompressing stream).
  virtual uint64_t position() const = 0;

  // Name for error messages: the path, or "<stdin>".
  virtual const std::string& name() const = 0;

  // Keeps the bytes of the last Peek where they are for as long as the returned handle lives, so
  // that views of them stay valid past later calls (the pipeline hands records on without copying
  // them). nullptr when this stream cannot; the caller then copies what it keeps.
  virtual std::shared_ptr<const void> PinBuffer() const { return nullptr; }

  // Bytes consumed from the underlying file so far (the compressed size for a decompressing
  // stream; equals position() otherwise). Used for progress and summaries.
  virtual uint64_t source_bytes_read() const { return position(); }
};

}  // namespace tfq

#endif  // TFQ_IO_INPUT_STREAM_H_
