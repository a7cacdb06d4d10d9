// `tfq inspect`: count, verify, dump and summarize TFRecord files, for people and for scripts.
#include "inspect.h"

#include <unistd.h>

#include <cstdio>

#include "commands.h"
#include "common/json_output.h"
#include "example/example_view.h"
#include "example/json_forms.h"
#include "io/file_streams.h"
#include "progress.h"

namespace tfq::app {
namespace {

// --count: headers only where the stream can skip payloads.
int RunCount(const InspectOptions& opts, const std::vector<std::string>& paths,
             inspect::ScanOptions scan) {
  scan.headers_only = true;
  std::vector<inspect::FileReport> reports;
  int exit_code = kExitOk;
  for (const auto& path : paths) {
    reports.push_back(inspect::ScanFile(path, scan, nullptr, nullptr));
    if (!reports.back().status.ok()) exit_code = std::max(exit_code, ReportError(reports.back().status));
  }
  const nlohmann::json totals = inspect::TotalsJson(reports);
  if (opts.json) {
    nlohmann::json files = nlohmann::json::array();
    for (const auto& r : reports) files.push_back({{"path", r.path}, {"records", r.records}});
    std::printf("%s\n", ToJsonText(nlohmann::json({{"records", totals["records"]}, {"files", files}})).c_str());
  } else {
    std::printf("%llu\n", static_cast<unsigned long long>(totals["records"].get<uint64_t>()));
  }
  return exit_code;
}

// --verify: every CRC checked, every payload parsed; one line per problem on stderr.
int RunVerify(const InspectOptions& opts, const std::vector<std::string>& paths,
              const inspect::ScanOptions& scan) {
  ExampleView example;
  SequenceExampleView sequence;
  auto parse = [&](std::string_view record, const tfrecord::RecordReader&) -> Status {
    if (opts.raw) return Status::OK();
    return opts.sequence ? sequence.Parse(record) : example.Parse(record);
  };
  auto problem = [](const Status& s) { std::fprintf(stderr, "%s\n", s.message().c_str()); };
  std::vector<inspect::FileReport> reports;
  int exit_code = kExitOk;
  for (const auto& path : paths) {
    reports.push_back(inspect::ScanFile(path, scan, parse, problem));
    const auto& r = reports.back();
    if (!r.clean()) exit_code = std::max(exit_code, r.status.ok() ? kExitBadData : ExitCodeFor(r.status));
  }
  const nlohmann::json totals = inspect::TotalsJson(reports);
  if (opts.json) {
    nlohmann::json files = nlohmann::json::array();
    for (const auto& r : reports) files.push_back(r.ToJson());
    nlohmann::json out = totals;
    out["ok"] = exit_code == kExitOk;
    out["per_file"] = files;
    std::printf("%s\n", ToJsonText(out).c_str());
  } else {
    std::fprintf(exit_code == kExitOk ? stdout : stderr, "%s: %llu records in %zu files%s\n",
                 exit_code == kExitOk ? "OK" : "FAILED",
                 static_cast<unsigned long long>(totals["records"].get<uint64_t>()), paths.size(),
                 exit_code == kExitOk ? ", every CRC verified" : "");
  }
  return exit_code;
}

// --records: one JSON line per record on stdout.
int RunRecords(const InspectOptions& opts, const std::vector<std::string>& paths,
               const inspect::ScanOptions& scan) {
  Result<JsonForm> form = ParseJsonForm(opts.format);
  if (!form.ok()) return ReportError(form.status());
  StdoutBuffer out;
  ExampleView example;
  SequenceExampleView sequence;
  uint64_t seen = 0, printed = 0;
  const uint64_t head = opts.head;
  Status stop;  // set once --head is satisfied: ends the scan early
  auto emit = [&](std::string_view record, const tfrecord::RecordReader&) -> Status {
    if (seen++ < opts.skip) return Status::OK();
    if (head && printed >= head) return Status::Cancelled("head reached");
    if (opts.sequence) {
      TFQ_RETURN_IF_ERROR(sequence.Parse(record));
      AppendSequenceExampleJson(sequence, form.value(), &out.buffer());
    } else {
      TFQ_RETURN_IF_ERROR(example.Parse(record));
      AppendExampleJson(example, form.value(), &out.buffer());
    }
    out.buffer() += '\n';
    ++printed;
    return out.MaybeFlush();
  };
  int exit_code = kExitOk;
  for (const auto& path : paths) {
    if (head && printed >= head) break;
    inspect::FileReport r = inspect::ScanFile(path, scan, emit, [](const Status& s) {
      std::fprintf(stderr, "tfq: error: %s\n", s.message().c_str());
    });
    if (r.status.code() == StatusCode::kCancelled) break;
    if (r.status.code() == StatusCode::kBrokenPipe) return kExitOk;
    if (!r.clean()) exit_code = std::max(exit_code, r.status.ok() ? kExitBadData : ExitCodeFor(r.status));
  }
  Status s = out.Finish();
  if (!s.ok()) return ReportError(s);
  return exit_code;
}

// --index / --index-beside: DALI's tfrecord2idx format, "<offset> <framed size>\n" per record.
int RunIndex(const InspectOptions& opts, const std::vector<std::string>& paths,
             const inspect::ScanOptions& scan) {
  if (opts.index && paths.size() != 1) {
    return ReportError(Status::InvalidArgument(
        "--index prints one file's index; use --index-beside to write FILE.idx for several files"));
  }
  int exit_code = kExitOk;
  for (const auto& path : paths) {
    std::string text;
    auto add = [&](std::string_view, const tfrecord::RecordReader& reader) -> Status {
      text += std::to_string(reader.record_offset());
      text += ' ';
      text += std::to_string(reader.record_framed_size());
      text += '\n';
      return Status::OK();
    };
    inspect::FileReport r = inspect::ScanFile(path, scan, add, nullptr);
    if (!r.clean()) {
      exit_code = std::max(exit_code, ReportError(r.status.ok() ? Status::Corruption(path + ": corrupt records were skipped; the index would not match the file") : r.status));
      continue;
    }
    if (opts.index) {
      StdoutBuffer out;
      out.buffer() = std::move(text);
      Status s = out.Finish();
      if (!s.ok()) return ReportError(s);
      continue;
    }
    Result<std::unique_ptr<OutputStream>> file = CreateOutputFile(path + ".idx");
    Status s = file.ok() ? (*file)->Write(text) : file.status();
    if (s.ok()) s = (*file)->Close();
    if (!s.ok()) exit_code = std::max(exit_code, ReportError(s));
  }
  return exit_code;
}

int RunInspect(const InspectOptions& opts) {
  const int modes = opts.count + opts.verify + opts.records + opts.stats + opts.index + opts.index_beside;
  if (modes > 1) {
    return ReportError(Status::InvalidArgument(
        "choose one of --count, --verify, --records, --stats, --index, --index-beside"));
  }
  std::vector<std::string> paths;
  inspect::ScanOptions scan;
  Status s = ResolveRecordInputs(opts.input, &paths, &scan);
  if (!s.ok()) return ReportError(s);
  // --records and --index stream to stdout: no progress line over them on the same terminal.
  const bool streams = opts.records || opts.index;
  ProgressLine progress("tfq inspect", ProgressLine::TotalBytes(paths),
                        !opts.quiet && !(streams && isatty(STDOUT_FILENO)));
  if (opts.count) return RunCount(opts, paths, scan);
  if (opts.verify) return RunVerify(opts, paths, scan);
  if (opts.records) return RunRecords(opts, paths, scan);
  if (opts.index || opts.index_beside) return RunIndex(opts, paths, scan);
  return RunInspectSummary(opts, paths, scan);
}

}  // namespace

void SetupInspectCommand(CLI::App& app, int* exit_code) {
  auto opts = std::make_shared<InspectOptions>();
  CLI::App* cmd = app.add_subcommand("inspect", "Count, verify, summarize and dump TFRecord files");
  AddRecordInputFlags(cmd, &opts->input);
  cmd->add_flag("--json", opts->json, "print the result as one JSON object (stable field names)");
  cmd->add_flag("-q,--quiet", opts->quiet, "no progress line (shown only when stderr is a terminal)");
  cmd->add_flag("--count", opts->count, "print only the number of records (reads headers only)");
  cmd->add_flag("--verify", opts->verify, "check every CRC and parse every record; problems on stderr");
  cmd->add_flag("--records", opts->records, "print records as JSON lines");
  cmd->add_flag("--stats", opts->stats, "per-feature statistics as JSON");
  cmd->add_flag("--index", opts->index, "print the DALI/tfrecord2idx index (offset size) of one file");
  cmd->add_flag("--index-beside", opts->index_beside, "write FILE.idx beside each input");
  cmd->add_flag("--sequence", opts->sequence, "records are tf.train.SequenceExample");
  cmd->add_flag("--raw", opts->raw, "records are not Examples: check the framing only (--verify)");
  cmd->add_option("--format", opts->format, "JSON form for --records: proto-json|flat")
      ->capture_default_str();
  cmd->add_option("--head", opts->head, "--records: print at most N records");
  cmd->add_option("--skip", opts->skip, "--records: skip the first N records");
  cmd->add_option("--top-k", opts->top_k, "--stats: most frequent strings per feature")
      ->capture_default_str();
  cmd->footer(
      "Examples:\n"
      "  tfq inspect train-*-of-*                  summary and schema\n"
      "  tfq inspect --count data.tfrecord.gz       number of records\n"
      "  tfq inspect --verify --json shard-*        check CRCs and payloads\n"
      "  tfq inspect --records --format flat x | jq .\n");
  cmd->callback([opts, exit_code] { *exit_code = RunInspect(*opts); });
}

}  // namespace tfq::app
