// RangeCutter: cuts a CSV file that can be read at offsets into chunks of whole records on the
// threads that parse them, so that no one thread reads and cuts every byte (csv::Chunker's
// serial pass, the limit of a parallel conversion of text-heavy files).
//
// The bytes from `start` are split into fixed ranges of ChunkerOptions::target_bytes. Chunk k
// holds the records that start in range k: from the first cut at or after the range's first
// byte to the first cut at or after the next range's first byte (read past the range's end as
// far as needed). A cut is
// where Chunker may end a chunk: right after a CR or LF outside quotes, never between the CR and
// LF of a CRLF. Whether a byte lies inside quotes follows from the parity of the quotes before it
// (as Chunker and the parser decide): each range counts its own quotes, and the state at the
// start of range k is the running parity of ranges 0..k-1, handed from one Cut to the next. So
// Cut(k) waits until every Cut(j), j < k, has counted its quotes; it never waits for parsing.
// The chunks are those a serial Chunker could have cut: every cut lies at a record end.
//
// What a cut chunk does not know is its line and record numbers: counting them would put a
// serial pass back. Chunks carry the numbers of `start` instead, and are not meant for error
// messages: a caller that meets an error in a chunk re-reads from the chunk's first byte with a
// Chunker (Chunker::SkipCut counts what lies before), which gives the message a serial run would.
// The same goes for a record longer than the cutter reads ahead (the larger of the range size
// and 64 KiB) or than ChunkerOptions::max_record_bytes: Cut fails, and the serial reader, which
// bounds long records and says so, takes over there.
//
// Thread safety: Cut may be called from several threads at once, for different k, each Cut(k)
// begun only after Cut(k - 1) began (a FIFO work queue does that): it waits for the ranges before.
#ifndef TFQ_CSV_RANGE_CUTTER_H_
#define TFQ_CSV_RANGE_CUTTER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/status.h"
#include "csv/chunker.h"
#include "csv/options.h"

namespace tfq::csv {

// Reads up to `n` bytes at `offset` into `dst`, setting *got (fewer only at the end of the
// file). Called from several threads at once.
using ReadAt = std::function<Status(uint64_t offset, size_t n, char* dst, size_t* got)>;

class RangeCutter {
 public:
  // Cuts bytes [start, size) of the file `read` reads. `start` must follow a cut (the end of a
  // chunk that Chunker handed out); `at_start` is Chunker's position there (the numbers every
  // cut chunk carries).
  RangeCutter(ReadAt read, uint64_t size, uint64_t start, const ChunkPosition& at_start,
              const ParseOptions& options, const ChunkerOptions& chunk_options);
  RangeCutter(const RangeCutter&) = delete;
  RangeCutter& operator=(const RangeCutter&) = delete;

  size_t num_ranges() const { return num_ranges_; }

  // Fills *chunk with chunk k (k < num_ranges()): Chunk::data() views chunk->bytes, which holds
  // what was read around it; first_byte is the chunk's offset (an empty chunk, of a range
  // inside one record, sits where the next chunk starts). Errors: a read error or a file shorter
  // than its size, a record longer than the read-ahead or the limit, or the failure of an earlier range (its
  // quotes were never counted); in each case this and every later chunk are for a serial reader.
  Status Cut(size_t k, Chunk* chunk) const;

 private:
  // The quote state at the start of range k (kOutside / kInside), or kFailed; waits for it.
  uint32_t StateAt(size_t k) const;
  void Publish(size_t k, uint32_t state) const;
  // Reads bytes [offset, offset + n) (fewer at the end of the file) into *bytes at *used,
  // advancing *used.
  Status Append(uint64_t offset, size_t n, std::string* bytes, size_t* used) const;

  const ReadAt read_;
  const uint64_t size_;
  const uint64_t start_;
  const std::string source_;
  const uint64_t first_line_;
  const uint64_t first_record_;
  const bool quoting_;
  const size_t range_bytes_;
  const size_t max_overhang_;
  const size_t max_record_bytes_;  // as Chunker bounds them (never below a range)
  const size_t num_ranges_;
  // state_[k]: the quote state at the start of range k, 0 until known.
  std::unique_ptr<std::atomic<uint32_t>[]> state_;
};

}  // namespace tfq::csv

#endif  // TFQ_CSV_RANGE_CUTTER_H_
