// Batcher: cuts a stream of parsed chunks (Batches of any row count) into batches of exactly
// `batch_size` rows, plus a final shorter one unless drop_remainder.
//
// The parse pool works on chunks whose size is a multiple of batch_size, so in the common case a
// chunk is handed on whole (moved, no copy); rows are copied only when a chunk is shorter (skipped
// records, the end of the input) or holds several batches.
//
// Thread safety: none (the consumer's side of the pipeline).
#ifndef TFQ_PIPELINE_BATCHER_H_
#define TFQ_PIPELINE_BATCHER_H_

#include <cstddef>
#include <deque>
#include <vector>

#include "pipeline/batch.h"
#include "pipeline/options.h"

namespace tfq::pipeline::internal {

class Batcher {
 public:
  // `specs` must outlive the batcher.
  Batcher(const std::vector<FeatureSpec>* specs, size_t batch_size, bool drop_remainder)
      : specs_(specs), batch_size_(batch_size), drop_remainder_(drop_remainder) {}

  void Add(Batch chunk);

  // Moves a full batch into *out if batch_size rows are pending (reusing *out's memory when it
  // has to copy). *spare receives *out's previous contents when they are not reused.
  bool PopFull(Batch* out, std::vector<Batch>* spare);
  // At the end of the input: moves the rows left (fewer than batch_size) into *out, unless there
  // are none or drop_remainder is set (then they are dropped).
  bool PopRemainder(Batch* out, std::vector<Batch>* spare);

 private:
  void Take(size_t rows, Batch* out, std::vector<Batch>* spare);

  const std::vector<FeatureSpec>* specs_;
  const size_t batch_size_;
  const bool drop_remainder_;
  std::deque<Batch> chunks_;
  size_t front_taken_ = 0;  // rows of chunks_.front() already handed out
  size_t rows_ = 0;         // rows pending in chunks_
};

}  // namespace tfq::pipeline::internal

#endif  // TFQ_PIPELINE_BATCHER_H_
