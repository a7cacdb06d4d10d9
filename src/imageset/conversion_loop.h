// The conversion loop: a stream of images through three kinds of threads, with no barrier
// between chunks and memory bounded whatever the dataset size.
//
//   reader   one thread: reads the source files and hashes them (SHA-256, two at a time),
//            a few images ahead of the converters, so that file I/O and hashing overlap decoding;
//   convert  converter->threads() OpenMP threads (the caller's among them) in one parallel
//            region for the whole run: each takes the next image, waits until it has been read
//            (or, if the reader has fallen behind, reads and hashes it itself) and converts it;
//            the reader hands over each file as soon as it is read and hashes it meanwhile, so
//            the hash is waited for (if ever) only to write the record, not to start decoding,
//            and the run's first image is always left to the reader;
//   writer   one thread: hands the converted slots to a sink in input order.
//
// The images are taken in chunks of chunk_size; within a chunk, largest file first (longest
// processing time first), so that a big image started last does not keep the others waiting at
// the end. Three chunks of slots are in flight (being written, converted, read ahead), and the
// files read ahead total at most 64 MB (or one file); every thread's buffers are reused.
// Threads block on condition variables, never spin; the reader is woken once it is half a window
// behind, not for every image, and the writer only for the image it waits for.
//
// Nothing leaves a thread by exception: every slot gets a Status, and an unexpected failure of
// the machinery itself stops the loop with an Internal status.
// The order in which images are taken changes nothing in the output: each slot keeps its place,
// and the sink sees the slots in input order.
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

// Converts `items`, calling sink(slot) for every item in order on one writer thread, and
// after_chunk() on that thread after each chunk_size items (and after the last). The first
// non-OK status a sink returns stops the loop (images already converting are finished and
// dropped) and is returned; sink is not called again after it.
Status RunConversionLoop(ChunkConverter* converter, const std::vector<LoopItem>& items, size_t chunk_size,
                         const std::function<Status(ConvertedSlot&)>& sink,
                         const std::function<void()>& after_chunk);

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_CONVERSION_LOOP_H_
