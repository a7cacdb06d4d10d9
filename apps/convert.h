// `tfq convert`: the flags every conversion shares, and the table of conversions.
//
// convert.cc parses the shared flags, works out the direction from the inputs and the output name
// (or --from/--to) and runs the matching Conversion. Each direction lives in its own file
// (convert_jsonl.cc, convert_images.cc, ...) and may add flags of its own in a group of the
// subcommand's help.
#ifndef TFQ_APPS_CONVERT_H_
#define TFQ_APPS_CONVERT_H_

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/status.h"
#include "convert/records_to_text.h"
#include "convert/sharded_output.h"
#include "io/decompression_limit.h"

namespace tfq::app {

struct ConvertFlags {
  std::vector<std::string> inputs;
  std::string output;
  std::string from = "auto";
  std::string to = "auto";
  uint64_t shards = 0;  // 0: -o names the single output file
  std::string suffix;
  std::string compression = "auto";
  std::string format = "proto-json";
  bool sequence = false;
  bool quiet = false;
  bool json = false;
  int threads = 0;  // 0: all cores
  // Scale-out: this task writes only the shards k with k % num_tasks == task_index (validated
  // by convert.cc for every direction: only sharded TFRecord output can be partitioned).
  uint64_t task_index = 0;
  uint64_t num_tasks = 1;
  // Input limits (docs/limits.md): TFRecord records, gzip/zlib expansion, CSV rows and JSON lines.
  std::string max_record_size = "1GiB";
  std::string max_decompressed = "100x";
  std::string max_row_size;  // empty: each format's default (64 MiB CSV, 16 MiB JSON lines)
  uint64_t max_columns = 100000;  // CSV input, and CSV output from records
};

// The input limits, parsed; errors are usage errors naming the flag.
struct InputLimits {
  uint64_t max_record_bytes = 0;
  DecompressionLimit decompression;
  uint64_t max_row_bytes = 0;  // 0: --max-row-size not given, use the format's default
  uint64_t max_columns = 0;
};
Result<InputLimits> ParseInputLimits(const ConvertFlags& flags);

// What a conversion reports; convert.cc prints it (a line on stderr, or JSON with --json).
struct ConvertSummary {
  uint64_t records = 0;          // records (or rows/lines) written
  uint64_t rows = 0;             // table rows read (CSV input); 0: not reported
  uint64_t failures = 0;         // inputs skipped with a reason (images), reported separately
  std::vector<std::string> outputs;
  uint64_t bytes = 0;
  double seconds = 0;
  std::string unit = "records";  // what `records` counts, for the summary line
  // The conversion printed its own summary instead (a step that writes no records, such as
  // images --merge-manifests, for which "N records/s" would mean nothing).
  bool reported = false;
};

// Where records go for TFRecord output: -o itself, or --shards files named after it (only this
// task's); --compression, where auto, from each file's name.
Result<ShardedOutputOptions> RecordOutputOptions(const ConvertFlags& flags);
// Where text goes for CSV and JSON lines output: one file, -o, gzip-compressed when its name
// ends in .gz (the compressed text inputs the converters read).
ShardedOutputOptions TextOutputOptions(const ConvertFlags& flags);
// Opens TFRecord inputs as --compression (auto: sniffed), --max-record-size and
// --max-decompressed say.
Result<RecordOpener> RecordInputOpener(const ConvertFlags& flags);
// --threads: all usable CPUs when 0, and never more (more would only compete for them).
int ConversionThreads(const ConvertFlags& flags);
// Fills the summary's outputs, records and bytes from a committed output.
void SummarizeOutput(const ShardedOutput& output, ConvertSummary* summary);

// One direction. `inputs` are expanded (globs resolved, directories kept as they are).
struct Conversion {
  const char* from;  // "jsonl", "tfrecord", "images", "csv"
  const char* to;    // "tfrecord", "jsonl", "csv"
  Status (*run)(const ConvertFlags& flags, const std::vector<std::string>& inputs,
                ConvertSummary* summary);
  // Adds the flags only this direction uses (in an option group of its own), or nullptr. The
  // values live in the conversion's file; `tfq` parses one command line per process.
  void (*add_flags)(CLI::App* cmd) = nullptr;
};

// The conversions of each file, and the flag groups they add to the subcommand.
extern const Conversion kJsonLinesToTfRecord;
extern const Conversion kTfRecordToJsonLines;
extern const Conversion kCsvToTfRecord, kTfRecordToCsv;  // convert_csv.cc, convert_csv_export.cc
extern const Conversion kImagesToTfRecord;  // convert_images.cc

// Exit code of a conversion that finished but skipped inputs it could not read (images).
constexpr int kExitInputsFailed = 5;

}  // namespace tfq::app

#endif  // TFQ_APPS_CONVERT_H_
