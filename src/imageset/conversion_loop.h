// The double-buffered conversion loop: chunk c + 1 is read and converted in parallel (OpenMP,
// ChunkConverter) while a writer thread hands the slots of chunk c, in order, to a sink (which
// writes the records). Decoding and I/O overlap, and memory is bounded by two chunks of slots
// whatever the dataset size.
#ifndef TFQ_IMAGESET_CONVERSION_LOOP_H_
#define TFQ_IMAGESET_CONVERSION_LOOP_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "common/status.h"
#include "imageset/chunk_converter.h"
#include "imageset/dataset.h"

namespace tfq::imageset {

struct LoopItem {
  const ImageEntry* entry;
  uint64_t position;  // in the shuffled order
};

// Converts `items` in chunks of `chunk_size`, calling sink(slot) for every item in order on one
// writer thread, and after_chunk() on that thread after each chunk. The first non-OK status a
// sink returns stops the loop (chunks already converting are finished and dropped) and is
// returned; sink is not called again after it.
Status RunConversionLoop(ChunkConverter* converter, const std::vector<LoopItem>& items, size_t chunk_size,
                         const std::function<Status(ConvertedSlot&)>& sink,
                         const std::function<void()>& after_chunk);

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_CONVERSION_LOOP_H_
