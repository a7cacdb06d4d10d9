#include "bench/compare.h"

#include <doctest/doctest.h>

namespace tfq::bench {
namespace {

Measurement Entry(std::string workload, size_t threads, double median, double ratio,
                   std::string unit = "MB/s") {
  Measurement m;
  m.workload = std::move(workload);
  m.threads = threads;
  Rate r;
  r.unit = std::move(unit);
  r.summary.median = median;
  r.summary.count = 1;
  m.rates.push_back(r);
  m.ratio = ratio;
  return m;
}

Report MakeReport(std::vector<Measurement> results) {
  Report r;
  r.calibration = "memcpy";
  r.machine.build_type = "Release";
  r.results = std::move(results);
  return r;
}

TEST_CASE("ParseRegressionLimit: percentages with or without the sign") {
  CHECK(ParseRegressionLimit("10%").value() == doctest::Approx(0.10));
  CHECK(ParseRegressionLimit("10").value() == doctest::Approx(0.10));
  CHECK(ParseRegressionLimit("2.5%").value() == doctest::Approx(0.025));
  CHECK(ParseRegressionLimit("0%").value() == 0);
  for (const char* bad : {"", "%", "abc", "-1%", "100%", "250", "10%%", "10 %", "nan"}) {
    CAPTURE(bad);
    Result<double> r = ParseRegressionLimit(bad);
    CHECK(!r.ok());
    CHECK(r.status().code() == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("CompareReports: ratios, not raw rates, decide") {
  // The new machine is twice as fast at everything, memcpy included: the ratio is unchanged.
  const Report baseline = MakeReport({Entry("memcpy", 1, 1000, 1), Entry("read", 1, 500, 0.5)});
  const Report current = MakeReport({Entry("memcpy", 1, 2000, 1), Entry("read", 1, 1000, 0.5)});
  Result<ComparisonReport> c = CompareReports(baseline, current, 0.10, "base.json");
  REQUIRE(c.ok());
  REQUIRE(c->compared.size() == 1);  // the calibration itself is not judged
  CHECK(c->compared[0].workload == "read");
  CHECK(c->compared[0].change == doctest::Approx(0));
  CHECK(!c->regressed());
}

TEST_CASE("CompareReports: a drop beyond the limit is a regression, within it is not") {
  const Report baseline = MakeReport({Entry("read", 1, 0, 0.50), Entry("parse", 1, 0, 2.0),
                                      Entry("encode", 2, 0, 1.0)});
  const Report current = MakeReport({Entry("read", 1, 0, 0.40), Entry("parse", 1, 0, 1.9),
                                     Entry("encode", 2, 0, 1.5)});
  Result<ComparisonReport> c = CompareReports(baseline, current, 0.10, "base.json");
  REQUIRE(c.ok());
  REQUIRE(c->compared.size() == 3);
  CHECK(c->compared[0].change == doctest::Approx(-0.20));
  CHECK(c->compared[0].regression);
  CHECK(c->compared[1].change == doctest::Approx(-0.05));
  CHECK(!c->compared[1].regression);
  CHECK(c->compared[2].change == doctest::Approx(0.5));  // faster is never a regression
  CHECK(!c->compared[2].regression);
  CHECK(c->regressed());
  const std::string text = FormatComparison(*c);
  CHECK(text.find("read on 1 thread is 20.0% slower") != std::string::npos);
  CHECK(text.find("limit 10.0%") != std::string::npos);
  CHECK(text.find("parse on") == std::string::npos);
}

TEST_CASE("CompareReports: exactly at the limit passes") {
  const Report baseline = MakeReport({Entry("read", 1, 0, 1.0)});
  const Report current = MakeReport({Entry("read", 1, 0, 0.75)});
  CHECK(!CompareReports(baseline, current, 0.25, "b").value().regressed());
  CHECK(CompareReports(baseline, current, 0.2, "b").value().regressed());
}

TEST_CASE("CompareReports: results on one side only are listed, not judged") {
  const Report baseline = MakeReport({Entry("read", 1, 0, 1.0), Entry("read", 8, 0, 1.0),
                                      Entry("gone", 1, 0, 1.0)});
  const Report current = MakeReport({Entry("read", 1, 0, 1.0), Entry("read", 2, 0, 0.1),
                                     Entry("new", 1, 0, 0.1)});
  Result<ComparisonReport> c = CompareReports(baseline, current, 0.1, "b");
  REQUIRE(c.ok());
  CHECK(c->compared.size() == 1);
  CHECK(!c->regressed());
  CHECK(c->not_compared.size() == 4);  // read/2 and new/1 not in the baseline; read/8 and gone/1 not run
}

TEST_CASE("CompareReports: units must match") {
  const Report baseline = MakeReport({Entry("parse", 1, 0, 1.0, "MB/s"), Entry("read", 1, 0, 1.0)});
  const Report current = MakeReport({Entry("parse", 1, 0, 0.1, "records/s"), Entry("read", 1, 0, 1.0)});
  Result<ComparisonReport> c = CompareReports(baseline, current, 0.1, "b");
  REQUIRE(c.ok());
  CHECK(c->compared.size() == 1);
  CHECK(!c->regressed());
}

TEST_CASE("CompareReports: nothing in common or another calibration is an error") {
  Report baseline = MakeReport({Entry("read", 4, 0, 1.0)});
  const Report current = MakeReport({Entry("read", 1, 0, 1.0)});
  Result<ComparisonReport> none = CompareReports(baseline, current, 0.1, "b");
  CHECK(none.status().code() == StatusCode::kInvalidArgument);
  baseline.results = current.results;
  baseline.calibration = "cat";
  CHECK(CompareReports(baseline, current, 0.1, "b").status().code() == StatusCode::kInvalidData);
}

TEST_CASE("CompareReports: a different build is noted") {
  Report baseline = MakeReport({Entry("read", 1, 0, 1.0)});
  baseline.machine.build_type = "Debug";
  Result<ComparisonReport> c = CompareReports(baseline, MakeReport({Entry("read", 1, 0, 1.0)}), 0.1, "b");
  REQUIRE(c.ok());
  REQUIRE(c->notes.size() == 1);
  CHECK(c->notes[0].find("Debug") != std::string::npos);
}

TEST_CASE("ComparisonToJson: the fields the CI log needs") {
  const Report baseline = MakeReport({Entry("read", 1, 0, 1.0)});
  const Report current = MakeReport({Entry("read", 1, 0, 0.5)});
  const nlohmann::json j = ComparisonToJson(CompareReports(baseline, current, 0.1, "b.json").value());
  CHECK(j["baseline"] == "b.json");
  CHECK(j["regressed"] == true);
  CHECK(j["max_regression"].get<double>() == doctest::Approx(0.1));
  CHECK(j["compared"][0]["workload"] == "read");
  CHECK(j["compared"][0]["change"].get<double>() == doctest::Approx(-0.5));
}

}  // namespace
}  // namespace tfq::bench
