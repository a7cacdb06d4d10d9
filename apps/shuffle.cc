// `tfq shuffle`: a uniform, seeded global shuffle of TFRecord files within a memory budget.
#include <chrono>

#include "app_common.h"
#include "commands.h"
#include "common/byte_size.h"
#include "progress.h"
#include "reshard/shuffle.h"
#include "reshard_report.h"

namespace tfq::app {
namespace {

struct ShuffleCommandOptions {
  RecordInputFlags input;
  std::string output;
  uint64_t seed = 0;
  uint64_t shards = 1;
  std::string memory = "512MB";
  std::string tmp_dir;
  uint64_t window = 0;
  std::string method = "auto";
  std::string suffix;
  std::string compression = "auto";
  int threads = 0;
  bool json = false;
  bool quiet = false;
};

int RunShuffleCommand(const ShuffleCommandOptions& opts) {
  reshard::ShuffleOptions options;
  options.seed = opts.seed;
  options.shards = opts.shards;
  options.tmp_dir = opts.tmp_dir;
  options.window = opts.window;
  if (opts.method == "buckets") {
    options.method = reshard::ShuffleMethod::kBuckets;
  } else if (opts.method == "reread") {
    options.method = reshard::ShuffleMethod::kIndexed;
  } else if (opts.method == "rescan") {
    options.method = reshard::ShuffleMethod::kScan;
  } else if (opts.method != "auto") {
    return ReportError(Status::InvalidArgument("--method must be auto, buckets, reread or rescan"));
  }
  options.output.prefix = opts.output;
  options.output.suffix = opts.suffix;
  options.output.max_shards = kMaxShards;
  Result<uint64_t> memory = ParseByteSize(opts.memory);
  if (!memory.ok()) return ReportError(memory.status().WithPrefix("--memory"));
  options.memory = memory.value();
  std::vector<std::string> paths;
  Status s = ResolveReshardIo(opts.input, opts.compression, opts.threads, opts.suffix, &paths,
                              &options.input, &options.output);
  if (s.ok()) s = reshard::ValidateShuffleOptions(options);
  if (!s.ok()) return ReportError(s);
  RaiseOpenFileLimit(paths.size() + (options.window ? options.shards : 1));  // re-reading keeps inputs open
  // The bucket file has no name but for an instant (reshard/spill.h); one caught by SIGKILL then
  // is ours wherever it is.
  CleanAndReportLeftovers({opts.output, {reshard::ShuffleTmpDir(options)}, {"shuffle-spill."}});

  reshard::RunSummary summary;
  const auto start = std::chrono::steady_clock::now();
  {
    // Inputs larger than --memory are read about twice (a pass to spill or index, a pass back).
    const uint64_t total = ProgressLine::TotalBytes(paths);
    ProgressLine progress("tfq shuffle", total, !opts.quiet, total > options.memory ? 2 : 1);
    s = reshard::RunShuffle(paths, options, &summary);
  }
  if (!s.ok()) return ReportError(s);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return PrintReshardSummary("shuffle", summary, seconds, /*selected=*/false, opts.json, opts.quiet);
}

}  // namespace

void SetupShuffleCommand(CLI::App& app, int* exit_code) {
  auto opts = std::make_shared<ShuffleCommandOptions>();
  CLI::App* cmd = app.add_subcommand("shuffle", "Shuffle all records of TFRecord files uniformly, within a memory bound");
  AddReshardIoFlags(cmd, &opts->input, &opts->compression, &opts->threads);
  cmd->add_option("-o,--output", opts->output, "shard prefix: PREFIX-00000-of-0000N")->required();
  cmd->add_option("--seed", opts->seed, "the permutation's seed: same inputs and seed, same bytes out")
      ->required()
      ->check(WholeNumberIn(0, UINT64_MAX));
  cmd->add_option("--shards", opts->shards, "cut the shuffled records into N shards")
      ->capture_default_str()
      ->check(WholeNumberIn(1, kMaxShards));
  cmd->add_option("--memory", opts->memory,
                  "memory for the whole run (peak RSS stays within it plus a few MiB); larger inputs "
                  "go through temporary buckets")
      ->capture_default_str();
  cmd->add_option("--tmp-dir", opts->tmp_dir,
                  "where the temporary bucket file goes (default: beside the output); it needs about "
                  "the input's size");
  cmd->add_option("--window", opts->window,
                  "instead: tf.data's streaming shuffle(buffer_size=N), N records in memory (not "
                  "bounded by --memory), shards dealt round-robin")
      ->check(WholeNumberIn(1, UINT64_MAX));
  cmd->add_option("--suffix", opts->suffix, "appended to shard names, e.g. .tfrecord or .tfrecord.gz");
  // For benchmarks and tests only (the output is the same): force how the key order is found.
  cmd->add_option("--method", opts->method, "auto|buckets|reread|rescan")->group("");
  cmd->add_flag("--json", opts->json, "print the summary as JSON on stdout");
  cmd->add_flag("-q,--quiet", opts->quiet, "no progress and no summary line");
  cmd->footer(
      "Every permutation of all input records is equally likely; the result depends only on the\n"
      "inputs, --seed and --shards (not on --memory or --tmp-dir). Inputs larger than --memory are\n"
      "scattered into buckets in one nameless temporary file, which vanishes with tfq however it\n"
      "ends. The outputs are kept only if record counts and checksums match (exit 1 otherwise).\n"
      "\n"
      "Examples:\n"
      "  tfq shuffle raw/*.tfrecord -o data/train --seed 42 --shards 16 --suffix .tfrecord\n"
      "  tfq shuffle big-*.tfrecord.gz -o shuffled --seed 7 --memory 2GB --tmp-dir /scratch\n"
      "  tfq shuffle data.tfrecord -o local --seed 1 --window 10000    # cheap, local shuffle\n");
  cmd->callback([opts, exit_code] { *exit_code = RunShuffleCommand(*opts); });
}

}  // namespace tfq::app
