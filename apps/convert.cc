// `tfq convert`: picks the direction from the inputs and the output name (--from/--to override)
// and runs the matching conversion from the table below (one file per direction).
#include "convert.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdio>

#include "common/json_output.h"
#include "app_common.h"
#include "common/byte_size.h"
#include "commands.h"
#include "io/glob.h"

namespace tfq::app {
namespace {

const Conversion* const kConversions[] = {&kJsonLinesToTfRecord, &kTfRecordToJsonLines, &kCsvToTfRecord, &kTfRecordToCsv, &kImagesToTfRecord};

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The kind of data a path holds, judged by its name (and, for inputs, whether it is a directory).
std::string KindOfPath(const std::string& path, bool is_input) {
  for (std::string_view ext : {".jsonl", ".json", ".jsonl.gz", ".ndjson"}) {
    if (EndsWith(path, ext)) return "jsonl";
  }
  for (std::string_view ext : {".csv", ".tsv", ".csv.gz", ".tsv.gz"}) {
    if (EndsWith(path, ext)) return "csv";
  }
  if (is_input && IsDirectory(path)) return "images";
  return "tfrecord";
}

void PrintSummary(const ConvertFlags& flags, const ConvertSummary& s) {
  if (s.reported) return;
  const double rate = s.seconds > 0 ? static_cast<double>(s.records) / s.seconds : 0;
  if (flags.json) {
    nlohmann::json j = {{s.unit, s.records}, {"failures", s.failures}, {"outputs", s.outputs},
                        {"bytes", s.bytes}, {"seconds", s.seconds}, {s.unit + "_per_second", rate}};
    if (s.rows) {
      j["rows"] = s.rows;
      j["rows_per_second"] = s.seconds > 0 ? static_cast<double>(s.rows) / s.seconds : 0;
    }
    std::printf("%s\n", ToJsonText(j).c_str());
  } else if (!flags.quiet && s.rows) {  // tables: rows read and their rate
    std::fprintf(stderr, "tfq: read %llu rows, wrote %llu %s to %zu file%s (%llu bytes) in %.2f s (%.0f rows/s)\n",
                 static_cast<unsigned long long>(s.rows), static_cast<unsigned long long>(s.records),
                 s.unit.c_str(), s.outputs.size(), s.outputs.size() == 1 ? "" : "s",
                 static_cast<unsigned long long>(s.bytes), s.seconds,
                 s.seconds > 0 ? static_cast<double>(s.rows) / s.seconds : 0);
  } else if (!flags.quiet) {
    std::fprintf(stderr, "tfq: wrote %llu %s to %zu file%s (%llu bytes) in %.2f s (%.0f %s/s)%s\n",
                 static_cast<unsigned long long>(s.records), s.unit.c_str(), s.outputs.size(),
                 s.outputs.size() == 1 ? "" : "s", static_cast<unsigned long long>(s.bytes),
                 s.seconds, rate, s.unit.c_str(),
                 s.failures ? (", " + std::to_string(s.failures) + " inputs failed").c_str() : "");
  }
}

int RunConvert(const ConvertFlags& flags) {
  Result<std::vector<std::string>> inputs = ExpandInputPaths(flags.inputs);
  if (!inputs.ok()) return ReportError(inputs.status());
  const std::string from = flags.from != "auto" ? flags.from : KindOfPath(inputs->front(), true);
  const std::string to = flags.to != "auto" ? flags.to : KindOfPath(flags.output, false);
  const Conversion* conversion = nullptr;
  std::string supported;
  for (const Conversion* c : kConversions) {
    if (from == c->from && to == c->to) conversion = c;
    supported += std::string(supported.empty() ? "" : ", ") + c->from + " -> " + c->to;
  }
  if (!conversion) {
    return ReportError(Status::InvalidArgument("cannot convert " + from + " to " + to +
                                               " (supported: " + supported + "; see --from/--to)"));
  }
  // A killed earlier run of this job left hidden temporaries beside -o: remove them now (any
  // other tfq run's are only reported).
  CleanAndReportLeftovers({flags.output, {}, {}});
  ConvertSummary summary;
  const auto start = std::chrono::steady_clock::now();
  Status s = conversion->run(flags, inputs.value(), &summary);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!s.ok()) return ReportError(s);
  PrintSummary(flags, summary);
  return summary.failures ? kExitInputsFailed : kExitOk;
}

}  // namespace

