// `tfq inspect`: count, verify, dump and summarize TFRecord files, for people and for scripts.
#include "inspect.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "commands.h"
#include "common/base64.h"
#include "common/cpus.h"
#include "common/json_output.h"
#include "example/example_view.h"
#include "example/json_forms.h"
#include "inspect/payload.h"
#include "io/file_streams.h"
#include "progress.h"

namespace tfq::app {
namespace {

// --count: headers only where the stream can skip payloads. Records a damaged header hid are not
// counted, so --resync's skips are reported and exit 3 like any damage.
int RunCount(const InspectOptions& opts, const std::vector<std::string>& paths,
             inspect::ScanOptions scan) {
  scan.headers_only = true;
  ProblemLog problems(opts.max_errors);
  inspect::ParallelScanOptions parallel = ParallelScanFor(opts, &problems);
  parallel.cut_for_one_thread = false;  // counts do not depend on the cut
  const std::vector<inspect::FileReport> reports =
      inspect::ScanFiles(paths, scan, parallel, nullptr, problems.callback()).reports;
  int exit_code = kExitOk;
  for (const auto& r : reports) exit_code = std::max(exit_code, ExitCodeOf(r));
  problems.Finish();
  const nlohmann::json totals = inspect::TotalsJson(reports);
  if (opts.json) {
    nlohmann::json files = nlohmann::json::array();
    for (const auto& r : reports) {
      nlohmann::json f = r.ToJson();
      if (!r.opened) {
        files.push_back(f);
        continue;
      }
      files.push_back({{"path", r.path},
                       {"records", r.records},
                       {"damaged_records", f["damaged_records"]},
                       {"resync_bytes", f["resync_bytes"]},
                       {"error", f["error"]}});
    }
    std::printf("%s\n", ToJsonText(nlohmann::json({{"records", totals["records"]},
                                                    {"damaged_records", totals["damaged_records"]},
                                                    {"files", files}}))
                            .c_str());
  } else if (std::none_of(reports.begin(), reports.end(),
                          [](const auto& r) { return r.unreadable(); })) {
    // A total over files that could not be read would be a wrong number for $(...) to take.
    std::printf("%llu\n", static_cast<unsigned long long>(totals["records"].get<uint64_t>()));
  }
  return exit_code;
}

// One line per file with problems, after the FAILED line.
void PrintVerifyFileLine(const inspect::FileReport& r) {
  if (!r.opened || r.unreadable()) {
    std::fprintf(stderr, "  %s: could not be read to its end\n", r.path.c_str());
    return;
  }
  std::string line = "  " + r.path + ": " + CountOf(r.damaged_records(), "damaged record") + ", " +
                     CountOf(r.records - r.record_problems, "good record");
  if (r.skipped.resync_bytes > 0) {
    line += ", " + CountOf(r.skipped.resync_bytes, "byte") + " skipped by --resync";
  }
  if (r.rest_unread) line += "; a damaged header ended the reading: the rest of the file was not read (--resync scans on)";
  std::fprintf(stderr, "%s\n", line.c_str());
}

// --verify's work per record: the payload parsed (unless --raw).
class VerifySink : public ParsingSink {
 public:
  explicit VerifySink(const InspectOptions& opts) : ParsingSink(opts.sequence), raw_(opts.raw) {}
  Status Add(std::string_view record, const tfrecord::RecordReader& reader) override {
    return raw_ ? Status::OK() : Parse(record, reader);
  }
  void Append(inspect::RecordSink& next) override { AppendNote(static_cast<VerifySink&>(next)); }

