// ChunkParser: splits one chunk of whole records into rows of fields (RFC 4180, see options.h and
// docs/csv.md), without allocating per field.
//
// Unquoted fields are views into the chunk; quoted fields lose their quotes and are views into the
// chunk too unless they hold a doubled quote, which is unescaped into the batch's scratch. Blank
// lines (no bytes between two record ends) are skipped; a record whose field count differs from
// the expected count is handled by ParseOptions::ragged.
//
// Errors (kInvalidData) name the source, line, row and column:
//   data.csv: line 7 (row 6), column 3 "price": quote inside an unquoted field
// A quote may only open a field; a quote anywhere else in an unquoted field, or text between a
// closing quote and the next delimiter, is an error rather than a guess (see docs/csv.md).
//
// Parallel use: one ChunkParser per thread. The expected field count comes from
// SetColumnNames, or else from the header (or first record) of the stream, so parse chunks in
// order until one has records (RowBatch::has_header() with a header; a file may open with blank
// lines), then give column_names() to the other threads' parsers.
#ifndef TFQ_CSV_PARSER_H_
#define TFQ_CSV_PARSER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "csv/chunker.h"
#include "csv/options.h"
#include "csv/row_batch.h"

namespace tfq::csv {

class ChunkParser {
 public:
  // `options` must be valid (ValidateParseOptions).
  explicit ChunkParser(const ParseOptions& options);

  // Column names (from the user, or the header read by another parser): every record must have
  // names.size() fields, and errors name the column. With ParseOptions::header the stream's header
  // record is still read (and must have that many fields) but not used for names.
  void SetColumnNames(std::vector<std::string> names);
  // The names given, or those of the header once parsed (or column_1, column_2, ... from the
  // first record without a header; csv::HeaderColumnName), empty before. Errors name columns
  // with these, so that a message does not depend on which parser met the row.
  const std::vector<std::string>& column_names() const { return names_; }
  // The field count every record must have; 0 until known.
  size_t expected_fields() const { return expected_fields_; }

  // Parses `data`, which must start at a record boundary and end at one or at the end of the
  // stream (a Chunker chunk), into *out (its previous contents are dropped, its buffers reused).
  // The views in *out point into `data`: see row_batch.h for their lifetime. Rows parsed before an
  // error stay in *out.
  Status Parse(std::string_view data, const ChunkPosition& position, RowBatch* out);
  Status Parse(const Chunk& chunk, RowBatch* out) { return Parse(chunk.data(), chunk.position(), out); }

 private:
  bool EmitQuoted(const char* base, size_t start, size_t end, bool escaped, RowBatch* out);
  Status FinishUnusualRow(size_t row_start, size_t row_end, size_t row_first_field,
                          uint32_t record, bool* header_pending, RowBatch* out);
  Status QuoteError(size_t field_start, size_t quote_pos, uint32_t record, size_t row_first_field,
                    const RowBatch& out) const;
  Status ClosingQuoteError(size_t field_start, uint32_t record, size_t row_first_field,
                           const RowBatch& out) const;
  std::string_view NameOf(size_t column) const;

  ParseOptions options_;
  std::vector<std::string> names_;
  size_t expected_fields_ = 0;
};

}  // namespace tfq::csv

#endif  // TFQ_CSV_PARSER_H_
