// `tfq bench` (alias `bench-throughput`): throughput of tfq's hot paths on this machine, as a table
// or JSON, optionally gated against a saved baseline (docs/bench.md). The work is in src/bench/.
//
// Exit codes: those of every command (app_common.h), plus 4 when --baseline finds a regression
// beyond --max-regression.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <optional>

#include "app_common.h"
#include "bench/bench.h"
#include "bench/compare.h"
#include "bench/machine.h"
#include "bench/workload.h"
#include "commands.h"
#include "common/byte_size.h"
#include "common/json_output.h"
#include "io/file_streams.h"
#include "io/glob.h"

namespace tfq::app {
namespace {

constexpr int kExitRegression = 4;

struct BenchFlags {
  std::vector<std::string> inputs;
  std::string compression = "auto";
  std::vector<std::string> workloads;
  std::vector<size_t> threads;
  double seconds = 2.0;
  uint64_t repetitions = 0;
  bool quick = false;
  std::string data_size = "32MiB";
  uint64_t seed = 1;
  bool json = false;
  std::string save;
  std::string baseline;
  std::string max_regression = "10%";
  bool list = false;
  // Whether the user gave these, so that --quick shortens only what was not asked for.
  bool seconds_given = false;
  bool data_size_given = false;
};

void PrintBanner(const std::vector<std::string>& warnings) {
  if (warnings.empty()) return;
  PrintWarning("**********************************************************************");
  for (const std::string& w : warnings) PrintWarning(w);
  PrintWarning("do not compare these numbers or save them as a baseline; build with");
  PrintWarning("-DCMAKE_BUILD_TYPE=Release and no TFQ_SANITIZE for benchmarking");
  PrintWarning("**********************************************************************");
}

// "[3/14] parse-example, 2 threads: measuring", rewritten in place on a terminal.
bench::ProgressCallback BenchProgressLine() {
  if (!isatty(STDERR_FILENO)) return nullptr;
  return [](const bench::Progress& p) {
    if (p.workload.empty()) {
      std::fprintf(stderr, "\r\033[K%.*s...", static_cast<int>(p.phase.size()), p.phase.data());
    } else if (p.threads == 0) {
      std::fprintf(stderr, "\r\033[K[%zu/%zu] %.*s: %.*s", p.step, p.steps, static_cast<int>(p.workload.size()),
                   p.workload.data(), static_cast<int>(p.phase.size()), p.phase.data());
    } else {
      std::fprintf(stderr, "\r\033[K[%zu/%zu] %.*s, %zu thread%s: %.*s", p.step, p.steps,
                   static_cast<int>(p.workload.size()), p.workload.data(), p.threads,
                   p.threads == 1 ? "" : "s", static_cast<int>(p.phase.size()), p.phase.data());
    }
    std::fflush(stderr);
  };
}

int ListWorkloads() {
  for (const bench::WorkloadInfo& w : bench::AllWorkloads().workloads()) {
    std::printf("%-18s %s\n", w.name.c_str(), w.description.c_str());
  }
  return kExitOk;
}

Status ResolveOptions(const BenchFlags& flags, bench::BenchOptions* options) {
  if (!flags.inputs.empty()) {
    if (std::find(flags.inputs.begin(), flags.inputs.end(), "-") != flags.inputs.end()) {
      return Status::InvalidArgument("tfq bench reads its inputs several times: name files, not '-'");
    }
    TFQ_ASSIGN_OR_RETURN(options->inputs, ExpandInputPaths(flags.inputs));
  }
  TFQ_ASSIGN_OR_RETURN(options->compression, ParseCompression(flags.compression));
  options->workloads = flags.workloads;
  options->threads = flags.threads;
  if (!(flags.seconds > 0)) return Status::InvalidArgument("--seconds must be positive");
  options->quick = flags.quick;
  options->timing.seconds = flags.quick && !flags.seconds_given ? 0.25 : flags.seconds;
  options->timing.warmup_seconds = std::clamp(options->timing.seconds / 4, 0.05, 1.0);
  options->timing.repetitions = flags.repetitions;
  Result<uint64_t> bytes = ParseByteSize(flags.quick && !flags.data_size_given ? "4MiB" : flags.data_size);
  if (!bytes.ok()) return bytes.status().WithPrefix("--data-size");
  if (bytes.value() == 0) return Status::InvalidArgument("--data-size must be positive");
  options->data_bytes = bytes.value();
  options->seed = flags.seed;
  return Status::OK();
}

Status SaveJson(const std::string& path, const nlohmann::json& j) {
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<OutputStream> out, CreateOutputFile(path));
  TFQ_RETURN_IF_ERROR(out->Write(ToJsonText(j, 2) + "\n"));
  return out->Close();
}

int RunBenchCommand(const BenchFlags& flags) {
  if (flags.list) return ListWorkloads();
  bench::BenchOptions options;
  Status s = ResolveOptions(flags, &options);
  if (!s.ok()) return ReportError(s);
  double max_regression = 0;
  std::optional<bench::Report> baseline;
  if (!flags.baseline.empty()) {  // read first: a bad baseline should not cost a whole run
    Result<double> limit = bench::ParseRegressionLimit(flags.max_regression);
    if (!limit.ok()) return ReportError(limit.status());
    max_regression = limit.value();
    Result<bench::Report> b = bench::ReadReportFile(flags.baseline);
    if (!b.ok()) return ReportError(b.status().WithPrefix("--baseline"));
    baseline = std::move(b).value();
  }

  const std::vector<std::string> warnings = bench::BuildWarnings(bench::CurrentMachine());
  PrintBanner(warnings);
  const bench::ProgressCallback progress = BenchProgressLine();
  Result<bench::Report> report = bench::RunBench(options, progress);
  if (progress) std::fprintf(stderr, "\r\033[K");
  if (!report.ok()) return ReportError(report.status());

  nlohmann::json json = bench::ReportToJson(*report);
  std::optional<bench::ComparisonReport> comparison;
  Status compared;  // an unusable baseline still lets the report be printed and saved first
  if (baseline) {
    Result<bench::ComparisonReport> c = bench::CompareReports(*baseline, *report, max_regression, flags.baseline);
    if (c.ok()) {
      comparison = std::move(c).value();
      json["comparison"] = bench::ComparisonToJson(*comparison);
    } else {
      compared = c.status();
    }
  }
  if (!flags.save.empty()) {
    s = SaveJson(flags.save, json);
    if (!s.ok()) return ReportError(s);
  }
  StdoutBuffer out;
  out.buffer() = flags.json ? ToJsonText(json, 2) + "\n" : bench::FormatReport(*report);
  s = out.Finish();
  // A closed stdout (`tfq bench | head`) must not hide the gate's verdict.
  if (!s.ok() && s.code() != StatusCode::kBrokenPipe) return ReportError(s);

  for (const std::string& w : warnings) PrintWarning(w);
  if (!compared.ok()) return ReportError(compared);
  if (!comparison) return kExitOk;
  std::fputs(bench::FormatComparison(*comparison).c_str(), stderr);
  return comparison->regressed() ? kExitRegression : kExitOk;
}

}  // namespace

void SetupBenchCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<BenchFlags>();
  CLI::App* cmd = app.add_subcommand("bench", "Measure tfq's throughput on this machine; gate CI on a baseline");
  cmd->alias("bench-throughput");
  cmd->add_option("inputs", flags->inputs,
                  "TFRecord files or globs to measure (their first --data-size of records); "
                  "none: generated tf.Examples");
  cmd->add_option("-c,--compression", flags->compression, "inputs' compression: auto|none|gzip|zlib")
      ->capture_default_str();
  // One argument per flag (split on commas), so that `--threads 1 data.tfrecord` leaves the file
  // to the inputs; CLI11's vector options would otherwise swallow it.
  cmd->add_option("--workloads", flags->workloads, "comma-separated workloads to run (see --list); default all")
      ->delimiter(',')
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--threads", flags->threads, "comma-separated thread counts; default 1 and every core")
      ->delimiter(',')
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option_function<double>("--seconds", [flags](double v) {
        flags->seconds = v;
        flags->seconds_given = true;
      }, "measuring time per workload and thread count, after warm-up (default 2)");
  cmd->add_option("--repetitions", flags->repetitions, "measure exactly N repetitions instead of --seconds");
  cmd->add_flag("--quick", flags->quick, "a run of a few seconds: 0.25 s per result on 4 MiB of data");
  cmd->add_option_function<std::string>("--data-size", [flags](const std::string& v) {
        flags->data_size = v;
        flags->data_size_given = true;
      }, "bytes of records to generate, or to read from the inputs (default 32MiB)");
  cmd->add_option("--seed", flags->seed, "seed of the generated data")->capture_default_str();
  cmd->add_flag("--json", flags->json, "print the report as JSON (schema in docs/bench.md)");
  cmd->add_option("--save", flags->save, "also write the JSON report to FILE (a future --baseline)");
  CLI::Option* baseline = cmd->add_option("--baseline", flags->baseline,
                                          "compare with a saved report; exit 4 on a regression");
  cmd->add_option("--max-regression", flags->max_regression,
                  "largest slowdown --baseline accepts, relative to the memcpy calibration")
      ->capture_default_str()
      ->needs(baseline);
  cmd->add_flag("--list", flags->list, "list the workloads and exit");
  cmd->footer(
      "Exit codes: 0 success, 1 failure, 2 usage error, 3 corrupt input, 4 regression (--baseline).\n"
      "Examples:\n"
      "  tfq bench --quick                               a few seconds on generated data\n"
      "  tfq bench --workloads read-crc-file,parse-example --threads 1,8 data/train-*\n"
      "  tfq bench --quick --save base.json              record a baseline\n"
      "  tfq bench --quick --baseline base.json --max-regression 10%\n");
  cmd->callback([flags, exit_code] { *exit_code = RunBenchCommand(*flags); });
}

}  // namespace tfq::app
