#include "app_common.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "common/byte_size.h"
#include "common/cpus.h"
#include "io/file_streams.h"
#include "io/glob.h"
#include "progress.h"

namespace tfq::app {

int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
    case StatusCode::kBrokenPipe: return kExitOk;
    case StatusCode::kInvalidArgument: return kExitUsage;
    case StatusCode::kCorruption:
    case StatusCode::kInvalidData: return kExitBadData;
    default: return kExitFailure;
  }
}

int ReportError(const Status& status) {
  if (!status.ok() && status.code() != StatusCode::kBrokenPipe) {
    ClearProgressLine();
    std::fprintf(stderr, "tfq: error: %s\n", status.message().c_str());
  }
  return ExitCodeFor(status);
}

void PrintWarning(std::string_view message) {
  ClearProgressLine();
  std::fprintf(stderr, "tfq: warning: %.*s\n", static_cast<int>(message.size()), message.data());
}

void CleanAndReportLeftovers(const LeftoverScope& scope) {
  const LeftoverReport report = CleanLeftovers(scope);
  for (const auto& l : report.removed) {
    PrintWarning("removed " + l.path + " (" + FormatByteSize(l.bytes) +
                 "), left by an earlier run that was killed");
  }
  for (const auto& l : report.found) {
    PrintWarning("found " + l.path + " (" + FormatByteSize(l.bytes) +
                 "), a temporary file of a tfq run that was killed; delete it if nothing writes there");
  }
}

void AddRecordInputFlags(CLI::App* cmd, RecordInputFlags* flags) {
  cmd->add_option("inputs", flags->inputs, "TFRecord files, shard globs (train-*-of-*) or - for stdin")
      ->required();
  cmd->add_option("-c,--compression,--input-compression", flags->compression,
                  "input compression: auto|none|gzip|zlib; auto sniffs the first bytes")
      ->capture_default_str();
  cmd->add_flag("--skip-corrupt", flags->skip_corrupt,
                "drop records whose data CRC fails (counted and reported) and read on");
  cmd->add_flag("--resync", flags->resync,
                "after a bad header, scan forward to the next verifying record (implies --skip-corrupt)");
  cmd->add_option("--max-record-size", flags->max_record_size,
                  "refuse records longer than this (a length is never trusted beyond it)")
      ->capture_default_str();
  AddDecompressionFlag(cmd, &flags->max_decompressed);
}

void AddDecompressionFlag(CLI::App* cmd, std::string* value) {
  cmd->add_option("--max-decompressed", *value,
                  "how far a gzip/zlib input may expand: a ratio (100x: beyond the first 16 MiB, at "
                  "most 100 bytes out per compressed byte), a total per input (20GiB) or none")
      ->capture_default_str();
}

Result<DecompressionLimit> ParseDecompressionFlag(const std::string& value) {
  Result<DecompressionLimit> limit = ParseDecompressionLimit(value);
  if (!limit.ok()) return limit.status().WithPrefix("--max-decompressed");
  return limit;
}

Status ResolveRecordInputs(const RecordInputFlags& flags, std::vector<std::string>* paths,
                           inspect::ScanOptions* options) {
  TFQ_ASSIGN_OR_RETURN(options->compression, ParseCompression(flags.compression));
  Result<uint64_t> cap = ParseByteSize(flags.max_record_size);
  if (!cap.ok()) return cap.status().WithPrefix("--max-record-size");
  options->reader.max_record_bytes = cap.value();
  TFQ_ASSIGN_OR_RETURN(options->decompression, ParseDecompressionFlag(flags.max_decompressed));
  options->reader.on_corruption = flags.resync          ? tfrecord::CorruptionPolicy::kResync
                                  : flags.skip_corrupt ? tfrecord::CorruptionPolicy::kSkipDataCrc
                                                       : tfrecord::CorruptionPolicy::kFail;
  TFQ_ASSIGN_OR_RETURN(*paths, ExpandInputPaths(flags.inputs));
  return Status::OK();
}

StdoutBuffer::StdoutBuffer() {
  Result<std::unique_ptr<OutputStream>> out = CreateOutputFile("-");
  if (out.ok()) out_ = std::move(out).value();
  buffer_.reserve(kChunk + (kChunk >> 2));
}

StdoutBuffer::~StdoutBuffer() = default;

Status StdoutBuffer::Write() {
  if (!out_) return Status::IoError("<stdout>: cannot be opened");
  Status s = out_->Write(buffer_);
  buffer_.clear();
  return s;
}

Status StdoutBuffer::Finish() {
  TFQ_RETURN_IF_ERROR(Write());
  return out_->Close();
}

CLI::Validator WholeNumberIn(uint64_t lo, uint64_t hi) {
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        const bool digits_only = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits_only || error != std::errc() || stop != end || value < lo || value > hi) {
          return "Value " + text + " not in range " + range;
        }
        return std::string();
      },
      "UINT in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]");
}

int WorkerThreads(int flag) { return flag > 0 ? std::min(flag, UsableCpus()) : UsableCpus(); }

}  // namespace tfq::app
