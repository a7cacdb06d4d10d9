// `tfq inspect --spec FORMAT` (the feature spec inferred from the records, docs/specs.md) and
// `--validate SCHEMA` (the records checked against a TFDV schema).
#include <algorithm>
#include <cstdio>
#include <map>

#include "common/json_output.h"
#include "inspect.h"
#include "inspect/parallel_scan.h"
#include "inspect/payload.h"
#include "inspect/schema_validation.h"
#include "inspect/spec_formats.h"
#include "inspect/spec_inference.h"
#include "inspect/tfdv_schema.h"

namespace tfq::app {

namespace {

// --spec's work per record: the payload parsed and added to the spec of its unit; units are
// merged in input order (inspect/parallel_scan.h). An Example is added as a SequenceExample
// without lists would be, so a unit that has not met the first SequenceExample yet adds the same
// as one that has.
class SpecSink : public ParsingSink {
 public:
  explicit SpecSink(const InspectOptions& opts) : ParsingSink(opts.sequence), builder_(opts.max_features) {}
  Status Add(std::string_view record, const tfrecord::RecordReader& reader) override {
    TFQ_RETURN_IF_ERROR(Parse(record, reader));
    parser().sequence() ? builder_.AddSequenceExample(parser().sequence_example())
                        : builder_.AddExample(parser().example());
    return Status::OK();
  }
  void Append(inspect::RecordSink& next_sink) override {
    auto& next = static_cast<SpecSink&>(next_sink);
    AppendNote(next);
    builder_.Merge(next.builder_);
  }
  const inspect::SpecBuilder& builder() const { return builder_; }

 private:
  inspect::SpecBuilder builder_;
};

}  // namespace

int RunSpec(const InspectOptions& opts, const std::vector<std::string>& paths,
            const inspect::ScanOptions& scan) {
  Result<inspect::SpecFormat> format = inspect::ParseSpecFormat(opts.spec);
  if (!format.ok()) return ReportError(format.status().WithPrefix("--spec"));
  ProblemLog problems(opts.max_errors);
  inspect::ParallelScanOptions parallel = ParallelScanFor(opts, &problems);
  parallel.cut_for_one_thread = false;  // the merged spec is one pass's, wherever files are cut
  inspect::ScanResult scanned = inspect::ScanFiles(
      paths, scan, parallel, [&] { return std::make_unique<SpecSink>(opts); }, problems.callback());
  int exit_code = kExitOk;
  for (const auto& r : scanned.reports) exit_code = std::max(exit_code, ExitCodeOf(r));
  problems.Finish();
  const inspect::SpecBuilder& builder = static_cast<const SpecSink&>(*scanned.sink).builder();
  // A spec from part of the data would look complete: print none when records were lost.
  if (exit_code != kExitOk) {
    std::fprintf(stderr, "tfq: error: no spec printed: not every record could be read (see above)\n");
    return exit_code;
  }
  Result<inspect::InferredSpec> spec = builder.Finish();
  if (!spec.ok()) return ReportError(spec.status());
  Result<std::string> text = inspect::FormatSpec(*spec, *format);
  if (!text.ok()) return ReportError(text.status());
  std::fputs(text->c_str(), stdout);
  return kExitOk;
}

namespace {

struct PlacedAnomaly {
  std::string path;  // empty: about all records together
  uint64_t record = 0;
  uint64_t byte = 0;
  inspect::Anomaly anomaly;
};

std::string AnomalyLine(const PlacedAnomaly& a) {
  const std::string place = a.path.empty() ? "all records"
                                           : a.path + ": record " + std::to_string(a.record) +
                                                 " (byte " + std::to_string(a.byte) + ")";
  return place + ": " + a.anomaly.type + ": feature '" + a.anomaly.feature + "': " + a.anomaly.detail;
}

nlohmann::json AnomalyJson(const PlacedAnomaly& a) {
  nlohmann::json j = {{"anomaly", a.anomaly.type},
                      {"feature", a.anomaly.feature},
                      {"detail", a.anomaly.detail}};
  j["file"] = a.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.path);
  j["record"] = a.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.record);
  j["byte"] = a.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.byte);
  return j;
}

// --validate's work per record: the payload parsed and checked; the anomalies are kept (the first
// --max-errors, in input order) with the record they name, and counted. Units are merged in input
// order; a unit whose listed anomalies would name records by an index it could only guess is read
// again once its first record's index is known (RecordSink::NamesRecordAfter).
class ValidateSink : public ParsingSink {
 public:
  ValidateSink(const InspectOptions& opts, const inspect::TfdvSchema& schema)
      : ParsingSink(opts.sequence), max_listed_(opts.max_errors), validator_(schema) {}

