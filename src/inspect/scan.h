// Walking the records of TFRecord files: the loop every `tfq inspect` mode shares.
//
// ScanFile opens one file (compression chosen or sniffed), reads every record with the given
// corruption policy, hands each payload to a callback, and returns a FileReport that accounts for
// everything: records read, records dropped, problems met. Framing problems end the file (unless
// the policy skips them); problems the callback reports for one record (a payload that does not
// parse) are counted and the scan goes on, because the framing is still intact.
#ifndef TFQ_INSPECT_SCAN_H_
#define TFQ_INSPECT_SCAN_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "io/compression.h"
#include "tfrecord/record_reader.h"

namespace tfq::inspect {

struct ScanOptions {
  Compression compression = Compression::kAuto;
  tfrecord::RecordReaderOptions reader;
  DecompressionLimit decompression = DecompressionLimit::Default();  // --max-decompressed
  bool headers_only = false;  // `--count`: step over payloads without reading them (no callback)
};

struct FileReport {
  std::string path;
  Compression compression = Compression::kNone;
  uint64_t file_bytes = 0;     // bytes read from the file (compressed size)
  uint64_t stream_bytes = 0;   // bytes of record framing (uncompressed size)
  uint64_t records = 0;        // records handed to the callback (or counted)
  uint64_t payload_bytes = 0;
  uint64_t min_record_bytes = 0;
  uint64_t max_record_bytes = 0;
  uint64_t record_problems = 0;  // records the callback rejected (e.g. did not parse)
  tfrecord::SkipReport skipped;  // records/bytes the reader dropped
  Status status;                 // the error that ended the file early, or OK
  bool opened = false;           // false: the file could not be opened; nothing was read
  // A damaged header ended the file (no --resync): the bytes after it were not read.
  bool rest_unread = false;

  // The file's problems in all: a framing error, dropped records and rejected records.
  bool clean() const { return status.ok() && skipped.empty() && record_problems == 0; }
  // Damaged records: payloads rejected, records dropped for their data CRC, bad headers passed
  // over by --resync, and the damaged record that ended the file early (if one did).
  uint64_t damaged_records() const;
  // The file could not be read to its end for a reason other than its data (missing, I/O error,
  // a limit): what it holds is unknown, so no count of it is printed.
  bool unreadable() const;
  // Its counts, or only {"path", "error"} for a file that could not be opened.
  nlohmann::json ToJson() const;
};

// Whether a Status is about damaged or invalid data (kCorruption, kInvalidData: exit 3), as
// opposed to a file that could not be read (missing, I/O error, a limit).
bool IsDataProblem(const Status& s);

// Called for each record. Returning a kCorruption/kInvalidData Status marks the record as a
// problem (counted, passed to on_problem, scan continues); any other error stops the scan and
// becomes FileReport::status (e.g. kBrokenPipe when stdout closed).
using RecordCallback = std::function<Status(std::string_view record, const tfrecord::RecordReader&)>;
// Called once per problem, in the order met, with a message naming file, record and offset (or,
// for a file that cannot be opened, the file and the reason): every record the reader drops or
// the callback rejects, then the error that ended the file, if any.
using ProblemCallback = std::function<void(const Status& problem)>;

FileReport ScanFile(const std::string& path, const ScanOptions& options,
                    const RecordCallback& on_record, const ProblemCallback& on_problem);

// ScanFile's loop over part of a stream: the records from the reader's position (a record header)
// up to the first record boundary at or past `stop` (a byte offset in the file), then the end of
// the stream or the error that ended it. Stopped at `stop`, the report's stream_bytes and
// file_bytes are that boundary; otherwise where reading ended, as ScanFile says. The report's
// path is the reader's name; its compression is left to the caller.
FileReport ScanRange(tfrecord::RecordReader& reader, const ScanOptions& options, uint64_t stop,
                     const RecordCallback& on_record, const ProblemCallback& on_problem);

// Sums of several files' reports: {"files": N, "records": ..., "damaged_records": ..., ...}.
nlohmann::json TotalsJson(const std::vector<FileReport>& reports);

}  // namespace tfq::inspect

#endif  // TFQ_INSPECT_SCAN_H_
