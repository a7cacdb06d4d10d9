#include "csv/chunker.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "csv/block_scan.h"

namespace tfq::csv {
namespace internal {

// Scan state carried from one 64-byte block to the next (each a 0/1 bit, or all-ones mask).
struct ScanState {
  uint64_t in_quote = 0;   // all ones while inside a quoted field
  uint64_t prev_term = 1;  // the previous byte ended a record (the start of a chunk counts)
  uint64_t prev_cr = 0;    // the previous byte was a CR (so an LF now completes a CRLF)
};

struct ScanTotals {
  uint64_t lines = 0;    // physical line ends
  uint64_t records = 0;  // record ends that close a non-blank line
  size_t last_term = ~size_t{0};  // offset of the last terminator outside quotes, if any
};

}  // namespace internal

namespace {

using internal::BlockMasks;
using internal::kBlockBytes;
using internal::ScanState;
using internal::ScanTotals;

constexpr size_t kNoTerminator = ~size_t{0};
// The room reserved for a record longer than a chunk: the default --max-row-size, and at most 64
// chunks (tiny chunks, as the fuzzer and tests cut, must not reserve 64 MiB per record: under a
// sanitizer each reservation is a 64 MiB allocation to poison).
constexpr size_t kLongRecordRoom = size_t{64} << 20;
constexpr size_t kLongRecordChunks = 64;

// Scans bytes [0, len) of p. A record ends at a CR or LF outside quotes whose previous byte is
// not itself such a terminator: this skips blank lines and counts a CRLF once.
//
// This scan is the serial part of parallel parsing, so the counting is built twice, with and
// without the POPCNT instruction (not in baseline x86-64; libgcc's fallback is a call per count),
// and the loader picks one (GCC function multiversioning). Not under ThreadSanitizer: the loader
// runs the (instrumented) ifunc resolver before TSan's runtime is up, and the program crashes at
// start. The classification itself has its own run-time choice (block_scan.h).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("popcnt", "default")))
#endif
void ScanRecords(const char* p, size_t len, bool quoting, ScanState* st, ScanTotals* t) {
  constexpr size_t kRunBlocks = 64;  // 4 KiB of input per ClassifyBlocks call
  BlockMasks masks[kRunBlocks];
  for (size_t i = 0; i < len; i += kBlockBytes) {
    const size_t in_run = i / kBlockBytes % kRunBlocks;
    if (in_run == 0) {
      // The delimiter plays no part here; '\n' keeps the classifier from looking for another byte.
      internal::ClassifyBlocks(p + i, std::min(len - i, kRunBlocks * kBlockBytes), '\n', quoting,
                               &st->in_quote, masks);
    }
    const BlockMasks& m = masks[in_run];
    const size_t n = len - i < kBlockBytes ? len - i : kBlockBytes;
    const uint64_t term = (m.lf | m.cr) & ~m.inside;
    t->lines += std::popcount(m.lf);
    if (m.cr | st->prev_cr) {  // CRs are rare outside Windows files; a CRLF counts once
      t->lines += std::popcount(m.cr) - std::popcount(m.lf & ((m.cr << 1) | st->prev_cr));
    }
    t->records += std::popcount(term & ~((term << 1) | st->prev_term));
    if (term) t->last_term = i + 63 - std::countl_zero(term);
    const unsigned top = static_cast<unsigned>(n - 1);
    st->prev_term = (term >> top) & 1;
    st->prev_cr = (m.cr >> top) & 1;
  }
}

// The counts of `scanned` (whose totals are `all`) up to `cut`, a record end: all minus the tail
// after the cut. The tail starts outside quotes, right after a terminator.
ScanTotals CountsBefore(std::string_view scanned, size_t cut, const ScanTotals& all, bool quoting) {
  ScanState tail_st;
  tail_st.prev_cr = scanned[cut - 1] == '\r';
  ScanTotals tail;
  ScanRecords(scanned.data() + cut, scanned.size() - cut, quoting, &tail_st, &tail);
  ScanTotals before;
  before.lines = all.lines - tail.lines;
  before.records = all.records - tail.records;
  return before;
}

// Where the quote that is still open at the end of `bytes` opened, or kNoTerminator.
size_t UnclosedQuote(std::string_view bytes) {
  size_t open_at = kNoTerminator;
  bool inside = false;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] != '"') continue;
    inside = !inside;
    if (inside) open_at = i;
  }
  return inside ? open_at : kNoTerminator;
}

}  // namespace

