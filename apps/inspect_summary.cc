// `tfq inspect` without a mode (summary and schema) and `--stats`.
#include <algorithm>
#include <cstdio>
#include <map>

#include "common/byte_size.h"
#include "common/json_output.h"
#include "example/example_view.h"
#include "inspect.h"
#include "inspect/feature_stats.h"
#include "inspect/payload.h"
#include "inspect/schema.h"

namespace tfq::app {
namespace {

void PrintSchemaRow(const std::string& name, const inspect::FeatureSchema& s, const char* extra) {
  const double avg = s.present_in ? static_cast<double>(s.total_values) / s.present_in : 0.0;
  std::printf("  %-32s %-6s %10llu  %8llu %10.2f %8llu%s\n", name.c_str(), s.KindName().c_str(),
              static_cast<unsigned long long>(s.present_in),
              static_cast<unsigned long long>(s.min_count), avg,
              static_cast<unsigned long long>(s.max_count), extra);
}

// Names beyond --max-features share one row, and a line says so.
template <typename Map>
void PrintOverCapRow(const Map& map, const inspect::FeatureSchema& pooled, const char* extra) {
  if (!map.reached()) return;
  PrintSchemaRow("(other names)", pooled, extra);
  std::printf("  more than %zu names (--max-features): %llu occurrences of later names are pooled "
              "in (other names)\n",
              map.max_names(), static_cast<unsigned long long>(map.other_occurrences()));
}

void PrintText(const std::vector<inspect::FileReport>& reports, const nlohmann::json& totals,
               const inspect::SchemaBuilder& schema, bool sequence, uint64_t parsed) {
  std::map<std::string, int> compressions;
  for (const auto& r : reports) ++compressions[std::string(CompressionName(r.compression))];
  std::string comp;
  for (const auto& [name, n] : compressions) {
    comp += (comp.empty() ? "" : ", ") + name + " (" + std::to_string(n) + ")";
  }
  const uint64_t records = totals["records"];
  const uint64_t payload = totals["payload_bytes"];
  std::printf("files         %zu\n", reports.size());
  std::printf("records       %llu\n", static_cast<unsigned long long>(records));
  std::printf("compression   %s\n", comp.c_str());
  std::printf("file bytes    %s\n", FormatByteSize(totals["file_bytes"]).c_str());
  std::printf("stream bytes  %s\n", FormatByteSize(totals["stream_bytes"]).c_str());
  if (records) {
    std::printf("record bytes  min %llu, avg %.1f, max %llu\n",
                static_cast<unsigned long long>(totals["min_record_bytes"].get<uint64_t>()),
                static_cast<double>(payload) / records,
                static_cast<unsigned long long>(totals["max_record_bytes"].get<uint64_t>()));
  }
  std::printf("message       %s (%llu of %llu records parsed)\n",
              sequence ? "tf.train.SequenceExample" : "tf.train.Example",
              static_cast<unsigned long long>(parsed), static_cast<unsigned long long>(records));
  const char* header = "  %-32s %-6s %10s  %8s %10s %8s\n";
  std::printf("\n%s\n", sequence ? "context features" : "features");
  std::printf(header, "name", "kind", "present", "min", "avg", "max");
  for (const auto& [name, s] : schema.features()) PrintSchemaRow(name, s, "");
  PrintOverCapRow(schema.capped_features(), schema.capped_features().other(), "");
  if (sequence) {
    std::printf("\nfeature lists (values per step; steps per record in brackets)\n");
    std::printf(header, "name", "kind", "steps", "min", "avg", "max");
    for (const auto& [name, s] : schema.feature_lists()) {
      char steps[64];
      std::snprintf(steps, sizeof steps, "  [%llu..%llu steps in %llu records]",
                    static_cast<unsigned long long>(s.min_steps),
                    static_cast<unsigned long long>(s.max_steps),
                    static_cast<unsigned long long>(s.present_in));
      PrintSchemaRow(name, s.steps, steps);
    }
    PrintOverCapRow(schema.capped_feature_lists(), schema.capped_feature_lists().other().steps, "");
  }
}


// The summary's (or --stats') work per record: the payload parsed and added to the schema (or
// the statistics) of its unit; units are appended in input order.
class SummarySink : public ParsingSink {
 public:
  explicit SummarySink(const InspectOptions& opts, const inspect::StatsOptions& stats_options)
      : ParsingSink(opts.sequence), opts_(opts), schema_(opts.max_features), stats_(stats_options) {}

