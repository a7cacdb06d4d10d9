// The baseline gate: is this run slower than a saved one by more than a given fraction?
//
// Raw rates differ between machines (a CI runner today, another one tomorrow), so the gate does
// not compare them. It compares each result's ratio to the calibration workload measured in the
// same run on the same thread count (Measurement::ratio): if reading got 20% slower relative to
// memcpy on this machine, it got slower, whatever the machine. Results are matched by workload
// and thread count; those present on one side only are listed, not judged.
#ifndef TFQ_BENCH_COMPARE_H_
#define TFQ_BENCH_COMPARE_H_

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/report.h"
#include "common/status.h"

namespace tfq::bench {

struct Comparison {
  std::string workload;
  size_t threads = 1;
  double baseline_ratio = 0;
  double current_ratio = 0;
  // current_ratio / baseline_ratio - 1: -0.25 is 25% slower than the baseline, 0.1 10% faster.
  double change = 0;
  bool regression = false;  // change < -max_regression
};

struct ComparisonReport {
  std::string baseline_source;  // the baseline's path, for messages
  double max_regression = 0;    // as a fraction: 0.1 for "10%"
  std::vector<Comparison> compared;        // in the current run's order
  std::vector<std::string> not_compared;   // "image (2 threads): not in the baseline"
  std::vector<std::string> notes;          // e.g. the two builds differ

  bool regressed() const;
};

// "10%", "10" (a percentage either way) or "2.5%" -> 0.1, 0.1, 0.025. Must be at least 0 and
// below 100%; anything else is kInvalidArgument.
Result<double> ParseRegressionLimit(std::string_view text);

// Compares every result present in both reports with a ratio on both sides. The calibration
// workload itself is not judged (its ratio is 1 by definition). Different calibration workloads
// make ratios incomparable: kInvalidData. No result in common is kInvalidArgument (a gate that
// checks nothing must not pass silently).
Result<ComparisonReport> CompareReports(const Report& baseline, const Report& current,
                                        double max_regression, std::string_view baseline_source);

// One line per regression naming the workload, thread count and how much slower, then a summary
// line; for stderr.
std::string FormatComparison(const ComparisonReport& comparison);

nlohmann::json ComparisonToJson(const ComparisonReport& comparison);

}  // namespace tfq::bench

#endif  // TFQ_BENCH_COMPARE_H_
