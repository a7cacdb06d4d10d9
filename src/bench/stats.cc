#include "bench/stats.h"

#include <algorithm>
#include <cmath>

namespace tfq::bench {

double QuantileOfSorted(const std::vector<double>& sorted, double p) {
  const double position = p * static_cast<double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

Summary Summarize(std::vector<double> values) {
  Summary s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.count = values.size();
  s.min = values.front();
  s.max = values.back();
  s.median = QuantileOfSorted(values, 0.5);
  s.q1 = QuantileOfSorted(values, 0.25);
  s.q3 = QuantileOfSorted(values, 0.75);
  return s;
}

}  // namespace tfq::bench