  Status Add(std::string_view record, const tfrecord::RecordReader& reader) override {
    if (opts_.raw) return Status::OK();
    TFQ_RETURN_IF_ERROR(Parse(record, reader));
    // An Example is added as a SequenceExample without lists would be: a unit that has not met
    // the first SequenceExample yet adds the same as one that has.
    if (parser().sequence()) {
      const SequenceExampleView& sequence = parser().sequence_example();
      opts_.stats ? stats_.AddSequenceExample(sequence) : schema_.AddSequenceExample(sequence);
    } else {
      opts_.stats ? stats_.AddExample(parser().example()) : schema_.AddExample(parser().example());
    }
    ++parsed_;
    return Status::OK();
  }
  void Append(inspect::RecordSink& next_sink) override {
    auto& next = static_cast<SummarySink&>(next_sink);
    AppendNote(next);
    opts_.stats ? stats_.Merge(next.stats_) : schema_.Merge(next.schema_);
    parsed_ += next.parsed_;
    sequence_ = sequence_ || next.parser().sequence();
  }

  const inspect::SchemaBuilder& schema() const { return schema_; }
  const inspect::StatsBuilder& stats() const { return stats_; }
  uint64_t parsed() const { return parsed_; }
  // The records were read as SequenceExamples (--sequence, or one was met).
  bool sequence() const { return sequence_ || parser().sequence(); }

 private:
  const InspectOptions& opts_;
  inspect::SchemaBuilder schema_;
  inspect::StatsBuilder stats_;
  uint64_t parsed_ = 0;
  bool sequence_ = false;  // of the units appended
};

}  // namespace

int RunInspectSummary(const InspectOptions& opts, const std::vector<std::string>& paths,
                      const inspect::ScanOptions& scan) {
  inspect::StatsOptions stats_options;
  stats_options.top_k = opts.top_k;
  stats_options.max_features = opts.max_features;
  ProblemLog problems(opts.max_errors);
  inspect::ScanResult scanned = inspect::ScanFiles(
      paths, scan, ParallelScanFor(opts, &problems),
      [&] { return std::make_unique<SummarySink>(opts, stats_options); }, problems.callback());
  const std::vector<inspect::FileReport>& reports = scanned.reports;
  const auto& sink = static_cast<const SummarySink&>(*scanned.sink);
  const inspect::SchemaBuilder& schema = sink.schema();
  const inspect::StatsBuilder& stats = sink.stats();
  const uint64_t parsed = sink.parsed();
  int exit_code = kExitOk;
  for (const auto& r : reports) exit_code = std::max(exit_code, ExitCodeOf(r));
  problems.Finish();
  const bool any_record = std::any_of(reports.begin(), reports.end(),
                                      [](const auto& r) { return r.records > 0; });
  if (problems.data_problems() > 0 && any_record && parsed == 0 && !opts.raw) {
    PrintWarning("no record parsed; if the payloads are not tf.train.Example, use --raw "
                 "(or --records --format raw to see them)");
  }
  // Nothing was read at all (every input missing or unreadable): the errors say it all.
  if (std::all_of(reports.begin(), reports.end(), [](const auto& r) {
        return !r.status.ok() && r.records == 0;
      })) {
    return exit_code;
  }
  const nlohmann::json totals = inspect::TotalsJson(reports);
  if (opts.stats) {
    nlohmann::json out = stats.ToJson();
    out["totals"] = totals;
    std::printf("%s\n", ToJsonText(out, opts.json ? -1 : 2).c_str());
    return exit_code;
  }
  if (opts.json) {
    nlohmann::json out = totals;
    nlohmann::json files = nlohmann::json::array();
    for (const auto& r : reports) files.push_back(r.ToJson());
    out["per_file"] = files;
    out["message"] = opts.raw ? "raw" : sink.sequence() ? "SequenceExample" : "Example";
    out["parsed_records"] = parsed;
    out["schema"] = schema.ToJson(sink.sequence());
    std::printf("%s\n", ToJsonText(out).c_str());
  } else {
    PrintText(reports, totals, schema, sink.sequence(), parsed);
  }
  return exit_code;
}

}  // namespace tfq::app
