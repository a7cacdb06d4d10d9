#include "csv/parser.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string>

#include "csv/block_scan.h"
#include "csv/schema.h"

namespace tfq::csv {

using internal::BlockMasks;
using internal::kBlockBytes;

// Blocks classified per ClassifyBlocks call: the masks of 4 KiB of input, kept in L1.
constexpr size_t kRunBlocks = 64;
// Views reserved before parsing a chunk, at most (16 MiB of them).
constexpr size_t kMaxFieldRoom = size_t{1} << 20;

ChunkParser::ChunkParser(const ParseOptions& options) : options_(options) {}

void ChunkParser::SetColumnNames(std::vector<std::string> names) {
  names_ = std::move(names);
  expected_fields_ = names_.size();
}

std::string_view ChunkParser::NameOf(size_t column) const {
  return column < names_.size() ? std::string_view(names_[column]) : std::string_view();
}

// A field that contains a quote: it opens the field (anything else was rejected by the quote
// check on its block) and must also close it. Returns false on text after the closing quote.
inline bool ChunkParser::EmitQuoted(const char* base, size_t start, size_t end, bool escaped,
                                    RowBatch* out) {
  if (end - start < 2 || base[end - 1] != '"') return false;
  const char* src = base + start + 1;
  const char* const stop = base + end - 1;
  if (!escaped) {
    out->fields_.Add(std::string_view(src, static_cast<size_t>(stop - src)));
    return true;
  }
  // Every quote inside is the first of a doubled pair (the block masks proved it): keep one.
  char* const first = out->scratch_.get() + out->scratch_used_;
  char* dst = first;
  while (src < stop) {
    const void* q = std::memchr(src, '"', static_cast<size_t>(stop - src));
    const char* seg_end = q ? static_cast<const char*>(q) + 1 : stop;
    std::memcpy(dst, src, static_cast<size_t>(seg_end - src));
    dst += seg_end - src;
    src = q ? seg_end + 1 : stop;
  }
  out->scratch_used_ += static_cast<size_t>(dst - first);
  out->fields_.Add(std::string_view(first, static_cast<size_t>(dst - first)));
  return true;
}

Status ChunkParser::Parse(std::string_view data, const ChunkPosition& position, RowBatch* out) {
  out->Reset(data);
  if (data.size() >= std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument(std::string(position.source) + ": CSV chunk of " +
                                   std::to_string(data.size()) + " bytes exceeds 4 GiB");
  }
  out->source_.assign(position.source);
  out->first_line_ = position.first_line;
  out->first_record_ = position.first_record;
  out->header_records_ = options_.header ? 1 : 0;
  if (out->scratch_capacity_ < data.size()) {
    out->scratch_.reset(new char[data.size()]);
    out->scratch_capacity_ = data.size();
  }
  // Room for the views up front: a vector that doubles its way up copies them and touches about
  // twice the memory, and first touches of fresh pages (page faults, costly in a VM) are a
  // measurable part of a conversion. Capacity never written is never touched, so a generous
  // bound costs address space only; a chunk of one-byte fields still grows past it, and so does
  // a huge chunk (one long record), whose room is not claimed up front. Rounded up to a power of
  // two, so that chunks of about the same size share one allocation.
  out->fields_.Reserve(std::min(std::bit_ceil(data.size() / 4 + 64), kMaxFieldRoom));
  bool header_pending = options_.header && position.first_record == 0;

  const char* const base = data.data();
  const size_t n = data.size();
  const char delim = options_.delimiter;
  FieldViews& fields = out->fields_;

  size_t field_start = 0;
  size_t row_start = 0;
  size_t row_first_field = 0;
  uint32_t record = 0;       // record ordinal within the chunk
  uint64_t in_quote = 0;     // all ones while inside quotes after the classified blocks
  uint64_t prev_struct = 1;  // the previous byte ended a field (the chunk start counts)
  uint64_t prev_close = 0;   // the previous byte was a closing quote
  bool pending_quote = false;   // the current field, begun in an earlier block, has a quote
  bool pending_escape = false;  // ... and a doubled quote

  BlockMasks masks[kRunBlocks];
  for (size_t blk = 0; blk < n; blk += kBlockBytes) {
    const size_t in_run = blk / kBlockBytes % kRunBlocks;
    if (in_run == 0) {
      const size_t run_len = std::min(n - blk, kRunBlocks * kBlockBytes);
      internal::ClassifyBlocks(base + blk, run_len, delim, options_.quoting, &in_quote, masks);
    }
    const BlockMasks& m = masks[in_run];
    const uint64_t quote = m.quote;
    const uint64_t inside = m.inside;
    const uint64_t row_end = (m.lf | m.cr) & ~inside;
    const uint64_t structural = (m.delim & ~inside) | row_end;
    uint64_t bits = structural;
    uint64_t escape = 0;
    uint64_t bad_quote = 0;
    if (quote) {
      // A quote that opens (parity turns odd) is legal only at a field start, or right after a
      // closing quote, where the pair is an escaped quote.
      const uint64_t open = quote & inside;
      const uint64_t after_close = ((quote & ~inside) << 1) | prev_close;
      escape = open & after_close;
      bad_quote = open & ~(after_close | (structural << 1) | prev_struct);
      prev_close = (quote & ~inside) >> 63;
      if (bad_quote) bits &= (bad_quote & (0 - bad_quote)) - 1;  // fields before it only
    } else {
      prev_close = 0;
    }
    prev_struct = structural >> 63;

    fields.Reserve(kBlockBytes);  // the most fields that can end in this block (EmitQuoted too)
    // The field that ends at `pos` ends a record too: stores the row (or drops a blank line).
    auto end_row = [&](size_t pos) -> Status {
      if (pos == row_start) {
        fields.pop_back();  // a blank line: its one empty field is not a record
      } else {
        if (fields.size() - row_first_field != expected_fields_ || header_pending) {
          TFQ_RETURN_IF_ERROR(
              FinishUnusualRow(row_start, pos, row_first_field, record, &header_pending, out));
          fields.Reserve(kBlockBytes);  // padding may have used the block's room
        } else {
          out->row_ends_.push_back(static_cast<uint32_t>(fields.size()));
          out->row_offsets_.push_back(static_cast<uint32_t>(row_start));
          out->row_records_.push_back(record);
        }
        ++record;
        row_first_field = fields.size();
      }
      row_start = pos + 1;
      return Status::OK();
    };
    if (quote == 0 && !pending_quote) {
      // No field ending in this block has a quote (most blocks of most files): views only.
      while (bits) {
        const unsigned b = static_cast<unsigned>(std::countr_zero(bits));
        bits &= bits - 1;
        const size_t pos = blk + b;
        fields.Add(std::string_view(base + field_start, pos - field_start));
        field_start = pos + 1;
        if ((row_end >> b) & 1) TFQ_RETURN_IF_ERROR(end_row(pos));
      }
      continue;  // nothing pending, no bad quote
    }
    uint64_t quote_left = quote;  // quote bits not yet attributed to a finished field
    uint64_t escape_left = escape;
    while (bits) {
      const unsigned b = static_cast<unsigned>(std::countr_zero(bits));
      bits &= bits - 1;
      const size_t pos = blk + b;
      const uint64_t before = (uint64_t{1} << b) - 1;
      const bool has_quote = pending_quote || (quote_left & before);
      if (!has_quote) {
        fields.Add(std::string_view(base + field_start, pos - field_start));
      } else {
        const bool has_escape = pending_escape || (escape_left & before);
        quote_left &= ~before;
        escape_left &= ~before;
        pending_quote = pending_escape = false;
        if (!EmitQuoted(base, field_start, pos, has_escape, out)) {
          return ClosingQuoteError(field_start, record, row_first_field, *out);
        }
      }
      field_start = pos + 1;
      if ((row_end >> b) & 1) TFQ_RETURN_IF_ERROR(end_row(pos));
    }
    if (bad_quote) {
      const size_t at = blk + static_cast<size_t>(std::countr_zero(bad_quote));
      return QuoteError(field_start, at, record, row_first_field, *out);
    }
    pending_quote |= quote_left != 0;
    pending_escape |= escape_left != 0;
  }

  if (in_quote) {
    return Status::InvalidData(
        out->WhereAt(field_start, record, fields.size() - row_first_field,
                     NameOf(fields.size() - row_first_field)) +
        ": the quote opening this field is never closed");
  }
  // The last record of the stream may lack its terminator.
  if (field_start < n || fields.size() > row_first_field) {
    fields.Reserve(1);
    if (!pending_quote) {
      fields.Add(std::string_view(base + field_start, n - field_start));
    } else if (!EmitQuoted(base, field_start, n, pending_escape, out)) {
      return ClosingQuoteError(field_start, record, row_first_field, *out);
    }
    if (fields.size() - row_first_field != expected_fields_ || header_pending) {
      TFQ_RETURN_IF_ERROR(
          FinishUnusualRow(row_start, n, row_first_field, record, &header_pending, out));
    } else {
      out->row_ends_.push_back(static_cast<uint32_t>(fields.size()));
      out->row_offsets_.push_back(static_cast<uint32_t>(row_start));
      out->row_records_.push_back(record);
    }
  }
  return Status::OK();
}

// The header record, the first record when the field count is not known yet, and ragged records.
Status ChunkParser::FinishUnusualRow(size_t row_start, size_t row_end, size_t row_first_field,
                                     uint32_t record, bool* header_pending, RowBatch* out) {
  FieldViews& fields = out->fields_;
  const size_t count = fields.size() - row_first_field;
  if (*header_pending) {
    *header_pending = false;
    if (expected_fields_ != 0 && count != expected_fields_) {
      return Status::InvalidData(out->WhereAt(row_start, record, std::string::npos, {}) +
                                 ": the header has " + std::to_string(count) +
                                 " fields, but " + std::to_string(expected_fields_) +
                                 " column names were given");
    }
    out->header_.assign(fields.begin() + static_cast<ptrdiff_t>(row_first_field), fields.end());
    out->has_header_ = true;
    if (names_.empty()) {
      for (size_t i = 0; i < count; ++i) names_.push_back(HeaderColumnName(out->header_[i], i));
      expected_fields_ = count;
    }
    fields.resize(row_first_field);
    return Status::OK();
  }
  if (expected_fields_ == 0) {  // no header: the first record fixes the columns
    expected_fields_ = count;
    for (size_t i = 0; i < count; ++i) names_.push_back(HeaderColumnName({}, i));
  } else if (count != expected_fields_) {
    bool drop_extra = false;
    if (options_.ragged == RaggedPolicy::kSkip) {
      fields.resize(row_first_field);
      ++out->skipped_rows_;
      return Status::OK();
    }
    if (options_.ragged == RaggedPolicy::kPad) {
      if (count < expected_fields_) {
        fields.resize(row_first_field + expected_fields_);  // empty views
        ++out->padded_rows_;
      } else {
        drop_extra = true;
        for (size_t i = row_first_field + expected_fields_; i < fields.size(); ++i) {
          drop_extra &= fields[i].empty();
        }
        if (drop_extra) {
          fields.resize(row_first_field + expected_fields_);
          ++out->padded_rows_;
        }
      }
    }
    if (fields.size() - row_first_field != expected_fields_) {
      const std::string counts = "the record has " + std::to_string(count) + " fields, " +
                                 std::to_string(expected_fields_) + " expected";
      if (count < expected_fields_) {
        return Status::InvalidData(out->WhereAt(row_end, record, count, NameOf(count)) +
                                   ": missing; " + counts);
      }
      const std::string_view extra = fields[row_first_field + expected_fields_];
      const size_t at = out->OffsetOf(extra.data(), row_start);
      return Status::InvalidData(out->WhereAt(at, record, expected_fields_, {}) +
                                 ": extra field; " + counts +
                                 (options_.ragged == RaggedPolicy::kPad
                                      ? " (padding drops only empty extra fields)"
                                      : ""));
    }
  }
  out->row_ends_.push_back(static_cast<uint32_t>(fields.size()));
  out->row_offsets_.push_back(static_cast<uint32_t>(row_start));
  out->row_records_.push_back(record);
  return Status::OK();
}

// Offset of the first byte after the closing quote of the quoted field starting at `start`.
static size_t AfterClosingQuote(std::string_view data, size_t start) {
  size_t i = start + 1;
  while (i < data.size()) {
    if (data[i] == '"') {
      if (i + 1 < data.size() && data[i + 1] == '"') {
        i += 2;
        continue;
      }
      return i + 1;
    }
    ++i;
  }
  return data.size();
}

Status ChunkParser::ClosingQuoteError(size_t field_start, uint32_t record, size_t row_first_field,
                                      const RowBatch& out) const {
  const size_t column = out.fields_.size() - row_first_field;
  const size_t at = AfterClosingQuote(out.data_, field_start);
  return Status::InvalidData(out.WhereAt(at, record, column, NameOf(column)) +
                             ": text after the closing quote of a quoted field");
}

Status ChunkParser::QuoteError(size_t field_start, size_t quote_pos, uint32_t record,
                               size_t row_first_field, const RowBatch& out) const {
  if (out.data_[field_start] == '"') return ClosingQuoteError(field_start, record, row_first_field, out);
  const size_t column = out.fields_.size() - row_first_field;
  return Status::InvalidData(out.WhereAt(quote_pos, record, column, NameOf(column)) +
                             ": quote inside an unquoted field (quote the whole field and "
                             "double the quote)");
}

}  // namespace tfq::csv
