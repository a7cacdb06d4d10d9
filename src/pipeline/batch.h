// Batch: what Pipeline::Next hands out: `rows` records as feature columns in contiguous arrays.
//
// A dense column (FixedLenFeature) holds rows * length values, row-major: row r's values are
// [r * length, (r + 1) * length). A ragged column (VarLenFeature) holds its values back to back
// and rows + 1 row splits: row r's values are [row_splits[r], row_splits[r + 1]) (the layout of
// tf.RaggedTensor.from_row_splits). Only the vector of the column's dtype (and bytes layout) is
// used; the others stay empty.
//
// A Batch owns everything in it and is independent of the pipeline once handed out: keep it,
// move it to another thread, or pass it back into Next to reuse its memory.
#ifndef TFQ_PIPELINE_BATCH_H_
#define TFQ_PIPELINE_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/options.h"
#include "pipeline/record.h"

namespace tfq::pipeline {

struct Column {
  std::string key;
  DType dtype = DType::kInt64;
  bool ragged = false;
  size_t length = 0;  // dense: values per row
  BytesLayout bytes_layout = BytesLayout::kStrings;

  std::vector<int64_t> int64_values;
  std::vector<float> float_values;
  std::vector<std::string> bytes_values;  // BytesLayout::kStrings
  // BytesLayout::kBlob: value i is bytes_blob[bytes_offsets[i], bytes_offsets[i + 1]); the
  // offsets start with 0 and have num_values() + 1 entries.
  std::string bytes_blob;
  std::vector<int64_t> bytes_offsets;
  std::vector<std::string_view> bytes_views;  // BytesLayout::kViews, into Batch::blocks
  std::vector<int64_t> row_splits;  // ragged: rows + 1 entries, starting with 0
  // Only in a ragged column padded dense by bucketing (bucket_batcher.h): each row's value count
  // before padding (rows entries). Empty otherwise.
  std::vector<int64_t> lengths;

  size_t num_values() const;
  // Value i of a bytes column, either layout; valid while the column is unchanged.
  std::string_view bytes_value(size_t i) const;
  // Row r's values as [*begin, *end) indexes into the value arrays.
  void RowRange(size_t row, size_t* begin, size_t* end) const;
};

struct Batch {
  size_t rows = 0;
  std::vector<Column> columns;        // in PipelineOptions::features order
  std::vector<std::string> records;   // the serialized records, when kept
  std::vector<RecordSource> sources;  // where each row came from
  // Each row's place in the pipeline's output (0, 1, ... since Open), which SaveState keys on.
  std::vector<uint64_t> ordinals;
  // What the BytesLayout::kViews columns point into: the blocks of the rows' records (and copies
  // of the rare values that are not contiguous in their record). Released with the batch.
  std::vector<std::shared_ptr<const void>> blocks;

  // The column for `key`, or nullptr.
  const Column* column(std::string_view key) const;
};

namespace internal {

// An empty batch with one column per spec (row splits and blob offsets hold their leading 0).
// Reuses the memory *batch already has.
void ResetBatch(const std::vector<FeatureSpec>& specs, Batch* batch);

// Where each array of a batch ended, to undo a partly appended row.
struct ColumnMark {
  size_t int64s, floats, strings, blob, offsets, splits, views;
};
void MarkColumns(const Batch& batch, std::vector<ColumnMark>* marks);
void RollBackColumns(const std::vector<ColumnMark>& marks, Batch* batch);

// Moves rows [begin, end) of *src to the end of *dst (same specs); *src keeps its row count but
// its moved strings are left empty. Values are copied in bulk, splits and offsets rebased.
void AppendRows(Batch* src, size_t begin, size_t end, Batch* dst);

}  // namespace internal
}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_BATCH_H_