  Status Add(std::string_view record, const tfrecord::RecordReader& reader) override {
    TFQ_RETURN_IF_ERROR(Parse(record, reader));
    // An Example is checked as a SequenceExample without lists would be.
    parser().sequence() ? validator_.CheckSequenceExample(parser().sequence_example(), &found_)
                        : validator_.CheckExample(parser().example(), &found_);
    ++records_;
    Keep(reader.name(), reader.record_index(), reader.record_offset());
    return Status::OK();
  }
  bool NamesRecordAfter(const inspect::RecordSink& earlier_sink) const override {
    const auto& earlier = static_cast<const ValidateSink&>(earlier_sink);
    return (!listed_.empty() && earlier.listed_.size() < max_listed_) || ParsingSink::NamesRecordAfter(earlier);
  }
  void Append(inspect::RecordSink& next_sink) override {
    auto& next = static_cast<ValidateSink&>(next_sink);
    AppendNote(next);
    for (PlacedAnomaly& a : next.listed_) {
      if (listed_.size() < max_listed_) listed_.push_back(std::move(a));
    }
    for (const auto& [type, n] : next.counts_) counts_[type] += n;
    anomalies_ += next.anomalies_;
    records_ += next.records_;
    validator_.Merge(next.validator_);
  }
  // The anomalies of all records taken together (presence), after the last unit.
  void Finish() {
    validator_.Finish(&found_);
    Keep("", 0, 0);
  }

  const std::vector<PlacedAnomaly>& listed() const { return listed_; }
  const std::map<std::string, uint64_t>& counts() const { return counts_; }
  uint64_t anomalies() const { return anomalies_; }
  uint64_t records() const { return records_; }

 private:
  void Keep(const std::string& path, uint64_t record, uint64_t byte) {
    for (inspect::Anomaly& a : found_) {
      ++counts_[a.type];
      if (anomalies_++ < max_listed_) listed_.push_back({path, record, byte, std::move(a)});
    }
    found_.clear();
  }

  const uint64_t max_listed_;
  inspect::SchemaValidator validator_;
  std::vector<inspect::Anomaly> found_;
  std::vector<PlacedAnomaly> listed_;  // the first max_listed_
  std::map<std::string, uint64_t> counts_;
  uint64_t anomalies_ = 0, records_ = 0;
};

}  // namespace

int RunValidate(const InspectOptions& opts, const std::vector<std::string>& paths,
                const inspect::ScanOptions& scan) {
  Result<inspect::TfdvSchema> schema = inspect::ReadTfdvSchemaFile(opts.validate);
  if (!schema.ok()) {
    // A schema that does not parse is a wrong argument (exit 2), kept apart from anomalies in
    // the records (exit 3), which scripts act on.
    const Status& s = schema.status();
    return ReportError(s.code() == StatusCode::kInvalidData
                           ? Status::InvalidArgument("--validate: " + s.message())
                           : s.WithPrefix("--validate"));
  }
  ProblemLog problems(opts.max_errors);
  inspect::ParallelScanOptions parallel = ParallelScanFor(opts, &problems);
  parallel.cut_for_one_thread = false;  // anomalies and counts do not depend on the cut
  inspect::ScanResult scanned = inspect::ScanFiles(
      paths, scan, parallel, [&] { return std::make_unique<ValidateSink>(opts, *schema); }, problems.callback());
  int exit_code = kExitOk;
  for (const auto& r : scanned.reports) exit_code = std::max(exit_code, ExitCodeOf(r));
  problems.Finish();
  auto& sink = static_cast<ValidateSink&>(*scanned.sink);
  sink.Finish();
  const std::vector<PlacedAnomaly>& kept = sink.listed();
  const std::map<std::string, uint64_t>& counts = sink.counts();
  const uint64_t anomalies = sink.anomalies(), records = sink.records();
  if (anomalies > 0) exit_code = std::max(exit_code, kExitBadData);
  if (opts.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& a : kept) list.push_back(AnomalyJson(a));
    nlohmann::json by_type = nlohmann::json::object();
    for (const auto& [type, n] : counts) by_type[type] = n;
    std::printf("%s\n", ToJsonText(nlohmann::json({{"ok", exit_code == kExitOk},
                                                    {"records", records},
                                                    {"anomalies", anomalies},
                                                    {"anomaly_counts", by_type},
                                                    {"listed", list}}))
                            .c_str());
    return exit_code;
  }
  for (const auto& a : kept) std::printf("%s\n", AnomalyLine(a).c_str());
  if (anomalies > kept.size()) {
    std::printf("%llu more anomalies not listed (%llu in all; --max-errors sets how many are)\n",
                static_cast<unsigned long long>(anomalies - kept.size()),
                static_cast<unsigned long long>(anomalies));
  }
  if (exit_code == kExitOk) {
    std::printf("OK: %s in %s match %s\n", CountOf(records, "record").c_str(),
                CountOf(paths.size(), "file").c_str(), opts.validate.c_str());
  } else if (anomalies > 0) {
    std::fprintf(stderr, "FAILED: %s in %s\n", (std::to_string(anomalies) + (anomalies == 1 ? " anomaly" : " anomalies")).c_str(),
                 CountOf(records, "record").c_str());
  }
  return exit_code;
}

}  // namespace tfq::app
