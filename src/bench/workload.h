// Workload: one thing `tfq bench` measures (reading + CRC, Example parsing, ...), and the table of
// every workload compiled in.
//
// Adding a workload means adding one file, src/bench/workload_<id>.cc, that defines
//
//   TFQ_BENCH_WORKLOADS(<id>) {  // at global scope
//     registry.Add(tfq::bench::Describe<MyWorkload>("my-workload", "what it measures (unit)", 55,
//                                                   tfq::bench::Metric::kRecords));
//   }
//
// src/bench/CMakeLists.txt finds every workload_*.cc and generates the table that calls each of
// these functions (static self-registration would be dropped by the linker from a static library).
// If the workload needs another part of src/, add that library to tfq_bench's link list there.
#ifndef TFQ_BENCH_WORKLOAD_H_
#define TFQ_BENCH_WORKLOAD_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/dataset.h"
#include "common/status.h"

namespace tfq::bench {

// What one pass did. A workload fills the counters that mean something for it; the runner sums
// them over threads and repetitions and reports each non-zero one as a rate.
struct Work {
  uint64_t bytes = 0;    // reported as MB/s (10^6 bytes per second)
  uint64_t records = 0;  // reported as records/s
  uint64_t items = 0;    // reported as WorkloadInfo::items_unit (images/s, batches/s, ...)

  Work& operator+=(const Work& o) {
    bytes += o.bytes;
    records += o.records;
    items += o.items;
    return *this;
  }
};

enum class Metric { kBytes, kRecords, kItems };

class Workload {
 public:
  virtual ~Workload() = default;

  // Builds everything a pass needs (inputs in their final form, per-thread scratch) so that no
  // pass pays for it; called once, on one thread, before any RunPass, with the largest thread
  // count that will be used. A kInvalidData error means "this workload does not apply to this
  // data" (records that are not tf.Examples, say): the workload is skipped with that reason.
  // Any other error ends the run.
  virtual Status Prepare(Dataset& data, size_t max_threads) = 0;

  // Does one pass of the work and adds what it did to *work. Called on `num_threads` threads at
  // once, each with its own `thread` index in [0, num_threads) — or, for a self-threaded workload,
  // on one thread with thread == 0 and num_threads the threads it should use itself. Every pass
  // does the same work, so passes can be repeated for as long as the measurement needs.
  virtual Status RunPass(size_t thread, size_t num_threads, Work* work) = 0;

  // One line of facts about the output worth printing beside the rates (the size ratio of a
  // compressor, say), or "" for none; called after the measurement.
  virtual std::string Note() const { return ""; }
};

struct WorkloadInfo {
  std::string name;         // what --workloads names: "read-crc-memory"
  std::string description;  // one line for `tfq bench --list`
  int rank = 0;             // running and listing order, lowest first
  Metric primary = Metric::kBytes;  // the rate compared against the calibration and the baseline
  std::string items_unit;   // the unit of Work::items ("images/s"), if the workload counts items
  // RunPass is called on one thread and spreads the work over num_threads itself (a pipeline with
  // its own thread pools), instead of running once per thread.
  bool self_threaded = false;
  std::function<std::unique_ptr<Workload>()> make;
  // A peer: the same work done by the library or tool tfq is compared with (zlib's inflate for
  // read-gzip), timed after it on the same data and thread count, its repetitions alternating
  // with passes of the workload, and reported beside it with the ratio of the two
  // (Measurement::peer). Empty `peer`: none. Not for self-threaded workloads.
  std::string peer;
  std::function<std::unique_ptr<Workload>()> make_peer;
};

// A WorkloadInfo whose `make` builds a default-constructed W; set items_unit and self_threaded
// on the result where they apply.
template <typename W>
WorkloadInfo Describe(std::string name, std::string description, int rank, Metric primary) {
  WorkloadInfo info;
  info.name = std::move(name);
  info.description = std::move(description);
  info.rank = rank;
  info.primary = primary;
  info.make = [] { return std::make_unique<W>(); };
  return info;
}

// The unit of a metric's rate: "MB/s", "records/s" or info.items_unit.
std::string UnitOf(const WorkloadInfo& info, Metric metric);

class Registry {
 public:
  // Adds a workload; a name already present replaces the earlier one.
  void Add(WorkloadInfo info);
  // Every workload, by rank (then name).
  const std::vector<WorkloadInfo>& workloads() const { return workloads_; }
  // The workload called `name`, or nullptr.
  const WorkloadInfo* Find(std::string_view name) const;

 private:
  std::vector<WorkloadInfo> workloads_;
};

// The name of the calibration workload every result is divided by (workload_memcpy.cc).
inline constexpr std::string_view kCalibrationWorkload = "memcpy";

// Every workload compiled into tfq (the generated table), built on first use.
const Registry& AllWorkloads();

}  // namespace tfq::bench

// Defines the function that registers the workloads of src/bench/workload_<id>.cc; the body sees
// `::tfq::bench::Registry& registry`.
#define TFQ_BENCH_WORKLOADS(id) void RegisterWorkloads_##id(::tfq::bench::Registry& registry)

#endif  // TFQ_BENCH_WORKLOAD_H_
