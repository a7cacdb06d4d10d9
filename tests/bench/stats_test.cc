#include "bench/stats.h"

#include <doctest/doctest.h>

namespace tfq::bench {
namespace {

TEST_CASE("Summarize: nothing to summarize gives zeros") {
  const Summary s = Summarize({});
  CHECK(s.count == 0);
  CHECK(s.median == 0);
  CHECK(s.min == 0);
  CHECK(s.max == 0);
  CHECK(s.relative_iqr() == 0);
}

TEST_CASE("Summarize: one value is every statistic") {
  const Summary s = Summarize({7.5});
  CHECK(s.count == 1);
  CHECK(s.median == 7.5);
  CHECK(s.min == 7.5);
  CHECK(s.max == 7.5);
  CHECK(s.q1 == 7.5);
  CHECK(s.q3 == 7.5);
  CHECK(s.iqr() == 0);
}

TEST_CASE("Summarize: odd count, any order") {
  const Summary s = Summarize({5, 1, 4, 2, 3});
  CHECK(s.median == 3);
  CHECK(s.min == 1);
  CHECK(s.max == 5);
  CHECK(s.q1 == 2);
  CHECK(s.q3 == 4);
  CHECK(s.relative_iqr() == doctest::Approx(2.0 / 3));
}

TEST_CASE("Summarize: even count takes the mean of the middle two, quartiles interpolate") {
  const Summary s = Summarize({4, 3, 2, 1});
  CHECK(s.median == 2.5);
  CHECK(s.q1 == doctest::Approx(1.75));  // numpy.percentile([1,2,3,4], 25)
  CHECK(s.q3 == doctest::Approx(3.25));
}

TEST_CASE("Summarize: an outlier moves min/max but not the median") {
  const Summary s = Summarize({100, 101, 99, 100, 5});
  CHECK(s.median == 100);
  CHECK(s.min == 5);
  CHECK(s.q1 == 99);
}

TEST_CASE("QuantileOfSorted: ends are min and max") {
  const std::vector<double> v = {1, 2, 10};
  CHECK(QuantileOfSorted(v, 0) == 1);
  CHECK(QuantileOfSorted(v, 1) == 10);
  CHECK(QuantileOfSorted(v, 0.75) == doctest::Approx(6));
}

}  // namespace
}  // namespace tfq::bench
