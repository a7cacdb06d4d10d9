#include "bench/compare.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tfq::bench {
namespace {

std::string Ratio(double r) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", r);
  return text;
}

std::string Threads(size_t n) { return std::to_string(n) + (n == 1 ? " thread" : " threads"); }

}  // namespace

bool ComparisonReport::regressed() const {
  for (const Comparison& c : compared) {
    if (c.regression) return true;
  }
  return false;
}

Result<double> ParseRegressionLimit(std::string_view text) {
  std::string number(text);
  if (!number.empty() && number.back() == '%') number.pop_back();
  char* end = nullptr;
  const double percent = number.empty() ? NAN : std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || !(percent >= 0 && percent < 100)) {
    return Status::InvalidArgument("--max-regression: '" + std::string(text) +
                                   "' is not a percentage from 0 to below 100, such as 10%");
  }
  return percent / 100;
}

Result<ComparisonReport> CompareReports(const Report& baseline, const Report& current,
                                        double max_regression, std::string_view baseline_source) {
  ComparisonReport out;
  out.baseline_source = baseline_source;
  out.max_regression = max_regression;
  if (baseline.calibration != current.calibration) {
    return Status::InvalidData(std::string(baseline_source) + ": calibrated against '" +
                               baseline.calibration + "', this run against '" + current.calibration +
                               "': their ratios cannot be compared");
  }
  if (baseline.machine.build_type != current.machine.build_type ||
      baseline.machine.sanitizer != current.machine.sanitizer) {
    out.notes.push_back("the baseline comes from a " + baseline.machine.build_type +
                        (baseline.machine.sanitizer.empty() ? "" : " sanitizer") + " build, this run from a " +
                        current.machine.build_type +
                        (current.machine.sanitizer.empty() ? "" : " sanitizer") + " build");
  }
  for (const Measurement& m : current.results) {
    if (m.workload == current.calibration) continue;
    const Measurement* b = baseline.Find(m.workload, m.threads);
    const std::string what = m.workload + " (" + Threads(m.threads) + ")";
    if (!b) {
      out.not_compared.push_back(what + ": not in the baseline");
    } else if (!m.ratio || !b->ratio || !(*b->ratio > 0)) {
      out.not_compared.push_back(what + ": no ratio to compare");
    } else if (b->primary().unit != m.primary().unit) {
      out.not_compared.push_back(what + ": measured in " + b->primary().unit + " in the baseline, " +
                                 m.primary().unit + " now");
    } else {
      Comparison c;
      c.workload = m.workload;
      c.threads = m.threads;
      c.baseline_ratio = *b->ratio;
      c.current_ratio = *m.ratio;
      c.change = c.current_ratio / c.baseline_ratio - 1;
      c.regression = c.change < -max_regression;
      out.compared.push_back(std::move(c));
    }
  }
  for (const Measurement& b : baseline.results) {
    if (b.workload != baseline.calibration && !current.Find(b.workload, b.threads)) {
      out.not_compared.push_back(b.workload + " (" + Threads(b.threads) + "): not measured in this run");
    }
  }
  if (out.compared.empty()) {
    return Status::InvalidArgument(std::string(baseline_source) +
                                   ": no result in common with this run (same workload and thread "
                                   "count), so there is nothing to compare");
  }
  return out;
}

std::string FormatComparison(const ComparisonReport& c) {
  std::string out;
  size_t regressions = 0;
  for (const Comparison& x : c.compared) {
    if (!x.regression) continue;
    ++regressions;
    out += "tfq: regression: " + x.workload + " on " + Threads(x.threads) + " is " +
           Percent(-x.change) + " slower than the baseline (ratio to calibration " +
           Ratio(x.current_ratio) + ", baseline " + Ratio(x.baseline_ratio) +
           "; limit " + Percent(c.max_regression) + ")\n";
  }
  for (const std::string& n : c.notes) out += "tfq: note: " + n + "\n";
  for (const std::string& n : c.not_compared) out += "tfq: not compared: " + n + "\n";
  out += "tfq: compared " + std::to_string(c.compared.size()) + " result(s) with " + c.baseline_source +
         ": " + (regressions ? std::to_string(regressions) + " slower by more than " : "none slower by more than ") +
         Percent(c.max_regression) + "\n";
  return out;
}

nlohmann::json ComparisonToJson(const ComparisonReport& c) {
  nlohmann::json compared = nlohmann::json::array();
  for (const Comparison& x : c.compared) {
    compared.push_back({{"workload", x.workload},
                        {"threads", x.threads},
                        {"baseline_ratio", x.baseline_ratio},
                        {"ratio", x.current_ratio},
                        {"change", x.change},
                        {"regression", x.regression}});
  }
  return {{"baseline", c.baseline_source},  {"max_regression", c.max_regression},
          {"regressed", c.regressed()},     {"compared", std::move(compared)},
          {"not_compared", c.not_compared}, {"notes", c.notes}};
}

}  // namespace tfq::bench
