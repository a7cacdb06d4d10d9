#include "bench/runner.h"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <optional>
#include <thread>

namespace tfq::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Worker threads that run passes of one workload in lockstep with the caller: Run() releases them
// all through one barrier and waits for all of them at a second one. Threads are made once per
// (workload, thread count), not per repetition, so repetitions time only the passes.
class PassPool {
 public:
  PassPool(Workload& workload, size_t workers, size_t num_threads)
      : workload_(workload), num_threads_(num_threads), start_(workers + 1), done_(workers + 1),
        work_(workers), status_(workers) {
    for (size_t i = 0; i < workers; ++i) threads_.emplace_back([this, i] { Loop(i); });
  }
  ~PassPool() {
    quit_ = true;
    start_.arrive_and_wait();
    for (auto& t : threads_) t.join();
  }

  // Every worker runs `passes` passes; returns the wall time of the slowest, in seconds.
  double Run(uint64_t passes, Work* work, Status* status) {
    passes_ = passes;
    const auto begin = Clock::now();
    start_.arrive_and_wait();
    done_.arrive_and_wait();
    const double elapsed = std::chrono::duration<double>(Clock::now() - begin).count();
    *work = Work{};
    for (size_t i = 0; i < work_.size(); ++i) {
      *work += work_[i];
      if (status->ok() && !status_[i].ok()) *status = status_[i];  // lowest index first
    }
    return elapsed;
  }

 private:
  void Loop(size_t index) {
    for (;;) {
      start_.arrive_and_wait();
      if (quit_) return;
      Work work;
      Status status;
      for (uint64_t p = 0; p < passes_ && status.ok(); ++p) {
        status = workload_.RunPass(index, num_threads_, &work);
      }
      work_[index] = work;
      status_[index] = std::move(status);
      done_.arrive_and_wait();
    }
  }

  Workload& workload_;
  const size_t num_threads_;
  // Written by the caller before it arrives at start_, read by workers after it: the barrier
  // orders them, so plain members suffice.
  uint64_t passes_ = 1;
  bool quit_ = false;
  std::barrier<> start_;
  std::barrier<> done_;
  std::vector<Work> work_;       // per worker, read by the caller after done_
  std::vector<Status> status_;
  std::vector<std::thread> threads_;
};

}  // namespace

Result<Timing> TimeWorkload(Workload& workload, size_t threads, bool self_threaded,
                            const TimingOptions& options, const PhaseCallback& on_phase,
                            Workload* calibration) {
  if (threads == 0) return Status::InvalidArgument("thread count must be at least 1");
  PassPool pool(workload, self_threaded ? 1 : threads, threads);
  // Idle while the other pool runs: its threads wait on a barrier, using no CPU.
  std::optional<PassPool> calibration_pool;
  if (calibration) calibration_pool.emplace(*calibration, threads, threads);
  Work work;
  Status status;
  Timing timing;
  auto calibrate = [&]() -> Status {
    if (!calibration_pool) return Status::OK();
    Status s;
    timing.calibration_seconds.push_back(calibration_pool->Run(options.calibration_passes, &work, &s));
    timing.calibration_work.push_back(work);
    return s;
  };

  if (on_phase) on_phase("warm-up");
  // Warm-up: caches, page faults, branch predictors, lazily grown buffers. Also tells how long a
  // pass takes; the fastest warm-up repetition is the least disturbed estimate.
  double fastest_pass = HUGE_VAL;
  const auto warmup_end = Clock::now() + std::chrono::duration<double>(options.warmup_seconds);
  do {
    fastest_pass = std::min(fastest_pass, pool.Run(1, &work, &status));
    if (!status.ok()) return status;
  } while (Clock::now() < warmup_end);

  if (options.repetitions == 0) {
    const double target = std::max(options.seconds / 20, 1e-3);
    const double passes = std::ceil(target / std::max(fastest_pass, 1e-9));
    timing.passes_per_repetition = static_cast<uint64_t>(std::clamp(passes, 1.0, 1e9));
  }

  if (on_phase) on_phase("measuring");
  TFQ_RETURN_IF_ERROR(calibrate());
  for (;;) {
    const double elapsed = pool.Run(timing.passes_per_repetition, &work, &status);
    if (!status.ok()) return status;
    timing.seconds.push_back(elapsed);
    timing.work.push_back(work);
    timing.measured_seconds += elapsed;
    TFQ_RETURN_IF_ERROR(calibrate());
    const uint64_t done = timing.seconds.size();
    if (options.repetitions > 0 ? done >= options.repetitions
                                : timing.measured_seconds >= options.seconds &&
                                      done >= options.min_repetitions) {
      break;
    }
  }
  return timing;
}

}  // namespace tfq::bench
