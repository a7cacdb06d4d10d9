// Timing one workload on a given number of threads: warm-up, then repetitions for a fixed time
// (or a fixed count), each repetition timed on the wall clock across all threads.
//
// A repetition starts every thread at once (a barrier), lets each run `passes` passes, and ends
// when the last one finishes; its rates are the work of all threads divided by that wall time, so
// they are what a user running that many threads would see. The number of passes per repetition
// is chosen during warm-up so that one repetition lasts about a twentieth of the measuring time:
// long enough for the clock and the barrier not to matter, short enough for ~20 repetitions to
// give a median and a spread.
#ifndef TFQ_BENCH_RUNNER_H_
#define TFQ_BENCH_RUNNER_H_

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "bench/workload.h"
#include "common/status.h"

namespace tfq::bench {

struct TimingOptions {
  double warmup_seconds = 0.5;  // at least one repetition of one pass
  double seconds = 2.0;         // measuring time, after warm-up
  uint64_t repetitions = 0;     // > 0: exactly this many repetitions of one pass, ignoring `seconds`
  uint64_t min_repetitions = 3; // with a measuring time: never fewer, however long a pass takes
  uint64_t calibration_passes = 4;  // per thread, in each calibration repetition
};

struct Timing {
  uint64_t passes_per_repetition = 1;  // per thread
  double measured_seconds = 0;         // sum of the repetitions' wall times
  std::vector<double> seconds;         // wall time of each repetition
  std::vector<Work> work;              // work of each repetition, summed over threads
  // With a calibration workload: its repetitions, one before the first repetition and one after
  // each (so repetition i lies between calibration repetitions i and i + 1).
  std::vector<double> calibration_seconds;
  std::vector<Work> calibration_work;
};

// Called with "warm-up" and "measuring" as the phases begin (for a progress line).
using PhaseCallback = std::function<void(std::string_view phase)>;

// Times `workload` (already prepared for at least `threads` threads) on `threads` threads, or on
// one thread told to use `threads` when `self_threaded`. The first error any pass returns ends
// the measurement; when several threads fail, the lowest thread index's error is returned.
//
// With a `calibration` workload (prepared likewise; never self-threaded), a short repetition of
// it on `threads` threads is timed right before the first repetition and right after each one:
// a ratio of the two taken from neighbouring moments does not drift when a shared machine gets
// busier or quieter during the run, which a ratio of two separate measurements would.
Result<Timing> TimeWorkload(Workload& workload, size_t threads, bool self_threaded,
                            const TimingOptions& options, const PhaseCallback& on_phase,
                            Workload* calibration = nullptr);

}  // namespace tfq::bench

#endif  // TFQ_BENCH_RUNNER_H_
