// OutputStream: a sequential sink of bytes that is either completed or abandoned.
//
// A dataset that takes days to rebuild must never be left half-written under a name that looks
// finished. So a file OutputStream writes to a hidden temporary name beside the target and only
// Close() renames it into place; destroying a stream that was not closed removes the temporary.
//
// Thread safety: none; one thread uses a stream at a time.
#ifndef TFQ_IO_OUTPUT_STREAM_H_
#define TFQ_IO_OUTPUT_STREAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tfq {

class RandomAccessFile;

class OutputStream {
 public:
  virtual ~OutputStream() = default;

  // Appends `data`. May buffer; errors (disk full, closed pipe) surface here or in Close().
  virtual Status Write(std::string_view data) = 0;

  // Appends bytes [offset, offset + n) of `source` after everything written so far, as Write of
  // those bytes would. A local file output copies from a local file inside the kernel
  // (RandomAccessFile::AppendRangeTo); reshard's shard files on their writer thread, merging
  // adjacent ranges. This default reads through a buffer and calls Write, so that every output
  // (a compressing stream, an object upload) takes ranges. A source that ends early is an error
  // naming it.
  virtual Status AppendRange(std::shared_ptr<const RandomAccessFile> source, uint64_t offset, uint64_t n);

  // Flushes everything and completes the output (for a file: renames the temporary into place).
  // Must be called exactly once for the output to count; after a failed Close the output is
  // abandoned and no file exists under the final name.
  virtual Status Close() = 0;

  // Optional, before Close: does all of Close that can fail but its last step (for a file: flushes
  // and closes the temporary, and leaves the rename to Close), so that outputs closed together
  // (io/output_set.h) take their final names back to back. After a failed FinishWriting the
  // output is abandoned, as after a failed Close; do not Close it. Default: nothing (Close does it all).
  virtual Status FinishWriting() { return Status::OK(); }

  // The final name, for messages: the path or "<stdout>".
  virtual const std::string& name() const = 0;

  // Bytes accepted by Write so far (before any compression done by a wrapping stream).
  virtual uint64_t bytes_written() const = 0;
};

}  // namespace tfq

#endif  // TFQ_IO_OUTPUT_STREAM_H_
