// ChunkConverter: the per-thread half of the conversion loop (conversion_loop.h). It owns one
// Worker per thread (its ImageConverter with TurboJPEG handles and buffers, its Example encoder),
// so threads share nothing but read-only inputs, and turns one image's source bytes (read and
// hashed by the loop) into one record or one failure.
//
// Nothing here throws: every slot gets a Status, allocation failures included. A slot's record
// depends only on its image and the options, so the output is byte-identical for any thread
// count.
//
// Thread safety: ConvertImage(t, ...) and EncodeRecord(t, ...) may run concurrently for different
// t; one caller per t.
#ifndef TFQ_IMAGESET_CHUNK_CONVERTER_H_
#define TFQ_IMAGESET_CHUNK_CONVERTER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/page_buffer.h"
#include "common/status.h"
#include "image/convert.h"
#include "imageset/dataset.h"
#include "imageset/features.h"
#include "imageset/sha256.h"

namespace tfq::imageset {

struct ConvertedSlot {
  const ImageEntry* entry = nullptr;  // the input (set by the caller)
  uint64_t position = 0;              // in the shuffled order (set by the caller)
  Status status;                      // not OK: the input failed; the message names the path
  std::string record;                 // the serialized Example when OK; capacity kept for reuse
  uint64_t source_bytes = 0;          // bytes read from the file
};

// A source file's bytes. Unlike a std::string it does not zero-fill when it grows (the file is
// about to overwrite the bytes), and it keeps its capacity from one file to the next.
class SourceBuffer {
 public:
  // Never a null data() (an empty file is "", as a std::string's would be).
  std::string_view view() const { return size_ ? std::string_view(data_.get(), size_) : ""; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  // Makes the size n; the contents are unspecified unless n <= size().
  char* Resize(size_t n);

 private:
  PageBuffer data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// Reads a whole regular file into *out (resized; capacity reused). Errors name the path.
Status ReadWholeFile(const std::string& path, std::string* out);
Status ReadWholeFile(const std::string& path, SourceBuffer* out);

// Reads slot.entry's file into *file, setting slot.status and slot.source_bytes. No exception
// leaves it.
void ReadSource(ConvertedSlot& slot, SourceBuffer* file);

class ChunkConverter {
 public:
  // `options` must be valid; keys and extras outlive the converter. threads <= 0: all cores; at
  // most the usable CPUs (more would only add converters waiting for a CPU, and each costs a
  // TurboJPEG handle, buffers and a thread stack: 100000 of them crashed libgomp).
  ChunkConverter(const image::ConvertOptions& options, const FeatureKeys* keys,
                 const std::vector<ExtraColumn>* extras, int threads);
  ~ChunkConverter();

  int threads() const { return threads_; }

  // The two halves of turning `file` (slot.entry's bytes) into slot.record with thread t's worker
  // (0 <= t < threads()). They are apart so that the loop can start decoding a file before its
  // SHA-256, which only the record needs, is done. No exception leaves either.
  //
  // ConvertImage decodes, resizes and encodes the image into the worker, or sets slot.status;
  // returns slot.status.ok(). After it returned true, EncodeRecord(t, ...) for the same slot, and
  // before thread t's next ConvertImage, writes the Example with the file's SHA-256 `digest`.
  bool ConvertImage(int t, std::string_view file, ConvertedSlot& slot);
  void EncodeRecord(int t, const Sha256Digest& digest, ConvertedSlot& slot);

 private:
  struct Worker;

  image::ConvertOptions options_;
  const FeatureKeys* keys_;
  const std::vector<ExtraColumn>* extras_;
  int threads_;
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_CHUNK_CONVERTER_H_
