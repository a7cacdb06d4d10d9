#include "csv/row_batch.h"

#include <cstdint>
#include <string>

#include "csv/chunker.h"

namespace tfq::csv {

void RowBatch::Reset(std::string_view data) {
  data_ = data;
  fields_.clear();
  row_ends_.assign(1, 0);
  row_offsets_.clear();
  row_records_.clear();
  header_.clear();
  has_header_ = false;
  skipped_rows_ = 0;
  padded_rows_ = 0;
  scratch_used_ = 0;
}

uint64_t RowBatch::LineAt(size_t offset) const {
  if (offset > data_.size()) offset = data_.size();
  return first_line_ + CountLineEnds(data_.substr(0, offset));
}

uint64_t RowBatch::RowNumber(size_t i) const {
  return first_record_ + row_records_[i] + 1 - header_records_;
}

std::string RowBatch::WhereAt(size_t offset, uint64_t record_in_chunk, size_t column,
                              std::string_view column_name) const {
  std::string s = source_;
  s += ": line " + std::to_string(LineAt(offset));
  const uint64_t record = first_record_ + record_in_chunk;
  if (header_records_ != 0 && record == 0) {
    s += " (header)";
  } else {
    s += " (row " + std::to_string(record + 1 - header_records_) + ")";
  }
  if (column != std::string::npos) {
    s += ", column " + std::to_string(column + 1);
    if (!column_name.empty()) {
      s += " \"";
      s += column_name;
      s += '"';
    }
  }
  return s;
}

size_t RowBatch::OffsetOf(const char* p, size_t fallback) const {
  // Integer comparison: the pointer may belong to another allocation.
  const auto at = reinterpret_cast<uintptr_t>(p);
  const auto begin = reinterpret_cast<uintptr_t>(data_.data());
  return at >= begin && at <= begin + data_.size() ? static_cast<size_t>(at - begin) : fallback;
}

std::string RowBatch::Where(size_t i, size_t column, std::string_view column_name) const {
  size_t offset = row_offsets_[i];
  const auto fields = row(i);
  if (column < fields.size()) offset = OffsetOf(fields[column].data(), offset);
  return WhereAt(offset, row_records_[i], column, column_name);
}

}  // namespace tfq::csv
