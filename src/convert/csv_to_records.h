// CSV tables -> serialized tf.Example records framed as TFRecords, in parallel and in input order
// (the library behind `tfq convert x.csv -o y.tfrecord`; docs/convert-tables.md).
//
// The pipeline: the calling thread cuts each input into chunks of whole records (csv::Chunker);
// `threads` worker threads parse, convert and encode chunks (one ChunkParser, RowConverter and
// RowExampleEncoder each) into framed TFRecord bytes; the calling thread hands finished chunks to
// the sink strictly in chunk order. At most 2 * threads + 2 chunks are in flight, so memory is
// constant whatever the input size (plus the chunks that hold the first --infer-rows rows while
// the schema is inferred). With threads == 1 everything runs on the calling thread.
//
// The schema: the file's columns (header or given names), the declared specs kept as given, the
// others inferred from the first `infer_rows` rows (csv/infer.h; kInferAll reads every input once
// more before converting; without it, at most the rows of the first 64 MiB and the chunk that
// crosses that, held until the schema is known), then the label column made required, then
// --select/--exclude. A chunk of one row longer than `chunk_bytes` is converted and written
// before the next chunk is read, so memory holds one such row (and its record) at a time.
//
// Determinism: the bytes handed to the sink do not depend on `threads` or on timing, and the
// error reported is always the first in input order (a worker's error in chunk k wins over any
// error in a later chunk, whichever thread noticed first).
#ifndef TFQ_CONVERT_CSV_TO_RECORDS_H_
#define TFQ_CONVERT_CSV_TO_RECORDS_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "convert/inputs_outputs.h"
#include "csv/options.h"
#include "csv/schema.h"
#include "io/decompression_limit.h"
#include "io/input_stream.h"

namespace tfq {

struct CsvToRecordsOptions {
  static constexpr uint64_t kInferAll = std::numeric_limits<uint64_t>::max();

  csv::ParseOptions parse;
  std::vector<std::string> column_names;  // replace the header's names (required without header)
  csv::Schema declared;                   // columns whose spec is given (not inferred)
  std::vector<std::string> select;        // empty: every column
  std::vector<std::string> exclude;
  std::vector<std::string> na_values;
  std::string label_column;               // made required; kept by --select; not excludable
  uint64_t infer_rows = 1000;             // kInferAll: a first pass over every input
  int threads = 1;                        // >= 1
  size_t chunk_bytes = size_t{1} << 20;
  // A row (or an unclosed quote) longer than this is an error: it bounds memory (--max-row-size).
  size_t max_row_bytes = size_t{64} << 20;
  // More columns than this is an error (--max-columns): each one costs memory in every thread.
  size_t max_columns = 100000;
};

// Opens an input by name (called twice per input with kInferAll). Errors name the input.
using CsvOpener = StreamOpener;

// Opens a file ("-" = stdin); a name ending in ".gz" is decompressed (gzip) within `limit`.
Result<std::unique_ptr<InputStream>> OpenCsvFile(
    const std::string& path, const DecompressionLimit& limit = DecompressionLimit::Default());

// For CsvCallbacks::open_ranges: a regular file or an object (not "-", not ".gz"), else a null file.
Result<std::unique_ptr<RandomAccessFile>> OpenCsvFileRanges(const std::string& path);

struct CsvProgress {
  uint64_t rows = 0;          // data rows read (skipped ragged rows included)
  uint64_t records = 0;       // records handed to the sink
  uint64_t skipped_rows = 0;  // ragged rows dropped (--ragged skip)
  uint64_t padded_rows = 0;   // ragged rows padded (--ragged pad)
};

struct CsvCallbacks {
  // Called once, on the calling thread, with the schema used, before the first record. An error
  // stops the conversion.
  std::function<Status(const csv::Schema& schema)> on_schema;
  FramedRecordSink sink;
  // Unset, or a null file: every input is read as a stream, and one thread finds where its
  // chunks end. With more than one thread, an input opened this way is cut into chunks by the
  // workers themselves (csv/range_cutter.h), each reading its own part of the file: the
  // conversion then scales past what one reading thread can cut. Same records, same errors.
  RangeOpener open_ranges;
};

// Converts the inputs, in order, into one stream of records. Every input must have the same
// columns (after --columns). Errors are those of the CSV library (kInvalidData naming file, line,
// row and column), of the schema (kInvalidArgument) and of the sink. *result (may be null) holds
// the final counts, also after an error.
Status CsvToRecords(const std::vector<std::string>& inputs, const CsvOpener& open,
                    const CsvToRecordsOptions& options, const CsvCallbacks& callbacks,
                    CsvProgress* result);

}  // namespace tfq

#endif  // TFQ_CONVERT_CSV_TO_RECORDS_H_