 private:
  bool raw_;
};

// --verify: every CRC checked, every payload parsed; one line per damaged record on stderr, every
// file read to its end (a record whose data CRC fails is passed over as --skip-corrupt would).
int RunVerify(const InspectOptions& opts, const std::vector<std::string>& paths,
              inspect::ScanOptions scan) {
  if (scan.reader.on_corruption == tfrecord::CorruptionPolicy::kFail) {
    scan.reader.on_corruption = tfrecord::CorruptionPolicy::kSkipDataCrc;
  }
  ProblemLog problems(opts.max_errors);
  inspect::ParallelScanOptions parallel = ParallelScanFor(opts, &problems);
  parallel.cut_for_one_thread = false;  // problems and counts do not depend on the cut
  inspect::ScanResult scanned =
      inspect::ScanFiles(paths, scan, parallel,
                         [&] { return std::make_unique<VerifySink>(opts); }, problems.callback());
  const std::vector<inspect::FileReport>& reports = scanned.reports;
  int exit_code = kExitOk;
  for (const auto& r : reports) exit_code = std::max(exit_code, ExitCodeOf(r));
  problems.Finish();
  const nlohmann::json totals = inspect::TotalsJson(reports);
  if (opts.json) {
    nlohmann::json files = nlohmann::json::array();
    for (const auto& r : reports) files.push_back(r.ToJson());
    nlohmann::json out = totals;
    out["ok"] = exit_code == kExitOk;
    out["per_file"] = files;
    std::printf("%s\n", ToJsonText(out).c_str());
    return exit_code;
  }
  const uint64_t records = totals["records"];
  if (exit_code == kExitOk) {
    std::printf("OK: %s in %s, every CRC verified\n", CountOf(records, "record").c_str(),
                CountOf(paths.size(), "file").c_str());
    return exit_code;
  }
  const size_t bad_files = static_cast<size_t>(
      std::count_if(reports.begin(), reports.end(), [](const auto& r) { return !r.clean(); }));
  const std::string where = paths.size() == 1 ? "1 file"
                            : std::to_string(bad_files) + " of " + std::to_string(paths.size()) + " files";
  std::fprintf(stderr, "FAILED: %s in %s (%s read)\n",
               CountOf(totals["damaged_records"].get<uint64_t>(), "damaged record").c_str(),
               where.c_str(),
               CountOf(records - totals["record_problems"].get<uint64_t>(), "good record").c_str());
  for (const auto& r : reports) {
    if (!r.clean()) PrintVerifyFileLine(r);
  }
  return exit_code;
}

// --records: one JSON line per record on stdout.
int RunRecords(const InspectOptions& opts, const std::vector<std::string>& paths,
               const inspect::ScanOptions& scan) {
  // raw: the payload as base64, whatever it is; otherwise one of the JSON forms.
  const bool raw = opts.format == "raw";
  Result<JsonForm> form = raw ? JsonForm::kFlat : ParseJsonForm(opts.format);
  if (!form.ok()) return ReportError(form.status().WithPrefix("--format (or raw)"));
  StdoutBuffer out;
  inspect::PayloadParser parser(opts.sequence);
  uint64_t seen = 0, printed = 0;
  const uint64_t head = opts.head;
  auto emit = [&](std::string_view record, const tfrecord::RecordReader& reader) -> Status {
    if (seen++ < opts.skip) return Status::OK();
    if (printed >= head) return Status::Cancelled("head reached");
    if (raw) {
      AppendBase64(record, &out.buffer());
    } else {
      Status s = parser.Parse(record);
      if (parser.found_sequence()) NoteSequenceFound(reader);
      TFQ_RETURN_IF_ERROR(s);
      if (parser.sequence()) {
        AppendSequenceExampleJson(parser.sequence_example(), form.value(), &out.buffer());
      } else {
        AppendExampleJson(parser.example(), form.value(), &out.buffer());
      }
    }
    out.buffer() += '\n';
    ++printed;
    return out.MaybeFlush();
  };
  ProblemLog problems(opts.max_errors);
  int exit_code = kExitOk;
  for (const auto& path : paths) {
    if (printed >= head) break;
    inspect::FileReport r = inspect::ScanFile(path, scan, emit, problems.callback());
    if (r.status.code() == StatusCode::kCancelled) break;
    if (r.status.code() == StatusCode::kBrokenPipe) return kExitOk;
    exit_code = std::max(exit_code, ExitCodeOf(r));
  }
  problems.Finish();
  Status s = out.Finish();
  if (!s.ok()) return ReportError(s);
  return exit_code;
}

int RunInspect(const InspectOptions& opts) {
  const int modes = opts.count + opts.verify + opts.records + opts.stats + opts.index +
                    opts.index_beside + opts.check_index + !opts.spec.empty() +
                    !opts.validate.empty();
  if (modes > 1) {
    return ReportError(Status::InvalidArgument(
        "choose one of --count, --verify, --records, --stats, --index, --index-beside, --check-index, "
        "--spec, --validate"));
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
  if (opts.check_index) return RunCheckIndex(opts, paths, scan);
  if (!opts.spec.empty()) return RunSpec(opts, paths, scan);
  if (!opts.validate.empty()) return RunValidate(opts, paths, scan);
  return RunInspectSummary(opts, paths, scan);
}

}  // namespace

void NoteSequenceFound(const tfrecord::RecordReader& reader) {
  PrintWarning(SequenceFoundMessage(reader));
}

std::string SequenceFoundMessage(const tfrecord::RecordReader& reader) {
  return reader.name() + ": record " + std::to_string(reader.record_index()) + " (byte " +
         std::to_string(reader.record_offset()) +
         ") is a tf.train.SequenceExample (it has feature_lists): reading the records as "
         "SequenceExamples from here on (--sequence says so from the start)";
}

Status ParsingSink::Parse(std::string_view record, const tfrecord::RecordReader& reader) {
  Status s = parser_.Parse(record);
  if (parser_.found_sequence() && note_.empty()) note_ = SequenceFoundMessage(reader);
  return s;
}

void ParsingSink::AppendNote(const ParsingSink& next) {
  if (!note_.empty() || next.note_.empty()) return;
  note_ = next.note_;
  PrintWarning(note_);
}

inspect::ParallelScanOptions ParallelScanFor(const InspectOptions& opts, ProblemLog* problems) {
  inspect::ParallelScanOptions parallel;
  parallel.threads = opts.threads > 0 ? opts.threads : UsableCpus();
  parallel.max_problem_messages = opts.max_errors;
  parallel.on_unlisted = [problems](uint64_t n) { problems->AddUnlisted(n); };
  return parallel;
}

void ProblemLog::operator()(const Status& problem) {
  if (!inspect::IsDataProblem(problem)) {
    ReportError(problem);  // a file that cannot be read: always said
    return;
  }
  if (++data_problems_ <= max_lines_) ReportError(problem);
}

void ProblemLog::Finish() {
  if (data_problems_ > max_lines_) {
    std::fprintf(stderr, "tfq: error: %llu more %s not listed (%llu in all; --max-errors sets how many are)\n",
                 static_cast<unsigned long long>(data_problems_ - max_lines_),
                 data_problems_ - max_lines_ == 1 ? "problem" : "problems",
                 static_cast<unsigned long long>(data_problems_));
  }
}

int ExitCodeOf(const inspect::FileReport& report) {
  if (report.clean()) return kExitOk;
  return report.status.ok() ? kExitBadData : ExitCodeFor(report.status);
}

std::string CountOf(uint64_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

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
  cmd->add_flag("--index-beside", opts->index_beside,
                "write FILE.idx beside each input (and FILE.tfqgzidx, access points, for gzip/zlib)");
  cmd->add_flag("--check-index", opts->check_index,
                "check the indexes beside each input against it (exit 3 when missing or stale)");
  cmd->add_option("--spec", opts->spec,
                  "print the feature spec inferred from the records: tf|tfq|tfdv|dali|tfds "
                  "(docs/specs.md)");
  cmd->add_option("--validate", opts->validate,
                  "check the records against a TFDV schema.pbtxt; anomalies on stdout, exit 3 "
                  "when any (docs/specs.md)");
  cmd->add_flag("--sequence", opts->sequence,
                "records are tf.train.SequenceExample (found anyway from the first with feature_lists)");
  cmd->add_flag("--raw", opts->raw, "records are not Examples: check the framing only (--verify)");
  cmd->add_option("--format", opts->format,
                  "--records: proto-json|flat (JSON forms) or raw (each payload as one base64 line)")
      ->capture_default_str();
  cmd->add_option("--head", opts->head, "--records: print at most N records")
      ->check(WholeNumberIn(0, UINT64_MAX));
  cmd->add_option("--skip", opts->skip, "--records: skip the first N records")
      ->check(WholeNumberIn(0, UINT64_MAX));
  cmd->add_option("--top-k", opts->top_k, "--stats: most frequent strings per feature")
      ->capture_default_str()
      ->check(WholeNumberIn(0, 1000000));
  cmd->add_option("--max-features", opts->max_features,
                  "summary and --stats: track at most N feature names; later ones are pooled "
                  "(docs/limits.md)")
      ->capture_default_str()
      ->check(WholeNumberIn(1, UINT64_MAX));
  cmd->add_option("--threads", opts->threads,
                  "--count, --verify, --stats and the summary: threads reading files and parts of "
                  "large files (default: every usable core); results do not depend on it")
      ->check(WholeNumberIn(1, 4096));
  cmd->add_option("--max-errors", opts->max_errors,
                  "print at most N problem lines (damaged records); the rest are counted")
      ->capture_default_str()
      ->check(WholeNumberIn(0, UINT64_MAX));
  cmd->footer(
      "Examples:\n"
      "  tfq inspect train-*-of-*                  summary and schema\n"
      "  tfq inspect --count data.tfrecord.gz       number of records\n"
      "  tfq inspect --verify --json shard-*        check CRCs and payloads\n"
      "  tfq inspect --records --format flat x | jq .\n"
      "  tfq inspect --spec tf train-*              tf.io feature dict to paste\n"
      "  tfq inspect --validate schema.pbtxt eval-*  anomalies against a TFDV schema\n");
  cmd->callback([opts, exit_code] { *exit_code = RunInspect(*opts); });
}

}  // namespace tfq::app
