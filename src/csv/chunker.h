// Chunker: cuts a CSV byte stream into chunks of whole records, so that chunks can be parsed
// independently (in parallel) and their rows reassembled in input order.
//
// A chunk ends right after a record terminator that lies outside quotes, never inside a quoted
// field and never between the CR and LF of a CRLF; only the last chunk of a stream may end without
// a terminator (or inside an unclosed quote, which the parser then reports). Where a quote opens
// is decided by parity, as the parser does: the two agree on every valid input, and on input with
// a stray quote the parser reports that quote before anything the cut could change.
//
// The chunker counts, serially and cheaply (bit masks, no per-byte branches), the physical lines
// and the records before each chunk, so that every chunk knows the line and row numbers its errors
// must name. Memory is constant: the stream's buffer and one chunk buffer, of about `target_bytes`
// each. A single record longer than that is copied into the chunk a piece at a time as it is
// scanned, so it is held once (in the chunk, up to `max_record_bytes`), not also in the stream.
//
// Thread safety: none; one thread calls Next. Chunks it fills may be handed to other threads.
#ifndef TFQ_CSV_CHUNKER_H_
#define TFQ_CSV_CHUNKER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "csv/options.h"
#include "io/input_stream.h"

namespace tfq::csv {
namespace internal {
struct ScanState;
struct ScanTotals;
}  // namespace internal

struct ChunkerOptions {
  // Bytes read per chunk; the chunk ends at the last record end within them.
  size_t target_bytes = size_t{1} << 20;
  // A record (or an unclosed quote) longer than this is a kResourceExhausted error.
  size_t max_record_bytes = size_t{64} << 20;
};

// Where a chunk sits in its stream: what the parser needs to name lines and rows in errors.
struct ChunkPosition {
  std::string_view source;    // stream name for messages (path or "<stdin>")
  uint64_t first_line = 1;    // physical line (1-based) of the chunk's first byte
  uint64_t first_record = 0;  // non-blank records before the chunk, the header included
  uint64_t first_byte = 0;    // stream offset of the chunk's first byte (decompressed)
};

struct Chunk {
  std::string bytes;  // whole records (unless lent); reused between calls, so recycle Chunks
  std::string source;
  uint64_t index = 0;  // 0, 1, 2, ... in stream order (a RangeCutter chunk: its range number)
  uint64_t first_line = 1;
  uint64_t first_record = 0;
  uint64_t first_byte = 0;

  // The records: `bytes`, or the stream's own buffer when the chunker lent it (Chunker::Lend).
  std::string_view data() const { return lent ? lent_bytes : std::string_view(bytes); }
  bool lent = false;
  std::string_view lent_bytes;

  // Views `source`: valid while this Chunk is alive and unchanged.
  ChunkPosition position() const { return {source, first_line, first_record, first_byte}; }
};

class Chunker {
 public:
  // `in` must outlive the chunker. A UTF-8 byte order mark at the start of the stream is skipped.
  Chunker(InputStream* in, const ParseOptions& options, const ChunkerOptions& chunk_options = {});

  // Fills *chunk with the next run of whole records and sets *done = false, or sets *done = true
  // at the end of the stream (chunk untouched). Errors: the stream's own, or kResourceExhausted
  // for a record longer than max_record_bytes (naming its line and, when a quote was left open,
  // where it opened). An error concerns bytes after every chunk already returned.
  Status Next(Chunk* chunk, bool* done);

  // With lend, Next leaves Chunk::bytes alone and points Chunk::data() into the stream's buffer
  // instead of copying the records (a copy of every input byte, measurable on one thread); the
  // view is valid until the next call of Next (which only then consumes the bytes from the
  // stream) or the chunker's end. For a caller that is done with each chunk before asking for
  // the next. A chunk of one record longer than target_bytes is a copy even so (Chunk::lent
  // false): it was gathered a piece at a time.
  void Lend(bool lend) { lend_ = lend; }

  // Consumes the next `n` bytes, which end at a cut that another reader made (csv::RangeCutter),
  // counting their lines and records as if they had been handed out in chunks, so that the
  // chunks after them carry the numbers a serial run gives them. Errors: the stream's, or
  // kIoError if it ends first.
  Status SkipCut(uint64_t n);

  // The position the next chunk will have.
  ChunkPosition next_position() const {
    return {in_->name(), next_line_, next_record_, in_->position() + lent_};
  }

 private:
  Status RecordTooLong(std::string_view scanned) const;
  Status NextLongRecord(Chunk* chunk, size_t first, internal::ScanState st, internal::ScanTotals all);
  // Sets the chunk's index and position, and advances the counts to the chunk's end.
  void FinishChunk(Chunk* chunk, uint64_t first_byte, const internal::ScanTotals& counts);

  InputStream* in_;
  char delimiter_;
  bool quoting_;
  ChunkerOptions options_;
  bool started_ = false;
  bool finished_ = false;
  uint64_t next_index_ = 0;
  uint64_t next_line_ = 1;
  uint64_t next_record_ = 0;
  bool lend_ = false;
  size_t lent_ = 0;  // bytes handed out by the last Next that are still to be consumed
};

// Counts physical line ends (LF, CRLF, lone CR; inside quotes too) in `bytes`: the line number of
// the byte after `bytes` is first_line + CountLineEnds(bytes).
uint64_t CountLineEnds(std::string_view bytes);

}  // namespace tfq::csv

#endif  // TFQ_CSV_CHUNKER_H_
