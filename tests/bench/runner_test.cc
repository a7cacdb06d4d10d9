#include "bench/runner.h"

#include <atomic>
#include <mutex>
#include <set>

#include <doctest/doctest.h>

namespace tfq::bench {
namespace {

// Counts passes and records which (thread, num_threads) pairs called it.
class CountingWorkload : public Workload {
 public:
  Status Prepare(Dataset&, size_t) override { return Status::OK(); }
  Status RunPass(size_t thread, size_t num_threads, Work* work) override {
    passes++;
    {
      std::lock_guard<std::mutex> lock(mu);
      calls.insert({thread, num_threads});
    }
    if (fail_from_pass > 0 && passes >= fail_from_pass) {
      return Status::Corruption("thread " + std::to_string(thread) + " failed");
    }
    work->bytes += 1000;
    work->records += 10;
    return Status::OK();
  }

  std::atomic<int> passes{0};
  int fail_from_pass = 0;
  std::mutex mu;
  std::set<std::pair<size_t, size_t>> calls;
};

TimingOptions FixedRepetitions(uint64_t n) {
  TimingOptions o;
  o.warmup_seconds = 0;
  o.repetitions = n;
  return o;
}

TEST_CASE("TimeWorkload: fixed repetitions, work summed over threads") {
  CountingWorkload w;
  std::vector<std::string> phases;
  Result<Timing> t = TimeWorkload(w, 3, false, FixedRepetitions(4),
                                  [&](std::string_view p) { phases.emplace_back(p); });
  REQUIRE(t.ok());
  CHECK(t->seconds.size() == 4);
  CHECK(t->work.size() == 4);
  CHECK(t->passes_per_repetition == 1);
  for (const Work& work : t->work) {
    CHECK(work.bytes == 3000);
    CHECK(work.records == 30);
  }
  CHECK(w.passes == 3 * (1 + 4));  // one warm-up repetition, then four
  CHECK(w.calls == std::set<std::pair<size_t, size_t>>{{0, 3}, {1, 3}, {2, 3}});
  CHECK(phases == std::vector<std::string>{"warm-up", "measuring"});
  CHECK(t->measured_seconds > 0);
}

TEST_CASE("TimeWorkload: a self-threaded workload runs once, told the thread count") {
  CountingWorkload w;
  Result<Timing> t = TimeWorkload(w, 4, true, FixedRepetitions(2), nullptr);
  REQUIRE(t.ok());
  CHECK(w.calls == std::set<std::pair<size_t, size_t>>{{0, 4}});
  CHECK(t->work[0].bytes == 1000);
}

TEST_CASE("TimeWorkload: by time, at least the minimum repetitions, several passes each") {
  CountingWorkload w;
  TimingOptions o;
  o.warmup_seconds = 0.05;  // many warm-up repetitions: the fastest is not slowed by a busy machine
  o.seconds = 0.2;
  Result<Timing> t = TimeWorkload(w, 1, false, o, nullptr);
  REQUIRE(t.ok());
  CHECK(t->seconds.size() >= o.min_repetitions);
  CHECK(t->measured_seconds >= o.seconds);
  // A pass takes microseconds, so a repetition is made of many (about seconds / 20 each).
  CHECK(t->passes_per_repetition > 1);
  CHECK(t->work[0].bytes == 1000 * t->passes_per_repetition);
}

TEST_CASE("TimeWorkload: an error ends the measurement, the lowest thread's first") {
  CountingWorkload w;
  w.fail_from_pass = 1;
  Result<Timing> t = TimeWorkload(w, 2, false, FixedRepetitions(3), nullptr);
  REQUIRE(!t.ok());
  CHECK(t.status().code() == StatusCode::kCorruption);
  CHECK(t.status().message() == "thread 0 failed");
}

TEST_CASE("TimeWorkload: the calibration is timed before the first repetition and after each") {
  CountingWorkload w, calibration;
  TimingOptions o = FixedRepetitions(3);
  o.calibration_passes = 2;
  Result<Timing> t = TimeWorkload(w, 2, false, o, nullptr, &calibration);
  REQUIRE(t.ok());
  CHECK(t->seconds.size() == 3);
  REQUIRE(t->calibration_seconds.size() == 4);
  REQUIRE(t->calibration_work.size() == 4);
  CHECK(t->calibration_work[0].bytes == 2 * 2 * 1000);  // 2 threads x 2 passes
  CHECK(calibration.passes == 4 * 2 * 2);
  CHECK(calibration.calls == std::set<std::pair<size_t, size_t>>{{0, 2}, {1, 2}});
  // Without one there is nothing.
  Result<Timing> plain = TimeWorkload(w, 1, false, o, nullptr);
  CHECK(plain->calibration_seconds.empty());
}

TEST_CASE("TimeWorkload: zero threads is a usage error") {
  CountingWorkload w;
  CHECK(TimeWorkload(w, 0, false, FixedRepetitions(1), nullptr).status().code() ==
        StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tfq::bench
