#include "csv/infer.h"

#include <string>

namespace tfq::csv {

SchemaInferrer::SchemaInferrer(std::vector<std::string> names, Schema declared, NaMatcher na)
    : names_(std::move(names)), declared_(std::move(declared)), na_(std::move(na)),
      columns_(names_.size()) {
  for (size_t i = 0; i < names_.size(); ++i) columns_[i].declared = declared_.Find(names_[i]);
}

void SchemaInferrer::AddRow(std::span<const std::string_view> fields) {
  ++rows_;
  const size_t n = fields.size() < columns_.size() ? fields.size() : columns_.size();
  for (size_t i = 0; i < n; ++i) {
    ColumnState& c = columns_[i];
    if (c.declared || c.seen_other || na_.IsMissing(fields[i])) continue;
    const ValueFit fit = ClassifyValue(fields[i]);
    if (fit.int64) {
      c.seen_int = true;
      c.int_inexact |= !fit.float32;
    } else if (fit.float32) {
      c.seen_float = true;
    } else {
      c.seen_other = true;
    }
  }
}

size_t SchemaInferrer::AddBatch(const RowBatch& batch, size_t first, uint64_t max_rows) {
  size_t i = first;
  for (; i < batch.num_rows() && rows_ < max_rows; ++i) AddRow(batch.row(i));
  return i;
}

Result<Schema> SchemaInferrer::Finish() const {
  for (const ColumnSpec& d : declared_.columns) {
    bool found = false;
    for (const std::string& n : names_) found |= n == d.name;
    if (!found) {
      return Status::InvalidArgument("the schema names a column \"" + d.name +
                                     "\" that the CSV header does not have");
    }
  }
  Schema schema;
  for (size_t i = 0; i < names_.size(); ++i) {
    const ColumnState& c = columns_[i];
    if (c.declared) {
      schema.columns.push_back(*c.declared);
      continue;
    }
    ColumnSpec spec;
    spec.name = names_[i];
    if (c.seen_other) {
      spec.kind = ColumnKind::kBytes;
    } else if (c.seen_float) {
      spec.kind = c.int_inexact ? ColumnKind::kBytes : ColumnKind::kFloat;
    } else if (c.seen_int) {
      spec.kind = ColumnKind::kInt64;
    } else {
      spec.kind = ColumnKind::kBytes;
    }
    schema.columns.push_back(std::move(spec));
  }
  return schema;
}

}  // namespace tfq::csv
