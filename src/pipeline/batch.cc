#include "pipeline/batch.h"

#include <iterator>
#include <utility>

namespace tfq::pipeline {

size_t Column::num_values() const {
  switch (dtype) {
    case DType::kInt64: return int64_values.size();
    case DType::kFloat: return float_values.size();
    case DType::kBytes:
      switch (bytes_layout) {
        case BytesLayout::kStrings: return bytes_values.size();
        case BytesLayout::kBlob: return bytes_offsets.size() - 1;
        case BytesLayout::kViews: return bytes_views.size();
      }
  }
  return 0;
}

std::string_view Column::bytes_value(size_t i) const {
  if (bytes_layout == BytesLayout::kStrings) return bytes_values[i];
  if (bytes_layout == BytesLayout::kViews) return bytes_views[i];
  const size_t begin = static_cast<size_t>(bytes_offsets[i]);
  return std::string_view(bytes_blob).substr(begin, static_cast<size_t>(bytes_offsets[i + 1]) - begin);
}

void Column::RowRange(size_t row, size_t* begin, size_t* end) const {
  if (ragged) {
    *begin = static_cast<size_t>(row_splits[row]);
    *end = static_cast<size_t>(row_splits[row + 1]);
  } else {
    *begin = row * length;
    *end = *begin + length;
  }
}

const Column* Batch::column(std::string_view key) const {
  for (const Column& c : columns) {
    if (c.key == key) return &c;
  }
  return nullptr;
}

namespace internal {

void ResetBatch(const std::vector<FeatureSpec>& specs, Batch* batch) {
  batch->rows = 0;
  batch->records.clear();
  batch->sources.clear();
  batch->ordinals.clear();
  batch->blocks.clear();
  batch->columns.resize(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    const FeatureSpec& spec = specs[i];
    Column& c = batch->columns[i];
    if (c.key != spec.key) c.key = spec.key;
    c.dtype = spec.dtype;
    c.ragged = spec.ragged;
    c.length = spec.ragged ? 0 : spec.length;
    c.bytes_layout = spec.bytes_layout;
    c.int64_values.clear();
    c.float_values.clear();
    c.bytes_values.clear();
    c.bytes_blob.clear();
    c.bytes_offsets.clear();
    c.bytes_views.clear();
    c.row_splits.clear();
    c.lengths.clear();
    if (spec.dtype == DType::kBytes && spec.bytes_layout == BytesLayout::kBlob) {
      c.bytes_offsets.push_back(0);
    }
    if (spec.ragged) c.row_splits.push_back(0);
  }
}

void MarkColumns(const Batch& batch, std::vector<ColumnMark>* marks) {
  marks->resize(batch.columns.size());
  for (size_t i = 0; i < batch.columns.size(); ++i) {
    const Column& c = batch.columns[i];
    (*marks)[i] = ColumnMark{c.int64_values.size(), c.float_values.size(), c.bytes_values.size(),
                             c.bytes_blob.size(),   c.bytes_offsets.size(), c.row_splits.size(),
                             c.bytes_views.size()};
  }
}

void RollBackColumns(const std::vector<ColumnMark>& marks, Batch* batch) {
  for (size_t i = 0; i < marks.size(); ++i) {
    Column& c = batch->columns[i];
    const ColumnMark& m = marks[i];
    c.int64_values.resize(m.int64s);
    c.float_values.resize(m.floats);
    c.bytes_values.resize(m.strings);
    c.bytes_blob.resize(m.blob);
    c.bytes_offsets.resize(m.offsets);
    c.row_splits.resize(m.splits);
    c.bytes_views.resize(m.views);
  }
}

namespace {

template <typename T>
void AppendRange(const std::vector<T>& from, size_t begin, size_t end, std::vector<T>* to) {
  to->insert(to->end(), from.begin() + static_cast<std::ptrdiff_t>(begin),
             from.begin() + static_cast<std::ptrdiff_t>(end));
}

template <typename T>
void MoveRange(std::vector<T>* from, size_t begin, size_t end, std::vector<T>* to) {
  to->insert(to->end(), std::make_move_iterator(from->begin() + static_cast<std::ptrdiff_t>(begin)),
             std::make_move_iterator(from->begin() + static_cast<std::ptrdiff_t>(end)));
}

void AppendColumnRows(Column* src, size_t row_begin, size_t row_end, Column* dst) {
  size_t value_begin, value_end, unused;
  if (row_begin == row_end) return;
  src->RowRange(row_begin, &value_begin, &unused);
  src->RowRange(row_end - 1, &unused, &value_end);
  const int64_t dst_values_before = static_cast<int64_t>(dst->num_values());
  switch (src->dtype) {
    case DType::kInt64: AppendRange(src->int64_values, value_begin, value_end, &dst->int64_values); break;
    case DType::kFloat: AppendRange(src->float_values, value_begin, value_end, &dst->float_values); break;
    case DType::kBytes:
      if (src->bytes_layout == BytesLayout::kStrings) {
        MoveRange(&src->bytes_values, value_begin, value_end, &dst->bytes_values);
      } else if (src->bytes_layout == BytesLayout::kViews) {
        AppendRange(src->bytes_views, value_begin, value_end, &dst->bytes_views);
      } else {
        const int64_t first = src->bytes_offsets[value_begin];
        const int64_t shift = static_cast<int64_t>(dst->bytes_blob.size()) - first;
        dst->bytes_blob.append(src->bytes_blob, static_cast<size_t>(first),
                               static_cast<size_t>(src->bytes_offsets[value_end] - first));
        for (size_t v = value_begin + 1; v <= value_end; ++v) {
          dst->bytes_offsets.push_back(src->bytes_offsets[v] + shift);
        }
      }
      break;
  }
  if (src->ragged) {
    const int64_t shift = dst_values_before - src->row_splits[row_begin];
    for (size_t r = row_begin + 1; r <= row_end; ++r) {
      dst->row_splits.push_back(src->row_splits[r] + shift);
    }
  }
}

}  // namespace

void AppendRows(Batch* src, size_t begin, size_t end, Batch* dst) {
  if (begin >= end) return;
  for (size_t i = 0; i < src->columns.size(); ++i) {
    AppendColumnRows(&src->columns[i], begin, end, &dst->columns[i]);
  }
  if (!src->records.empty()) MoveRange(&src->records, begin, end, &dst->records);
  // Views may point into any of the source's blocks; sharing them all is cheaper than finding out.
  dst->blocks.insert(dst->blocks.end(), src->blocks.begin(), src->blocks.end());
  AppendRange(src->sources, begin, end, &dst->sources);
  if (!src->ordinals.empty()) AppendRange(src->ordinals, begin, end, &dst->ordinals);
  dst->rows += end - begin;
}

}  // namespace internal
}  // namespace tfq::pipeline
