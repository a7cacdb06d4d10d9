// RowBatch: the rows the parser found in one chunk, as views.
//
// Lifetime: a field view points either into the chunk bytes that were parsed (unquoted fields and
// quoted fields without a doubled quote) or into the batch's own scratch (quoted fields that had
// to be unescaped). Every view is valid while both the chunk bytes and the batch are alive and
// unchanged: until the next ChunkParser::Parse into this batch or the chunk buffer is reused.
//
// Line and row numbers are computed on demand (error paths only) from byte offsets, so the hot
// path stores just an offset per row. Thread safety: none; one batch per thread.
#ifndef TFQ_CSV_ROW_BATCH_H_
#define TFQ_CSV_ROW_BATCH_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "csv/field_views.h"

namespace tfq::csv {

class RowBatch {
 public:
  size_t num_rows() const { return row_offsets_.size(); }
  // The fields of row i: as many as the header (or given names) has, after ragged padding.
  std::span<const std::string_view> row(size_t i) const {
    return {fields_.data() + row_ends_[i], fields_.data() + row_ends_[i + 1]};
  }
  // Bytes of the chunk from row i's first byte to the next row's (or the chunk's end): a bound
  // on the size of each field of row i, whose views are this text or shorter unescaped copies.
  size_t RowBytes(size_t i) const {
    const size_t end = i + 1 < row_offsets_.size() ? row_offsets_[i + 1] : data_.size();
    return end - row_offsets_[i];
  }
  // The header record's fields if this chunk held it (the stream's first record with
  // ParseOptions::header), else empty.
  std::span<const std::string_view> header() const { return header_; }
  bool has_header() const { return has_header_; }

  // Records dropped (RaggedPolicy::kSkip) and padded or trimmed (kPad) in this batch.
  size_t skipped_rows() const { return skipped_rows_; }
  size_t padded_rows() const { return padded_rows_; }

  // Physical line (1-based) of the byte at `offset` in the chunk.
  uint64_t LineAt(size_t offset) const;
  // Physical line of row i's first byte.
  uint64_t RowLine(size_t i) const { return LineAt(row_offsets_[i]); }
  // 1-based data row number of row i in the stream: the header is not a row, blank lines are
  // not counted, skipped ragged records are.
  uint64_t RowNumber(size_t i) const;
  // "<source>: line L (row R), column C \"name\"" for row i, field `column` (0-based; the
  // column part is left out when column == npos, the name when empty). The line is that of the
  // field when it can be located in the chunk, else that of the row's start.
  std::string Where(size_t i, size_t column, std::string_view column_name) const;

  std::string_view data() const { return data_; }

 private:
  friend class ChunkParser;

  void Reset(std::string_view data);
  // The offset of `p` in the chunk if it points into it (a view of an unquoted field), else
  // `fallback` (a view into scratch, or of a padded field).
  size_t OffsetOf(const char* p, size_t fallback) const;
  // Where() for a byte offset and the record ordinal within the chunk.
  std::string WhereAt(size_t offset, uint64_t record_in_chunk, size_t column,
                      std::string_view column_name) const;

  std::string_view data_;
  std::string source_;
  uint64_t first_line_ = 1;
  uint64_t first_record_ = 0;
  uint64_t header_records_ = 0;  // 1 when the stream has a header record, to number data rows

  FieldViews fields_;
  std::vector<uint32_t> row_ends_;     // row i is fields_[row_ends_[i], row_ends_[i + 1])
  std::vector<uint32_t> row_offsets_;  // byte offset of row i's first byte in data_
  std::vector<uint32_t> row_records_;  // record ordinal of row i within the chunk
  std::vector<std::string_view> header_;
  bool has_header_ = false;
  size_t skipped_rows_ = 0;
  size_t padded_rows_ = 0;

  // Unescaped quoted fields. Sized to the chunk before parsing so that it never reallocates
  // while views into it are handed out (unescaping only shrinks a field).
  std::unique_ptr<char[]> scratch_;
  size_t scratch_capacity_ = 0;
  size_t scratch_used_ = 0;
};

}  // namespace tfq::csv

#endif  // TFQ_CSV_ROW_BATCH_H_
