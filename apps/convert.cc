// `tfq convert`: picks the direction from the inputs and the output name (--from/--to override)
// and runs the matching conversion from the table below (one file per direction).
#include "convert.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "app_common.h"
#include "commands.h"
#include "common/byte_size.h"
#include "common/cpus.h"
#include "common/json_output.h"
#include "io/glob.h"
#include "tfrecord/open.h"
#include "progress.h"

namespace tfq::app {
namespace {

const Conversion* const kConversions[] = {&kJsonLinesToTfRecord, &kTfRecordToJsonLines, &kCsvToTfRecord, &kTfRecordToCsv, &kImagesToTfRecord};

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The kind of data a path holds, judged by its name (and, for inputs, whether it is a directory).
std::string KindOfPath(const std::string& path, bool is_input) {
  for (std::string_view ext : {".jsonl", ".json", ".jsonl.gz", ".ndjson"}) {
    if (std::string_view(path).ends_with(ext)) return "jsonl";
  }
  for (std::string_view ext : {".csv", ".tsv", ".csv.gz", ".tsv.gz"}) {
    if (std::string_view(path).ends_with(ext)) return "csv";
  }
  if (is_input && IsDirectory(path)) return "images";
  return "tfrecord";
}

// --task-index/--num-tasks mean the same in every direction: this task writes the shards k with
// k % num_tasks == task_index, and the tasks together write what one run would. Only sharded
// TFRecord output can be split that way; anything else refuses the flags rather than ignore them.
Status CheckTaskPartition(const ConvertFlags& flags, const Conversion& conversion) {
  if (flags.num_tasks < 1) return Status::InvalidArgument("--num-tasks must be at least 1");
  if (flags.task_index >= flags.num_tasks) {
    return Status::InvalidArgument("--task-index " + std::to_string(flags.task_index) +
                                   " must be below --num-tasks " + std::to_string(flags.num_tasks) +
                                   " (tasks are numbered from 0)");
  }
  if (flags.num_tasks == 1) return Status::OK();
  if (std::string_view(conversion.to) != "tfrecord") {
    return Status::InvalidArgument("--task-index/--num-tasks split sharded TFRecord output; " +
                                   flags.output + " is one " + conversion.to + " file");
  }
  if (std::string_view(conversion.from) != "images" && flags.shards == 0) {
    return Status::InvalidArgument("--task-index/--num-tasks need --shards N: each task writes the "
                                   "shards k with k % num-tasks == task-index");
  }
  return Status::OK();
}

// What the outputs take on disk (compressed sizes for .gz), where they are files.
uint64_t OutputBytes(const ConvertSummary& s) {
  uint64_t total = 0;
  for (const std::string& path : s.outputs) {
    struct stat st;
    if (path == "-" || stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return s.bytes;
    total += static_cast<uint64_t>(st.st_size);
  }
  return total;
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
  if (Status s = CheckTaskPartition(flags, *conversion); !s.ok()) return ReportError(s);
  // A killed earlier run of this job left hidden temporaries beside -o: remove them now (any
  // other tfq run's are only reported).
  CleanAndReportLeftovers({flags.output, {}, {}});
  ConvertSummary summary;
  const auto start = std::chrono::steady_clock::now();
  Status s;
  {
    // Images draw their own bar (images/s and failures); every other direction gets this line.
    ProgressLine progress("tfq convert", ProgressLine::TotalBytes(inputs.value()),
                          !flags.quiet && std::string_view(conversion->from) != "images");
    s = conversion->run(flags, inputs.value(), &summary);
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!s.ok()) return ReportError(s);
  summary.bytes = OutputBytes(summary);
  PrintSummary(flags, summary);
  return summary.failures ? kExitInputsFailed : kExitOk;
}

}  // namespace

Result<ShardedOutputOptions> RecordOutputOptions(const ConvertFlags& flags) {
  TFQ_ASSIGN_OR_RETURN(Compression compression, ParseCompression(flags.compression));
  ShardedOutputOptions options;
  options.path = flags.output;
  options.num_shards = flags.shards;
  options.suffix = flags.suffix;
  options.compression = compression;
  options.task_index = flags.task_index;
  options.num_tasks = flags.num_tasks;
  options.threads = ConversionThreads(flags);
  return options;
}

ShardedOutputOptions TextOutputOptions(const ConvertFlags& flags) {
  ShardedOutputOptions options;
  options.path = flags.output;
  if (CompressionFromExtension(flags.output) == Compression::kGzip) options.compression = Compression::kGzip;
  options.threads = ConversionThreads(flags);
  return options;
}

Result<RecordOpener> RecordInputOpener(const ConvertFlags& flags) {
  TFQ_ASSIGN_OR_RETURN(Compression compression, ParseCompression(flags.compression));
  TFQ_ASSIGN_OR_RETURN(InputLimits limits, ParseInputLimits(flags));
  tfrecord::RecordReaderOptions reader_options;
  reader_options.max_record_bytes = limits.max_record_bytes;
  return RecordOpener([c = compression, reader_options, decompression = limits.decompression](
                          const std::string& path) -> Result<std::unique_ptr<tfrecord::RecordReader>> {
    TFQ_ASSIGN_OR_RETURN(auto in, tfrecord::OpenRecordInput(path, c, decompression));
    return std::make_unique<tfrecord::RecordReader>(std::move(in.stream), reader_options);
  });
}

int ConversionThreads(const ConvertFlags& flags) {
  return WorkerThreads(flags.threads);
}

void SummarizeOutput(const ShardedOutput& output, ConvertSummary* summary) {
  summary->outputs = output.paths();
  summary->records = output.records();
  summary->bytes = output.bytes();
}

Result<InputLimits> ParseInputLimits(const ConvertFlags& flags) {
  InputLimits limits;
  Result<uint64_t> record = ParseByteSize(flags.max_record_size);
  if (!record.ok()) return record.status().WithPrefix("--max-record-size");
  limits.max_record_bytes = *record;
  TFQ_ASSIGN_OR_RETURN(limits.decompression, ParseDecompressionFlag(flags.max_decompressed));
  if (!flags.max_row_size.empty()) {
    Result<uint64_t> row = ParseByteSize(flags.max_row_size);
    if (!row.ok()) return row.status().WithPrefix("--max-row-size");
    if (*row < 1) return Status::InvalidArgument("--max-row-size must be at least 1 byte");
    limits.max_row_bytes = *row;
  }
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
  cmd->add_option("--shards", flags->shards, "write N shards named PREFIX-0000k-of-0000N")
      ->check(WholeNumberIn(1, kMaxShards));
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
                  "refuse CSV rows and JSON lines longer than this (bounds memory; default 64MiB for CSV, "
                  "16MiB for JSON lines, whose parsing takes up to 42 times the line)");
  cmd->add_option("--max-columns", flags->max_columns,
                  "refuse CSV input, and CSV output from records, with more columns than this (bounds memory and size)")
      ->capture_default_str();
  cmd->add_option("--threads", flags->threads, "worker threads (default: all cores; more are capped)")
      ->check(CLI::Range(0, 1 << 20));
  cmd->add_option("--task-index", flags->task_index,
                  "with --num-tasks: write only the shards k with k % num-tasks == task-index")
      ->capture_default_str()
      ->check(WholeNumberIn(0, kMaxShards - 1));
  cmd->add_option("--num-tasks", flags->num_tasks,
                  "split the shards among this many tasks (machines or processes) run with the same flags")
      ->capture_default_str()
      ->check(WholeNumberIn(1, kMaxShards));
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
      "  tfq convert rows.csv -o out/train --shards 16 --task-index 0 --num-tasks 4\n"
      "  tfq convert photos/ -o out/train --shards 64 --num-tasks 8 --merge-manifests\n");
  cmd->callback([flags, exit_code] { *exit_code = RunConvert(*flags); });
}

}  // namespace tfq::app
