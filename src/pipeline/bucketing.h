// Options of bucketing by sequence length: tf.data.experimental.bucket_by_sequence_length
// (group_by_window + padded_batch), with the length of a row taken as the number of values one
// feature holds in it (docs/pipeline.md, "Bucketing"). BucketBatcher (bucket_batcher.h) applies
// them.
//
// This header declares FeatureSpec without including options.h, so that options.h can hold a
// BucketOptions.
#ifndef TFQ_PIPELINE_BUCKETING_H_
#define TFQ_PIPELINE_BUCKETING_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace tfq::pipeline {

struct FeatureSpec;

struct BucketOptions {
  // The feature whose value count in a row is the row's length: usually a ragged feature (a
  // missing key is an empty row: length 0); a dense one has its fixed length.
  std::string length_key;
  // Upper bounds of the buckets, strictly increasing, each >= 1. With boundaries {b0, b1} the
  // buckets are [0, b0), [b0, b1), [b1, inf): a length equal to a boundary goes to the bucket
  // above it. No boundaries: one bucket.
  std::vector<size_t> boundaries;
  // Rows per batch of each bucket: boundaries.size() + 1 entries, each >= 1.
  std::vector<size_t> batch_sizes;

  // true (tf.data's default): every ragged column of a batch comes out dense, padded to its
  // longest row, with per-row lengths (Column::lengths). false (tf.data's no_padding): ragged
  // columns stay ragged.
  bool pad = true;
  // Pad every ragged column to the bucket's boundary - 1 instead of to its longest row, so that
  // a bucket's batches all have one shape. Needs pad and at least one boundary; a row whose length
  // is not below the last boundary, or with a ragged column longer than its bucket's boundary - 1,
  // is an error (BucketBatcher::CheckRow).
  bool pad_to_bucket_boundary = false;
  // What padding fills in, by the column's dtype (tf.data's padding_values; its defaults).
  int64_t pad_int64 = 0;
  float pad_float = 0.0f;
  std::string pad_bytes;

  // At the end of the input, drop the batches of buckets that are not full instead of yielding
  // them short.
  bool drop_remainder = false;
};

// kInvalidArgument naming the first bad option ("pipeline: bucketing batch_sizes has 2 entries,
// ..."); OK otherwise. `specs` are the pipeline's features, which must hold length_key.
Status ValidateBucketOptions(const BucketOptions& options, const std::vector<FeatureSpec>& specs);

// The bucket of a row of length `length`: the number of boundaries <= length.
size_t BucketIndex(const std::vector<size_t>& boundaries, size_t length);

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_BUCKETING_H_
