// Chi-square helpers for the uniformity tests. Every test runs on a fixed set of seeds, so it is
// deterministic: the threshold (upper 0.01% point) only decides how far from uniform a result
// may look, and the tests also show that deliberately biased shuffles exceed it.
#ifndef TFQ_TESTS_RESHARD_SHUFFLE_STATS_H_
#define TFQ_TESTS_RESHARD_SHUFFLE_STATS_H_

#include <cmath>
#include <numeric>
#include <vector>

namespace tfq::reshard::testing {

// Pearson's statistic of observed counts against equal expected counts.
inline double ChiSquareUniform(const std::vector<double>& counts) {
  const double expected = std::accumulate(counts.begin(), counts.end(), 0.0) / counts.size();
  double chi2 = 0;
  for (double c : counts) chi2 += (c - expected) * (c - expected) / expected;
  return chi2;
}

// The chi-square value exceeded with probability 1e-4 at `df` degrees of freedom
// (Wilson-Hilferty approximation, accurate to a few percent for df >= 2).
inline double ChiSquareCritical(double df) {
  const double z = 3.719;  // upper 1e-4 point of the standard normal
  const double a = 2.0 / (9.0 * df);
  return df * std::pow(1.0 - a + z * std::sqrt(a), 3.0);
}

// Where each of n items ends up over many permutations: counts[item * n + position].
// Returns the chi-square statistic of the n x n table against T/n everywhere; its degrees of
// freedom are (n - 1)^2 (each row and column sums to T).
inline double PositionChiSquare(const std::vector<double>& counts) {
  return ChiSquareUniform(counts);
}

}  // namespace tfq::reshard::testing

#endif  // TFQ_TESTS_RESHARD_SHUFFLE_STATS_H_
