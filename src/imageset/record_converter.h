// Images to records on every core, through the one ordered parallel map of every conversion
// (convert/ordered_map.h, docs/architecture.md "Conversions").
//
// RecordConverter owns one Worker per thread (its ImageConverter with TurboJPEG handles and
// buffers, its source-file buffer, its Example encoder), so threads share nothing but read-only
// inputs. Each worker does the whole of one image: it reads the file, decodes, resizes and
// encodes it, hashes the file (SHA-256, for the record) and builds the Example. Reading on the
// workers rather than on one reader thread means as many reads in flight as threads, which is
// what slow storage (a network file system, an object store) needs, and costs a page-cache copy
// (tens of microseconds) beside a decode of milliseconds on local files.
//
// ConvertInOrder feeds a list of images through the map and hands the converted slots to a sink
// in input order on the calling thread. A failed image is a slot with a status, not an error of
// the map: the sink decides (skip and count it, or stop).
//
// Nothing here throws: every slot gets a Status, allocation failures included. A slot's record
// depends only on its image and the options, so the output is byte-identical for any thread
// count.
#ifndef TFQ_IMAGESET_RECORD_CONVERTER_H_
#define TFQ_IMAGESET_RECORD_CONVERTER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/page_buffer.h"
#include "common/status.h"
#include "convert/ordered_map.h"
#include "image/convert.h"
#include "imageset/dataset.h"
#include "imageset/features.h"

namespace tfq::imageset {

// One image of a conversion: its entry and its place in the shuffled order.
struct ImageItem {
  const ImageEntry* entry;
  uint64_t position;
};

struct ConvertedSlot : MapSlot {
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
  // Frees the memory if it holds more than `max_capacity` bytes (after an unusually large file).
  void ShrinkTo(size_t max_capacity);

 private:
  PageBuffer data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// Reads a whole regular file into *out (resized; capacity reused). Errors name the path.
Status ReadWholeFile(const std::string& path, std::string* out);
Status ReadWholeFile(const std::string& path, SourceBuffer* out);

class RecordConverter {
 public:
  // `options` must be valid; keys and extras outlive the converter. threads <= 0: all cores; at
  // most the usable CPUs (more would only add converters waiting for a CPU, and each costs a
  // TurboJPEG handle, buffers and a thread stack: 100000 of them once crashed a thread runtime).
  RecordConverter(const image::ConvertOptions& options, const FeatureKeys* keys,
                  const std::vector<ExtraColumn>* extras, int threads);
  ~RecordConverter();

  int threads() const { return threads_; }

  // Reads slot.entry's file and turns it into slot.record with worker `worker`'s state
  // (0 <= worker < threads()), or sets slot.status; also sets slot.source_bytes. No exception
  // leaves it.
  void Convert(ConvertedSlot& slot, int worker);

 private:
  struct Worker;

  image::ConvertOptions options_;
  const FeatureKeys* keys_;
  const std::vector<ExtraColumn>* extras_;
  int threads_;
  std::vector<std::unique_ptr<Worker>> workers_;
};

// Converts `items` on converter->threads() threads, calling sink(slot) for every item in input
// order on the calling thread. The first non-OK status the sink returns stops the run (images
// already converting are finished and dropped) and is returned; the sink is not called again.
// Memory: kImageSlotsPerThread * threads + 2 records and one source file per thread.
Status ConvertInOrder(RecordConverter* converter, const std::vector<ImageItem>& items,
                      const std::function<Status(ConvertedSlot&)>& sink);

// Images in flight per thread. More than the ordered map's default: images vary in size far more
// than CSV chunks, and the output order makes every thread wait once the slots behind the oldest
// image are all converted; eight per thread keep the others busy through an image several times
// the average.
constexpr size_t kImageSlotsPerThread = 8;

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_RECORD_CONVERTER_H_
