// RunBench: one whole `tfq bench` run — the data, every selected workload on every thread count,
// the calibration, and the Report (report.h) that apps/bench.cc prints, saves and gates on.
//
// The calibration workload always runs first, on every thread count, whether selected or not:
// every other result is also given as a ratio to it (see compare.h for why).
#ifndef TFQ_BENCH_BENCH_H_
#define TFQ_BENCH_BENCH_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/report.h"
#include "bench/runner.h"
#include "common/status.h"
#include "io/compression.h"

namespace tfq::bench {

struct BenchOptions {
  // TFRecord files (already glob-expanded) whose first records are measured; empty: generated
  // tf.Examples.
  std::vector<std::string> inputs;
  Compression compression = Compression::kAuto;
  std::vector<std::string> workloads;  // names; empty: every workload compiled in
  std::vector<size_t> threads;         // empty: DefaultThreadCounts
  TimingOptions timing;
  uint64_t data_bytes = uint64_t{32} << 20;  // generated, or the cap on what is read from inputs
  uint64_t seed = 1;
  bool quick = false;  // recorded in the report; the caller sets the shorter timing and data
};

// What the run is doing, for a progress line. `step` counts (workload, thread count) pairs from 1.
struct Progress {
  size_t step = 0;
  size_t steps = 0;
  std::string_view workload;  // empty while the data is being prepared
  size_t threads = 0;
  std::string_view phase;     // "preparing", "warm-up", "measuring", "generating data", ...
};
using ProgressCallback = std::function<void(const Progress&)>;

// 1 and `cores` (just 1 on a single core).
std::vector<size_t> DefaultThreadCounts(size_t cores);

// Runs the benchmark. Usage errors (an unknown workload, a zero thread count) are
// kInvalidArgument and name the known workloads; unreadable inputs keep their code. A workload
// that does not apply to the data is recorded in Report::skipped; any other failure of a workload
// is returned, prefixed with its name and thread count.
Result<Report> RunBench(const BenchOptions& options, const ProgressCallback& progress);

}  // namespace tfq::bench

#endif  // TFQ_BENCH_BENCH_H_
