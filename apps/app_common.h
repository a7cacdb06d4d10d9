// What every subcommand shares: exit codes, error reporting, record-reading flags, stdout.
//
// Exit codes (documented in README.md): 0 success, 1 any other failure (I/O, limits, bugs),
// 2 usage error, 3 corrupt or invalid data. A closed stdout (`tfq ... | head`) ends quietly with 0.
#ifndef TFQ_APPS_APP_COMMON_H_
#define TFQ_APPS_APP_COMMON_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/status.h"
#include "inspect/scan.h"
#include "io/leftovers.h"
#include "io/output_stream.h"

namespace tfq::app {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitBadData = 3;

// The most shards (and tasks) a command writes: what five-digit shard names
// (PREFIX-00000-of-99999) can number.
constexpr uint64_t kMaxShards = 99999;

int ExitCodeFor(const Status& status);

// Prints "tfq: error: <message>" (nothing for kBrokenPipe) and returns the exit code.
int ReportError(const Status& status);
void PrintWarning(std::string_view message);  // "tfq: warning: ..."

// Removes the temporaries a killed earlier run of this job left (io/leftovers.h) and warns about
// each file removed or found. Called by every command that writes files, before it starts.
void CleanAndReportLeftovers(const LeftoverScope& scope);

// The flags every command that reads TFRecord files accepts.
struct RecordInputFlags {
  std::vector<std::string> inputs;  // paths, "-" and globs, before expansion
  std::string compression = "auto";
  bool skip_corrupt = false;
  bool resync = false;
  std::string max_record_size = "1GiB";
  std::string max_decompressed = "100x";  // docs/limits.md
};
void AddRecordInputFlags(CLI::App* cmd, RecordInputFlags* flags);
// --max-decompressed (docs/limits.md), for every command that reads gzip/zlib input.
void AddDecompressionFlag(CLI::App* cmd, std::string* value);

// Parses it; errors are usage errors naming the flag.
Result<DecompressionLimit> ParseDecompressionFlag(const std::string& value);

// The worker threads a --threads value gives a command that converts or writes: every usable CPU
// for 0, and never more (more would only compete for them).
int WorkerThreads(int flag);

// Expands globs and turns the flags into scan options; errors are usage errors.
Status ResolveRecordInputs(const RecordInputFlags& flags, std::vector<std::string>* paths,
                           inspect::ScanOptions* options);

// Buffered standard output for line-oriented results: append to buffer(), call MaybeFlush()
// after each line and Finish() once at the end. A closed pipe is a kBrokenPipe Status.
class StdoutBuffer {
 public:
  StdoutBuffer();
  ~StdoutBuffer();
  std::string& buffer() { return buffer_; }
  // Hands the buffer to stdout once it holds more than a chunk.
  Status MaybeFlush() { return buffer_.size() >= kChunk ? Write() : Status::OK(); }
  // Writes what is left and closes stdout's stream (flushing it).
  Status Finish();

 private:
  Status Write();
  static constexpr size_t kChunk = 1 << 20;
  std::unique_ptr<OutputStream> out_;
  std::string buffer_;
};

// A CLI11 check (->check(WholeNumberIn(1, kMaxShards))) that an integer option's text is a
// decimal whole number from `lo` to `hi`, with CLI::Range's message ("--shards: Value -1 not in
// range 1 to 99999"). Unlike CLI::Range it judges the text as written: CLI11 reads "-1" into an
// unsigned option as 18446744073709551615 and a number too large for it as that same maximum,
// which a range ending at the maximum (a seed, a record count) would accept.
CLI::Validator WholeNumberIn(uint64_t lo, uint64_t hi);

}  // namespace tfq::app

#endif  // TFQ_APPS_APP_COMMON_H_
