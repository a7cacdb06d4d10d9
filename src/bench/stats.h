// Summary statistics of repeated measurements: what `tfq bench` reports for each result.
//
// A benchmark repetition gives one rate (MB/s, records/s, ...). The median is the number to
// compare; min/max and the interquartile range say how much the repetitions disagreed, so a
// reader can tell a real change from noise.
#ifndef TFQ_BENCH_STATS_H_
#define TFQ_BENCH_STATS_H_

#include <cstddef>
#include <vector>

namespace tfq::bench {

struct Summary {
  size_t count = 0;  // number of values summarized; every field below is 0 when count == 0
  double median = 0;
  double min = 0;
  double max = 0;
  double q1 = 0;  // 25th percentile
  double q3 = 0;  // 75th percentile

  double iqr() const { return q3 - q1; }
  // (q3 - q1) / median: the spread as a fraction of the median (0 when the median is 0).
  double relative_iqr() const { return median != 0 ? iqr() / median : 0; }
};

// The p-quantile (0 <= p <= 1) of values sorted ascending, interpolating linearly between the
// two nearest ranks (numpy's default "linear" method, R's type 7): q(0) is the minimum, q(1) the
// maximum, q(0.5) the usual median (the mean of the middle two for an even count).
// `sorted` must not be empty.
double QuantileOfSorted(const std::vector<double>& sorted, double p);

// Summarizes `values` in any order.
Summary Summarize(std::vector<double> values);

}  // namespace tfq::bench

#endif  // TFQ_BENCH_STATS_H_