uint64_t CountLineEnds(std::string_view bytes) {
  uint64_t lines = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == '\n') {
      ++lines;
    } else if (bytes[i] == '\r' && (i + 1 == bytes.size() || bytes[i + 1] != '\n')) {
      ++lines;
    }
  }
  return lines;
}

Chunker::Chunker(InputStream* in, const ParseOptions& options, const ChunkerOptions& chunk_options)
    : in_(in), delimiter_(options.delimiter), quoting_(options.quoting), options_(chunk_options) {
  if (options_.target_bytes == 0) options_.target_bytes = 1;
  if (options_.max_record_bytes < options_.target_bytes) {
    options_.max_record_bytes = options_.target_bytes;
  }
}

Status Chunker::RecordTooLong(std::string_view scanned) const {
  std::string msg = std::string(in_->name()) + ": line " + std::to_string(next_line_);
  const size_t open_at = quoting_ ? UnclosedQuote(scanned) : kNoTerminator;
  if (open_at != kNoTerminator) {
    const char before = open_at == 0 ? '\n' : scanned[open_at - 1];
    const bool at_field_start = before == delimiter_ || before == '\n' || before == '\r';
    msg += ": the quote at line " +
           std::to_string(next_line_ + CountLineEnds(scanned.substr(0, open_at))) +
           (at_field_start ? " is not closed" : " (inside an unquoted field) is not closed");
    msg += " within " + std::to_string(options_.max_record_bytes) + " bytes";
  } else {
    msg += ": a record longer than " + std::to_string(options_.max_record_bytes) + " bytes";
  }
  msg += ", the limit that bounds memory; raise it with --max-row-size if the file is genuine";
  return Status::ResourceExhausted(std::move(msg));
}

Status Chunker::Next(Chunk* chunk, bool* done) {
  *done = false;
  if (lent_ != 0) {  // the caller is done with the records lent last time
    in_->Consume(lent_);
    lent_ = 0;
  }
  if (finished_) {
    *done = true;
    return Status::OK();
  }
  std::string_view view;
  if (!started_) {
    started_ = true;
    TFQ_RETURN_IF_ERROR(in_->Peek(3, &view));
    if (view.size() >= 3 && std::memcmp(view.data(), "\xEF\xBB\xBF", 3) == 0) in_->Consume(3);
  }
  const size_t want = options_.target_bytes;
  TFQ_RETURN_IF_ERROR(in_->Peek(want, &view));
  if (view.empty()) {
    finished_ = true;
    *done = true;
    return Status::OK();
  }
  size_t cut = 0;
  ScanTotals counts;
  if (view.size() < want) {  // the stream ends here: the rest is the last chunk
    cut = view.size();
    finished_ = true;
  } else {
    // A CR in the last byte may be the first half of a CRLF: never cut right after it.
    size_t scan_len = want;
    if (view[scan_len - 1] == '\r') --scan_len;
    ScanState st;
    ScanTotals all;
    ScanRecords(view.data(), scan_len, quoting_, &st, &all);
    if (all.last_term == kNoTerminator) return NextLongRecord(chunk, scan_len, st, all);
    cut = all.last_term + 1;
    counts = CountsBefore(view.substr(0, scan_len), cut, all, quoting_);
  }
  chunk->lent = lend_;
  if (lend_) {
    chunk->lent_bytes = view.substr(0, cut);
  } else {
    // A power of two, so that chunks of about the same size share one allocation (each new one
    // costs page faults on first touch).
    if (chunk->bytes.capacity() < cut) chunk->bytes.reserve(std::bit_ceil(cut));
    chunk->bytes.assign(view.data(), cut);
  }
  FinishChunk(chunk, in_->position(), counts);
  if (lend_) {
    lent_ = cut;
  } else {
    in_->Consume(cut);
  }
  return Status::OK();
}

