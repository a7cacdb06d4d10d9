// ChunkConverter: the OpenMP hot loop. Reads, hashes, converts and encodes a chunk of images in
// parallel, one record (or one failure) per slot.
//
// Each OpenMP thread owns a Worker (its ImageConverter with TurboJPEG handles, its file buffer,
// its Example encoder), so threads share nothing but the read-only inputs. Nothing can leave the
// parallel region by exception: every slot gets a Status, allocation failures included, and the
// caller looks at the slots in index order, so which failure is reported first never depends on
// timing. A slot's record depends only on its image and the options: output is byte-identical
// for any thread count.
//
// Thread safety: Convert is called by one thread at a time (it forks the OpenMP team itself).
#ifndef TFQ_IMAGESET_CHUNK_CONVERTER_H_
#define TFQ_IMAGESET_CHUNK_CONVERTER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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

class ChunkConverter {
 public:
  // `options` must be valid; keys and extras outlive the converter. threads <= 0: all cores.
  ChunkConverter(const image::ConvertOptions& options, const FeatureKeys* keys,
                 const std::vector<ExtraColumn>* extras, int threads);
  ~ChunkConverter();

  int threads() const { return threads_; }

  // Converts slots[0..count) in parallel (their entry and position must be set).
  void Convert(ConvertedSlot* slots, size_t count);

 private:
  struct Worker;
  // No exception leaves these; every slot they are given gets a status.
  void ConvertOne(Worker& w, ConvertedSlot& slot);
  void ConvertPair(Worker& w, ConvertedSlot& a, ConvertedSlot& b);
  static void Read(std::string& file, ConvertedSlot& slot);
  void Finish(Worker& w, const std::string& file, const Sha256Digest& digest, ConvertedSlot& slot);

  image::ConvertOptions options_;
  const FeatureKeys* keys_;
  const std::vector<ExtraColumn>* extras_;
  int threads_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<size_t> order_;  // the slots of a chunk in processing order
};

// Reads a whole regular file into *out (resized; capacity reused). Errors name the path.
Status ReadWholeFile(const std::string& path, std::string* out);

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_CHUNK_CONVERTER_H_
