// Internal to csv_to_records.cc: the per-worker half of CSV -> TFRecord on the ordered map
// (convert/ordered_map.h). A slot is one chunk of whole CSV records; a worker parses it (unless
// the schema prologue did already), converts and encodes each row into framed TFRecord bytes.
#ifndef TFQ_CONVERT_CSV_CHUNK_CONVERTER_H_
#define TFQ_CONVERT_CSV_CHUNK_CONVERTER_H_

#include <memory>
#include <string>
#include <vector>

#include "common/byte_buffer.h"
#include "common/cache_line.h"
#include "common/status.h"
#include "convert/ordered_map.h"
#include "convert/record_framer.h"
#include "csv/chunker.h"
#include "csv/converter.h"
#include "csv/example_rows.h"
#include "csv/parser.h"
#include "csv/range_cutter.h"
#include "csv/row_batch.h"

namespace tfq::internal {

// One chunk on its way through the map. Buffers are reused when the slot is.
struct CsvSlot : MapSlot {
  csv::Chunk chunk;
  csv::RowBatch batch;
  bool parsed = false;      // `batch` already holds the parsed chunk (schema prologue)
  Status parse_status;      // with `parsed`: the parser's error after the rows in `batch`
  // Set: the worker cuts the chunk itself, range `range` of `cutter` (csv/range_cutter.h), and
  // any failure, of the cut or of a row, only sets `redo_serially`: the chunk carries no line or
  // row numbers for a message, so a serial reader takes over from the chunk's start and reports it.
  const csv::RangeCutter* cutter = nullptr;
  size_t range = 0;
  bool redo_serially = false;
  ByteBuffer framed;        // the chunk's records, framed, back to back
  std::vector<size_t> ends;  // end offset of each record in `framed`
};

// Whether `slot` holds a chunk of one long record (up to --max-row-size): its buffer is larger
// than a chunk of about 1 MiB ever needs (csv::Chunker reserves room for a long record at once).
// Such a slot should be the only long one in memory: the caller drains the map after submitting
// it, before reading on, and frees its buffers once it is written (FreeLongRecord), so that
// memory holds one long record and its encoding at a time (docs/limits.md).
bool HoldsLongRecord(const CsvSlot& slot);
// Drops the buffers of a slot that held a long record: not kept for the next chunk, or each slot
// a long record passed through would keep its size.
void FreeLongRecord(CsvSlot* slot);

class CsvChunkConverter {
 public:
  // Each worker converts as `converter` does (csv::RowExampleWriter); parsers get `names` (the
  // expected field count).
  CsvChunkConverter(int threads, const csv::ParseOptions& parse, const std::vector<std::string>& names,
                    const csv::RowConverter& converter);

  // Cuts (with a cutter), parses (unless parsed), converts and frames the slot's rows with
  // worker `worker`. A record the parser rejects comes after the rows it parsed before it, and
  // those are converted first: an error among them is the first failure in input order, however
  // the chunks were cut.
  Status Convert(CsvSlot& slot, int worker);

 private:
  Status ParseAndConvert(CsvSlot& slot, int worker);

  // Cache-aligned: the workers' parsers are written on every row (common/cache_line.h).
  struct alignas(kCacheLineBytes) Worker {
    csv::ChunkParser parser;
    csv::RowExampleWriter writer;
    RecordFramer framer;
  };
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace tfq::internal

#endif  // TFQ_CONVERT_CSV_CHUNK_CONVERTER_H_
