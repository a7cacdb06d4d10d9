// Schema inference: the narrowest kind that fits every non-missing value of a column in the rows
// seen (values.h says what fits): int64 if every value is an int64; else float if every value is a
// float and every int64 among them converts to float32 exactly (so a column of large ids mixed
// with a few decimals becomes bytes rather than losing digits); else bytes. A column with no
// value at all in the rows seen is bytes, the kind that can hold anything that comes later.
//
// Thread safety: none; feed rows from one thread (inference reads the first rows only).
#ifndef TFQ_CSV_INFER_H_
#define TFQ_CSV_INFER_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "csv/row_batch.h"
#include "csv/schema.h"
#include "csv/values.h"

namespace tfq::csv {

class SchemaInferrer {
 public:
  // `names`: the file's columns, in order. `declared`: columns whose spec is given (by --schema
  // or flags; list columns must be declared); they are kept as given, not inferred.
  SchemaInferrer(std::vector<std::string> names, Schema declared, NaMatcher na);
  SchemaInferrer(const SchemaInferrer&) = delete;  // holds pointers into its own declared_
  SchemaInferrer& operator=(const SchemaInferrer&) = delete;

  // One row of fields aligned with `names` (missing trailing fields count as missing values).
  void AddRow(std::span<const std::string_view> fields);
  // Rows of `batch` from `first` on until `rows()` reaches `max_rows`; returns the index of the
  // first row not added (batch.num_rows() when all were).
  size_t AddBatch(const RowBatch& batch, size_t first, uint64_t max_rows);
  uint64_t rows() const { return rows_; }

  // One spec per name, in file order. A declared column that is not among the names is a
  // kInvalidArgument error.
  Result<Schema> Finish() const;

 private:
  struct ColumnState {
    const ColumnSpec* declared = nullptr;  // points into declared_
    bool seen_int = false;
    bool seen_float = false;  // a float that is not an int64
    bool seen_other = false;  // neither: the column is bytes
    bool int_inexact = false;  // an int64 that float32 cannot hold exactly
  };

  std::vector<std::string> names_;
  Schema declared_;
  NaMatcher na_;
  std::vector<ColumnState> columns_;
  uint64_t rows_ = 0;
};

}  // namespace tfq::csv

#endif  // TFQ_CSV_INFER_H_