Result<InputLimits> ParseInputLimits(const ConvertFlags& flags) {
  InputLimits limits;
  Result<uint64_t> record = ParseByteSize(flags.max_record_size);
  if (!record.ok()) return record.status().WithPrefix("--max-record-size");
  limits.max_record_bytes = *record;
  Result<DecompressionLimit> decompression = ParseDecompressionFlag(flags.max_decompressed);
  if (!decompression.ok()) return decompression.status();
  limits.decompression = *decompression;
  Result<uint64_t> row = ParseByteSize(flags.max_row_size);
  if (!row.ok()) return row.status().WithPrefix("--max-row-size");
  if (*row < 1) return Status::InvalidArgument("--max-row-size must be at least 1 byte");
  limits.max_row_bytes = *row;
  if (flags.max_columns < 1) return Status::InvalidArgument("--max-columns must be at least 1");
  limits.max_columns = flags.max_columns;
  return limits;
}

void SetupConvertCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<ConvertFlags>();
  CLI::App* cmd = app.add_subcommand("convert", "Convert data into sharded TFRecord files, and back");
  cmd->add_option("inputs", flags->inputs, "input files, globs or directories")->required();
  cmd->add_option("-o,--output", flags->output,
                  "output file, or the shard prefix with --shards (PREFIX-00000-of-0000N)")
      ->required();
  cmd->add_option("--from", flags->from, "input kind: auto|jsonl|tfrecord|images|csv")
      ->capture_default_str();
  cmd->add_option("--to", flags->to, "output kind: auto|tfrecord|jsonl|csv")->capture_default_str();
  cmd->add_option("--shards", flags->shards, "write N shards named PREFIX-0000k-of-0000N");
  cmd->add_option("--suffix", flags->suffix, "appended to shard names, e.g. .tfrecord");
  cmd->add_option("-c,--compression", flags->compression,
                  "TFRecord compression: auto|none|gzip|zlib (auto: sniff inputs, extension for outputs)")
      ->capture_default_str();
  cmd->add_option("--format", flags->format, "JSON form when writing JSON lines: proto-json|flat; image format for images: jpeg|png|raw")
      ->capture_default_str();
  cmd->add_flag("--sequence", flags->sequence, "records are tf.train.SequenceExample");
  cmd->add_option("--max-record-size", flags->max_record_size,
                  "refuse TFRecord input records longer than this")
      ->capture_default_str();
  AddDecompressionFlag(cmd, &flags->max_decompressed);
  cmd->add_option("--max-row-size", flags->max_row_size,
                  "refuse CSV rows and JSON lines longer than this (bounds memory)")
      ->capture_default_str();
  cmd->add_option("--max-columns", flags->max_columns,
                  "refuse CSV input with more columns than this (bounds memory)")
      ->capture_default_str();
  cmd->add_option("--threads", flags->threads, "worker threads (default: all cores)");
  cmd->add_flag("-q,--quiet", flags->quiet, "no progress and no summary line");
  cmd->add_flag("--json", flags->json, "print the summary as JSON on stdout");
  for (const Conversion* c : kConversions) {
    if (c->add_flags) c->add_flags(cmd);
  }
  cmd->footer(
      "Examples:\n"
      "  tfq convert rows.jsonl -o data/train --shards 4 --suffix .tfrecord\n"
      "  tfq convert data/train-*-of-00004.tfrecord -o rows.jsonl --format flat\n"
      "  tfq convert photos/ -o out/train --size 224x224 --shards 8 --suffix .tfrecord\n"
      "  tfq convert imagenet/train -o out/train --shorter-side 256 --label-offset 1 --shard-size 128MB\n"
      "  tfq convert photos/ -o out/train --shards 64 --task-index 2 --num-tasks 8   # one of 8 machines\n"
      "  tfq convert photos/ -o out/train --shards 64 --num-tasks 8 --merge-manifests\n");
  cmd->callback([flags, exit_code] { *exit_code = RunConvert(*flags); });
}

}  // namespace tfq::app
