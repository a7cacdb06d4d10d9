// Report: everything one `tfq bench` run measured, with the facts needed to read it, and its two
// forms: the JSON of docs/bench.md (schema_version 1) and a text table for people.
//
// Every rate is "higher is better". Each result also carries its ratio to the calibration
// workload (memcpy bandwidth) timed on the same thread count around each of its repetitions: the
// number the baseline gate compares, because it moves much less between machines, and with the
// load of a shared machine, than the raw rate does.
#ifndef TFQ_BENCH_REPORT_H_
#define TFQ_BENCH_REPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/machine.h"
#include "bench/stats.h"
#include "common/status.h"

namespace tfq::bench {

// Bumped whenever a field changes meaning or disappears; adding a field does not bump it.
inline constexpr int kReportSchemaVersion = 1;

struct Rate {
  std::string unit;  // "MB/s", "records/s", "images/s", ...
  Summary summary;   // over the repetitions
};

struct Measurement {
  std::string workload;
  size_t threads = 1;
  std::vector<Rate> rates;  // the workload's primary rate first
  uint64_t repetitions = 0;
  uint64_t passes_per_repetition = 0;  // per thread
  double seconds = 0;                  // measured wall time (warm-up excluded)
  // The best repetition's primary rate / the best rate of the calibration on the same thread
  // count, timed right around this result's repetitions (runner.h). 1 for the calibration itself.
  std::optional<double> ratio;

  // The workload's peer (WorkloadInfo::peer), and how many times faster tfq is: the best rate of
  // passes of the workload alternating with the peer's repetitions over the peer's best rate, so
  // that the two come from neighbouring moments of a shared machine.
  struct Peer {
    std::string name;  // "zlib inflate"
    Rate rate;         // in the workload's primary unit
    double speedup = 0;
  };
  std::optional<Peer> peer;
  std::string note;  // Workload::Note()

  const Rate& primary() const { return rates.front(); }
};

struct SkippedWorkload {
  std::string workload;
  std::string reason;
};

struct RunSettings {
  std::vector<size_t> threads;
  double warmup_seconds = 0;
  double seconds = 0;
  uint64_t repetitions = 0;  // 0: measured for `seconds`
  bool quick = false;
  bool generated = true;             // false: records from `inputs`
  std::vector<std::string> inputs;
  uint64_t seed = 0;
  uint64_t data_bytes = 0;    // framed bytes of the records measured
  uint64_t data_records = 0;
};

struct Report {
  int schema_version = kReportSchemaVersion;
  std::string date;  // UTC, "2024-05-01T12:00:00Z"
  MachineInfo machine;
  RunSettings settings;
  std::string calibration;  // the calibration workload's name
  std::vector<std::string> warnings;  // BuildWarnings: numbers from this build are not comparable
  std::vector<Measurement> results;   // in running order: by workload, then thread count
  std::vector<SkippedWorkload> skipped;

  // The result for (workload, threads), or nullptr.
  const Measurement* Find(std::string_view workload, size_t threads) const;
};

// The current time as Report::date wants it.
std::string UtcNow();

nlohmann::json ReportToJson(const Report& report);

// Reads a report back from its JSON text, as a baseline: schema_version must be 1, and each result
// needs workload, threads, unit and median; other fields are read when present. Errors are
// kInvalidData naming `source` and what is wrong.
Result<Report> ReportFromJson(std::string_view json, std::string_view source);

// ReportFromJson of the file at `path` (kNotFound / kIoError when it cannot be read).
Result<Report> ReadReportFile(const std::string& path);

// The text form: machine facts, settings, then one line per result with the median, min..max,
// IQR as a percentage of the median, repetitions and the ratio to the calibration.
std::string FormatReport(const Report& report);
// A fraction as a percentage with one decimal: 0.123 -> "12.3%".
std::string Percent(double fraction);

}  // namespace tfq::bench

#endif  // TFQ_BENCH_REPORT_H_
