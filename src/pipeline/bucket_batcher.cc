#include "pipeline/bucket_batcher.h"

#include <algorithm>
#include <utility>

namespace tfq::pipeline::internal {
namespace {

// Free batches kept for the next bucket batches; more go back to the caller's spares.
constexpr size_t kKeepFree = 2;

// Rewrites the values of a ragged column as rows of `width`: each row's values, then copies of
// `pad`. Moves the values (bytes strings are not copied); `scratch` receives the old buffer.
template <typename T>
void PadRows(const std::vector<int64_t>& splits, size_t width, const T& pad, std::vector<T>* values,
             std::vector<T>* scratch) {
  const size_t rows = splits.size() - 1;
  scratch->clear();
  scratch->reserve(rows * width);
  for (size_t r = 0; r < rows; ++r) {
    const size_t begin = static_cast<size_t>(splits[r]);
    const size_t end = static_cast<size_t>(splits[r + 1]);
    for (size_t v = begin; v < end; ++v) scratch->push_back(std::move((*values)[v]));
    scratch->resize(scratch->size() + (width - (end - begin)), pad);
  }
  values->swap(*scratch);
}

}  // namespace

BucketBatcher::BucketBatcher(const std::vector<FeatureSpec>* specs, BucketOptions options)
    : specs_(specs), options_(std::move(options)), buckets_(options_.batch_sizes.size()) {
  for (size_t i = 0; i < specs_->size(); ++i) {
    if ((*specs_)[i].key == options_.length_key) length_column_ = i;
  }
  for (Batch& bucket : buckets_) ResetBatch(*specs_, &bucket);
}

size_t BucketBatcher::RowLength(const Batch& batch, size_t row) const {
  const Column& c = batch.columns[length_column_];
  if (!c.ragged) return c.length;
  return static_cast<size_t>(c.row_splits[row + 1] - c.row_splits[row]);
}

size_t BucketBatcher::BucketOf(const Batch& batch, size_t row) const {
  return BucketIndex(options_.boundaries, RowLength(batch, row));
}

Status BucketBatcher::CheckRow(const Batch& batch, size_t row) const {
  if (!options_.pad_to_bucket_boundary) return Status::OK();
  const size_t length = RowLength(batch, row);
  const size_t bucket = BucketIndex(options_.boundaries, length);
  if (bucket == options_.boundaries.size()) {
    return Status::InvalidData("feature '" + options_.length_key + "': length " +
                               std::to_string(length) + " is not below the last bucket boundary " +
                               std::to_string(options_.boundaries.back()) +
                               " (pad_to_bucket_boundary pads to a boundary - 1)");
  }
  const size_t width = options_.boundaries[bucket] - 1;
  for (const Column& c : batch.columns) {
    if (!c.ragged) continue;
    const size_t n = static_cast<size_t>(c.row_splits[row + 1] - c.row_splits[row]);
    if (n > width) {
      return Status::InvalidData("feature '" + c.key + "': " + std::to_string(n) +
                                 " values, more than the " + std::to_string(width) +
                                 " that bucket " + std::to_string(bucket) +
                                 " pads to (pad_to_bucket_boundary)");
    }
  }
  return Status::OK();
}

Batch BucketBatcher::NewBatch() {
  Batch batch;
  if (!free_.empty()) {
    batch = std::move(free_.back());
    free_.pop_back();
  }
  ResetBatch(*specs_, &batch);
  return batch;
}

void BucketBatcher::Recycle(Batch* out, std::vector<Batch>* spare) {
  free_.push_back(std::move(*out));
  while (free_.size() > kKeepFree) {
    spare->push_back(std::move(free_.back()));
    free_.pop_back();
  }
}

void BucketBatcher::Add(Batch chunk) {
  const size_t rows = chunk.rows;
  size_t row = 0;
  while (row < rows) {
    const size_t b = BucketOf(chunk, row);
    Batch& bucket = buckets_[b];
    const size_t room = options_.batch_sizes[b] - bucket.rows;
    // The run of rows from `row` on that go to the same bucket and fit in it.
    size_t end = row + 1;
    while (end < rows && end - row < room && BucketOf(chunk, end) == b) ++end;
    if (row == 0 && end == rows && bucket.rows == 0) {
      std::swap(bucket, chunk);  // the whole chunk, moved, not copied; chunk gets the empty batch
    } else {
      AppendRows(&chunk, row, end, &bucket);
    }
    if (bucket.rows == options_.batch_sizes[b]) {
      full_.push_back(FullBatch{b, std::move(bucket)});
      bucket = NewBatch();
    }
    row = end;
  }
  free_.push_back(std::move(chunk));
}

bool BucketBatcher::PopFull(Batch* out, std::vector<Batch>* spare) {
  if (full_.empty()) {
    while (free_.size() > kKeepFree) {  // the chunks Add kept
      spare->push_back(std::move(free_.back()));
      free_.pop_back();
    }
    return false;
  }
  Recycle(out, spare);
  *out = std::move(full_.front().batch);
  const size_t bucket = full_.front().bucket;
  full_.pop_front();
  if (options_.pad) Pad(bucket, out);
  return true;
}

bool BucketBatcher::PopRemainder(Batch* out, std::vector<Batch>* spare) {
  if (PopFull(out, spare)) return true;
  while (flush_next_ < buckets_.size()) {
    const size_t b = flush_next_++;
    Batch& bucket = buckets_[b];
    if (bucket.rows == 0) continue;
    if (options_.drop_remainder) {
      ResetBatch(*specs_, &bucket);
      continue;
    }
    Recycle(out, spare);
    *out = std::move(bucket);
    bucket = NewBatch();
    if (options_.pad) Pad(b, out);
    return true;
  }
  flush_next_ = 0;
  return false;
}

std::vector<std::vector<RecordSource>> BucketBatcher::WaitingSources() const {
  std::vector<std::vector<RecordSource>> out;
  for (const FullBatch& full : full_) out.push_back(full.batch.sources);
  return out;
}

std::vector<std::vector<RecordSource>> BucketBatcher::PendingSources() const {
  std::vector<std::vector<RecordSource>> out;
  for (const Batch& bucket : buckets_) out.push_back(bucket.sources);
  return out;
}

void BucketBatcher::Pad(size_t bucket, Batch* batch) {
  for (Column& c : batch->columns) {
    if (!c.ragged) continue;
    const size_t rows = c.row_splits.size() - 1;
    size_t width = 0;
    c.lengths.resize(rows);
    for (size_t r = 0; r < rows; ++r) {
      c.lengths[r] = c.row_splits[r + 1] - c.row_splits[r];
      width = std::max(width, static_cast<size_t>(c.lengths[r]));
    }
    if (options_.pad_to_bucket_boundary && bucket < options_.boundaries.size()) {
      width = std::max(width, options_.boundaries[bucket] - 1);  // never cuts a row (CheckRow)
    }
    switch (c.dtype) {
      case DType::kInt64:
        PadRows(c.row_splits, width, options_.pad_int64, &c.int64_values, &scratch_int64_);
        break;
      case DType::kFloat:
        PadRows(c.row_splits, width, options_.pad_float, &c.float_values, &scratch_float_);
        break;
      case DType::kBytes:
        if (c.bytes_layout == BytesLayout::kStrings) {
          PadRows(c.row_splits, width, options_.pad_bytes, &c.bytes_values, &scratch_strings_);
        } else {
          PadBlob(width, &c);
        }
        break;
    }
    c.ragged = false;
    c.length = width;
    c.row_splits.clear();
  }
}

void BucketBatcher::PadBlob(size_t width, Column* c) {
  const size_t rows = c->row_splits.size() - 1;
  const std::string& pad = options_.pad_bytes;
  scratch_blob_.clear();
  scratch_offsets_.assign(1, 0);
  scratch_offsets_.reserve(rows * width + 1);
  for (size_t r = 0; r < rows; ++r) {
    const size_t begin = static_cast<size_t>(c->row_splits[r]);
    const size_t end = static_cast<size_t>(c->row_splits[r + 1]);
    // The row's bytes in one piece, then its offsets shifted to their new place.
    const int64_t first = c->bytes_offsets[begin];
    const int64_t shift = static_cast<int64_t>(scratch_blob_.size()) - first;
    scratch_blob_.append(c->bytes_blob, static_cast<size_t>(first),
                         static_cast<size_t>(c->bytes_offsets[end] - first));
    for (size_t v = begin + 1; v <= end; ++v)
      scratch_offsets_.push_back(c->bytes_offsets[v] + shift);
    for (size_t p = end - begin; p < width; ++p) {
      scratch_blob_ += pad;
      scratch_offsets_.push_back(static_cast<int64_t>(scratch_blob_.size()));
    }
  }
  c->bytes_blob.swap(scratch_blob_);
  c->bytes_offsets.swap(scratch_offsets_);
}

}  // namespace tfq::pipeline::internal
