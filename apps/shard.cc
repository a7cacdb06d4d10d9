// `tfq shard`: re-split or merge TFRecord files into N shards, proving every record lands once.
#include <chrono>

#include "app_common.h"
#include "commands.h"
#include "common/byte_size.h"
#include "progress.h"
#include "reshard/shard.h"
#include "reshard_report.h"

namespace tfq::app {
namespace {

struct ShardCommandOptions {
  RecordInputFlags input;
  std::string output;
  uint64_t shards = 0;
  std::string shard_size;
  uint64_t records_per_shard = 0;
  bool contiguous = false;
  std::string suffix;
  std::string compression = "auto";
  int threads = 0;
  uint64_t index = 0;
  uint64_t num_shards = 0;
  bool single = false;  // --index was given
  bool json = false;
  bool quiet = false;
};

int RunShardCommand(const ShardCommandOptions& opts) {
  reshard::ShardOptions options;
  options.shards = opts.shards;
  options.records_per_shard = opts.records_per_shard;
  options.contiguous = opts.contiguous;
  options.single = opts.single;
  options.index = opts.index;
  options.num_shards = opts.num_shards;
  options.output.prefix = opts.output;
  options.output.suffix = opts.suffix;
  options.output.max_shards = kMaxShards;
  if (!opts.shard_size.empty()) {
    Result<uint64_t> size = ParseByteSize(opts.shard_size);
    if (!size.ok()) return ReportError(size.status().WithPrefix("--shard-size"));
    options.shard_bytes = size.value();
    if (options.shard_bytes == 0) return ReportError(Status::InvalidArgument("--shard-size must be above 0"));
  }
  std::vector<std::string> paths;
  Status s = ResolveReshardIo(opts.input, opts.compression, opts.threads, opts.suffix, &paths,
                              &options.input, &options.output);
  if (s.ok()) s = reshard::ValidateShardOptions(options);
  if (!s.ok()) return ReportError(s);
  if (!options.contiguous && options.shards) RaiseOpenFileLimit(options.shards);
  CleanAndReportLeftovers({opts.output, {}, {}});

  reshard::RunSummary summary;
  const auto start = std::chrono::steady_clock::now();
  {
    ProgressLine progress("tfq shard", ProgressLine::TotalBytes(paths), !opts.quiet);
    s = reshard::RunShard(paths, options, &summary);
  }
  if (!s.ok()) return ReportError(s);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return PrintReshardSummary("shard", summary, seconds, opts.single, opts.json, opts.quiet);
}

}  // namespace

void SetupShardCommand(CLI::App& app, int* exit_code) {
  auto opts = std::make_shared<ShardCommandOptions>();
  CLI::App* cmd = app.add_subcommand("shard", "Re-split or merge TFRecord files into N shards");
  AddReshardIoFlags(cmd, &opts->input, &opts->compression, &opts->threads);
  cmd->add_option("-o,--output", opts->output, "shard prefix: PREFIX-00000-of-0000N")->required();
  cmd->add_option("--shards", opts->shards, "write N shards")->check(WholeNumberIn(1, kMaxShards));
  cmd->add_option("--shard-size", opts->shard_size,
                  "shards of about SIZE framed bytes (256MB, 1GiB); with --contiguous, at most SIZE");
  cmd->add_option("--records-per-shard", opts->records_per_shard, "shards of at most K records")
      ->check(WholeNumberIn(1, UINT64_MAX));
  cmd->add_flag("--contiguous", opts->contiguous,
                "consecutive records stay together (default: round-robin, record j to shard j % N)");
  cmd->add_option("--suffix", opts->suffix, "appended to shard names, e.g. .tfrecord or .tfrecord.gz");
  CLI::Option* index = cmd->add_option("--index", opts->index,
                                       "write only shard i of --num-shards: records j with j % n == i (tf.data)")
                          ->check(WholeNumberIn(0, kMaxShards - 1));
  CLI::Option* num = cmd->add_option("--num-shards", opts->num_shards, "the n of --index")
                         ->check(WholeNumberIn(1, kMaxShards));
  index->needs(num);
  num->needs(index);
  cmd->add_flag("--json", opts->json, "print the summary as JSON on stdout");
  cmd->add_flag("-q,--quiet", opts->quiet, "no progress and no summary line");
  cmd->footer(
      "Every record is hashed on the way in and on the way out; the outputs are kept only if the\n"
      "counts and order-independent checksums match (exit 1 otherwise). Outputs appear together,\n"
      "when all are complete; an interrupted run leaves none.\n"
      "\n"
      "Examples:\n"
      "  tfq shard raw/*.tfrecord -o data/train --shards 64 --suffix .tfrecord\n"
      "  tfq shard big.tfrecord.gz -o data/train --shard-size 256MB --contiguous -c none\n"
      "  tfq shard 'data/train-*-of-*' -o merged --shards 1\n"
      "  tfq shard data/train-* -o worker/part --index 3 --num-shards 8   # what tf.data's shard(8, 3) reads\n");
  cmd->callback([opts, exit_code, index] {
    opts->single = index->count() > 0;
    *exit_code = RunShardCommand(*opts);
  });
}

}  // namespace tfq::app
