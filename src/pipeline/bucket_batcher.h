// BucketBatcher: groups parsed rows into batches by length, as
// tf.data.experimental.bucket_by_sequence_length does (BucketOptions in bucketing.h,
// docs/pipeline.md "Bucketing"). It has the shape of internal::Batcher (batcher.h), so the
// consumer's side of the pipeline can use either.
//
// Order. Each row goes to the bucket of its length and a bucket's batch is yielded as soon as it
// holds that bucket's batch size, so full batches come out in the order in which their last row
// arrived (group_by_window's order). At the end of the input PopRemainder yields the buckets that
// are not full in ascending bucket order, bucket 0 first (tf.data flushes its std::map of groups
// from the lowest key), each as one short batch, or drops them all with drop_remainder. The
// batches depend only on the order of the rows, not on how they were cut into chunks.
//
// Padded output (BucketOptions::pad). Every ragged column of a yielded batch becomes dense: the
// Column has ragged = false, length = the padded width, row_splits empty, rows * width values
// row-major with each row's values first and then the pad value (pad_int64, pad_float or
// pad_bytes by dtype; bytes in either layout), and lengths[r] = row r's value count before
// padding, for masking. The width is the column's longest row in the batch, or with
// pad_to_bucket_boundary the bucket's boundary - 1 (tf.data's rule). Dense columns are unchanged.
// A padded batch is an output only: AppendRows does not know `lengths`; ResetBatch (e.g. when the
// pipeline reuses its memory) turns it back into an empty batch of the specs.
//
// Exact resume. WaitingSources and PendingSources name every row held. Adding those rows again, in
// the same form, to a new BucketBatcher with the same specs and options - the rows of each
// waiting batch in order, then bucket 0's pending rows, bucket 1's, ... - gives a batcher that
// yields exactly what this one would from here on, with the same rows added after.
//
// Thread safety: none, except CheckRow and BucketOf (read only what the constructor set).
#ifndef TFQ_PIPELINE_BUCKET_BATCHER_H_
#define TFQ_PIPELINE_BUCKET_BATCHER_H_

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "common/status.h"
#include "pipeline/batch.h"
#include "pipeline/bucketing.h"
#include "pipeline/options.h"
#include "pipeline/record.h"

namespace tfq::pipeline::internal {

class BucketBatcher {
 public:
  // `specs` must outlive the batcher, and `options` must have passed
  // ValidateBucketOptions(options, *specs).
  BucketBatcher(const std::vector<FeatureSpec>* specs, BucketOptions options);

  // Whether row `row` of `batch` (a batch of the specs, unpadded) can be bucketed: OK, or with
  // pad_to_bucket_boundary kInvalidData when its length is not below the last boundary or a
  // ragged column of it is longer than its bucket's boundary - 1 ("feature 'tokens': 9 values,
  // more than the 6 that bucket 1 pads to (pad_to_bucket_boundary)"). The caller adds the file
  // and record, as for parse errors, and stops or skips. `row` may be a row just appended and not
  // yet counted in batch.rows. tf.data fails the whole batch when it pads; checking each row as it
  // is parsed names the record and lets OnError::kSkip drop just that row.
  // Rows given to Add should have passed it: a row that did not is still bucketed, and padded to
  // its column's longest row (nothing is cut).
  Status CheckRow(const Batch& batch, size_t row) const;
  // The bucket of row `row` of `batch`: BucketIndex of its length.
  size_t BucketOf(const Batch& batch, size_t row) const;

  // Files the rows of `chunk` (parsed rows in stream order, any count) into their buckets.
  void Add(Batch chunk);

  // Moves the next full batch, padded when options.pad, into *out. *out's previous contents are
  // kept for the next bucket batches or moved to *spare, with any other batch memory the batcher
  // does not need (the chunks given to Add).
  bool PopFull(Batch* out, std::vector<Batch>* spare);
  // At the end of the input: the full batches first, then each bucket that is not full, in
  // ascending bucket order (none with drop_remainder). False when nothing is left; the batcher is
  // then empty and can be used again.
  bool PopRemainder(Batch* out, std::vector<Batch>* spare);

  // The rows of each full batch not yet popped, in the order PopFull will yield them.
  std::vector<std::vector<RecordSource>> WaitingSources() const;
  // Per bucket (boundaries.size() + 1 entries): the rows waiting in it, in arrival order.
  std::vector<std::vector<RecordSource>> PendingSources() const;

 private:
  struct FullBatch {
    size_t bucket;
    Batch batch;
  };

  size_t RowLength(const Batch& batch, size_t row) const;
  Batch NewBatch();
  // Moves *out's contents into the batcher's free batches and the extra free ones into *spare.
  void Recycle(Batch* out, std::vector<Batch>* spare);
  void Pad(size_t bucket, Batch* batch);
  void PadBlob(size_t width, Column* column);

  const std::vector<FeatureSpec>* specs_;
  const BucketOptions options_;
  size_t length_column_ = 0;  // index of options_.length_key in *specs_

  std::vector<Batch> buckets_;  // rows waiting per bucket, unpadded
  std::deque<FullBatch> full_;  // full batches in completion order, unpadded
  size_t flush_next_ = 0;       // PopRemainder: the next bucket to flush
  std::vector<Batch> free_;     // batch memory for the next bucket batches

  // Padding builds a column's values here, then swaps them in (their memory is reused).
  std::vector<int64_t> scratch_int64_;
  std::vector<float> scratch_float_;
  std::vector<std::string> scratch_strings_;
  std::string scratch_blob_;
  std::vector<int64_t> scratch_offsets_;
};

}  // namespace tfq::pipeline::internal

#endif  // TFQ_PIPELINE_BUCKET_BATCHER_H_
