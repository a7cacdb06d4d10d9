// memcpy: the calibration workload. Every other result is divided by its rate on the same thread
// count (compare.h), so it must be simple, stable and bound by the same memory system the record
// readers stream through. Each thread copies its own 8 MiB buffer: larger than most per-core
// caches, so the rate reflects memory bandwidth shared by the threads, as reading records does.
#include <cstring>
#include <memory>
#include <vector>

#include "bench/workload.h"

namespace tfq::bench {
namespace {

class MemcpyWorkload : public Workload {
 public:
  Status Prepare(Dataset&, size_t max_threads) override {
    buffers_.resize(max_threads);
    for (Buffers& b : buffers_) {
      b.source = std::make_unique<char[]>(kBytes);
      b.target = std::make_unique<char[]>(kBytes);
      std::memset(b.source.get(), 0x5a, kBytes);  // fault the pages in now, not while timing
      std::memset(b.target.get(), 0, kBytes);
    }
    return Status::OK();
  }

  Status RunPass(size_t thread, size_t, Work* work) override {
    Buffers& b = buffers_[thread];
    std::memcpy(b.target.get(), b.source.get(), kBytes);
    work->bytes += kBytes;
    return Status::OK();
  }

 private:
  static constexpr size_t kBytes = size_t{8} << 20;
  struct Buffers {
    std::unique_ptr<char[]> source;
    std::unique_ptr<char[]> target;
  };
  std::vector<Buffers> buffers_;
};

}  // namespace
}  // namespace tfq::bench

TFQ_BENCH_WORKLOADS(memcpy) {
  using namespace tfq::bench;
  registry.Add(Describe<MemcpyWorkload>(
      std::string(kCalibrationWorkload),
      "calibration: memcpy of an 8 MiB buffer per thread (MB/s copied)",
      0, Metric::kBytes));
}
