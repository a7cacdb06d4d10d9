// DeflatePool: threads that compress the blocks of compressing streams (io/compression.h,
// NewCompressingStream) side by side, so that one output, or several written in turn (the shards
// of a conversion), use the cores the command was given. Whoever creates the streams owns the
// pool and destroys it after them; with no pool a stream compresses its blocks itself, into the
// same bytes.
//
// Thread safety: Submit and Wait may be called from any thread; a job is read by its submitter
// only after Wait returned for it.
#ifndef TFQ_IO_DEFLATE_POOL_H_
#define TFQ_IO_DEFLATE_POOL_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/status.h"
#include "io/deflater.h"

namespace tfq {

// One block of a compressing stream, and what compressing it gave.
struct DeflateJob {
  DeflateEngine engine;
  DeflateWrapper wrapper = DeflateWrapper::kGzip;  // which check to sum: CRC-32 or Adler-32
  std::string dictionary;  // up to kDeflateWindow bytes before the block; freed with `input`
  std::string input;  // freed once compressed: only its size is needed after
  bool last = false;
  // Results.
  uint64_t input_bytes = 0;
  std::string output;
  uint32_t check = 0;  // the wrapper's check of `input` alone
  Status status;
  bool done = false;  // under the pool's lock
};

// The encoders one thread has started, one per engine, reused from block to block.
class DeflaterCache {
 public:
  // Compresses job->input and sums its check.
  void Run(DeflateJob* job);

 private:
  std::map<std::pair<bool, int>, std::unique_ptr<Deflater>> deflaters_;
};

// The most memory one pool thread, its encoder and the blocks in flight on its account hold
// (an encoder is under 0.5 MiB; a block in flight is its input, its 32 KiB before and its
// output, under 0.6 MiB), for callers that bound their memory (tfq shuffle). Each stream also
// holds the block it is filling and, until its encoder is chosen, the first MiB.
inline constexpr uint64_t kDeflateMemoryPerThread = uint64_t{2} << 20;

class DeflatePool {
 public:
  explicit DeflatePool(int threads);  // below 1 counts as 1
  ~DeflatePool();                     // finishes the running jobs; drops the queued ones
  DeflatePool(const DeflatePool&) = delete;
  DeflatePool& operator=(const DeflatePool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()); }

  void Submit(std::shared_ptr<DeflateJob> job);
  // Returns once `job` (submitted) is compressed.
  void Wait(const DeflateJob* job);

  // How many blocks a stream may have submitted and not yet written: enough for one stream to
  // keep every thread busy, and fewer each as more streams share the pool (at least 2), so that
  // the blocks in flight are about one per thread, or two per stream where there are more
  // streams than threads.
  size_t BlocksPerStream() const;
  void AddStream();
  void RemoveStream();

 private:
  void WorkerLoop();

  mutable std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<std::shared_ptr<DeflateJob>> queue_;
  size_t streams_ = 0;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace tfq

#endif  // TFQ_IO_DEFLATE_POOL_H_