// A record longer than target_bytes: copied into the chunk a piece at a time, each piece
// consumed, so that the stream's buffer stays at about target_bytes and the record is held once.
// `first` bytes of the stream were scanned (state `st`, counts `all`) and hold no record end.
Status Chunker::NextLongRecord(Chunk* chunk, size_t first, ScanState st, ScanTotals all) {
  const uint64_t start = in_->position();
  std::string_view view;
  TFQ_RETURN_IF_ERROR(in_->Peek(first, &view));
  std::string& bytes = chunk->bytes;
  // Room for the whole record at once (address space only, until written): grown by doubling
  // from the chunk size instead, it would be copied about once more, and glibc keeps the freed
  // smaller blocks in its heap (blocks under 32 MiB come from it once larger ones were freed), so
  // the process would keep about half a record's worth of memory after the record is gone.
  bytes.clear();
  bytes.reserve(std::min({options_.max_record_bytes, kLongRecordRoom,
                          options_.target_bytes * kLongRecordChunks}));
  bytes.assign(view.data(), first);
  in_->Consume(first);
  for (;;) {
    const size_t budget = options_.max_record_bytes - bytes.size();
    if (budget == 0) return RecordTooLong(bytes);
    // At least two bytes, so that a piece ending in a CR (held back below) still makes progress.
    const size_t want = std::min(std::max<size_t>(options_.target_bytes, 2), budget);
    TFQ_RETURN_IF_ERROR(in_->Peek(want, &view));
    if (view.size() < want) {  // the stream ends here: the rest is the last chunk
      bytes.append(view);
      in_->Consume(view.size());
      finished_ = true;
      break;
    }
    size_t scan_len = want;
    if (view[scan_len - 1] == '\r') --scan_len;  // the first half of a CRLF?
    if (scan_len == 0) return RecordTooLong(bytes);  // a CR as the last byte the limit allows
    ScanTotals piece;
    ScanRecords(view.data(), scan_len, quoting_, &st, &piece);
    if (piece.last_term != kNoTerminator) {
      const size_t cut = piece.last_term + 1;
      const ScanTotals before = CountsBefore(view.substr(0, scan_len), cut, piece, quoting_);
      all.lines += before.lines;
      all.records += before.records;
      bytes.append(view.data(), cut);
      in_->Consume(cut);
      break;
    }
    all.lines += piece.lines;
    all.records += piece.records;
    bytes.append(view.data(), scan_len);
    in_->Consume(scan_len);
    if (scan_len < want && bytes.size() + 1 >= options_.max_record_bytes) {
      return RecordTooLong(bytes);  // the held-back CR is the limit's last byte
    }
  }
  chunk->lent = false;
  FinishChunk(chunk, start, all);
  return Status::OK();
}

Status Chunker::SkipCut(uint64_t n) {
  if (lent_ != 0) {
    in_->Consume(lent_);
    lent_ = 0;
  }
  ScanState st;
  ScanTotals counts;
  while (n > 0) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(n, options_.target_bytes));
    std::string_view view;
    TFQ_RETURN_IF_ERROR(in_->Peek(want, &view));
    if (view.size() < want) {
      return Status::IoError(in_->name() + ": ends before byte " + std::to_string(in_->position() + n) +
                             " (was it truncated by someone else?)");
    }
    ScanRecords(view.data(), want, quoting_, &st, &counts);
    in_->Consume(want);
    n -= want;
  }
  next_line_ += counts.lines;
  next_record_ += counts.records;
  return Status::OK();
}

void Chunker::FinishChunk(Chunk* chunk, uint64_t first_byte, const ScanTotals& counts) {
  chunk->source.assign(in_->name());
  chunk->index = next_index_++;
  chunk->first_line = next_line_;
  chunk->first_record = next_record_;
  chunk->first_byte = first_byte;
  next_line_ += counts.lines;
  next_record_ += counts.records;
}

}  // namespace tfq::csv
