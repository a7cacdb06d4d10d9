// BatchStream: a Pipeline whose batches can be waited for with a timeout.
//
// Pipeline::Next blocks until a batch is ready. Python must get control back every so often
// while it waits, to run its signal handlers (Ctrl-C), so the pipeline's consumer side runs on
// one thread of our own that queues up to kReadyBatches batches; the Python thread waits on the
// queue with a timeout and the GIL released. The cost is a hand-off per batch (a context switch
// only where a side actually waits) and up to kReadyBatches more batches held ready.
//
// Thread safety: Next is for one thread; Stop may be called from any thread, and makes a Next
// waiting on another thread return kEnd. The destructor stops and joins, so no thread outlives
// the object. Nothing here touches Python.
#ifndef TFQ_PYTHON_BATCH_STREAM_H_
#define TFQ_PYTHON_BATCH_STREAM_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "buffer_recycler.h"
#include "common/status.h"
#include "pipeline/pipeline.h"

namespace tfq::python {

class BatchStream {
 public:
  // Pipeline::Open (from `state`, SaveState's text, when not empty), then the consumer thread
  // starts pulling batches.
  static Result<std::unique_ptr<BatchStream>> Open(const pipeline::PipelineOptions& options,
                                                   const std::string& state = "");
  ~BatchStream();  // Stop()
  BatchStream(const BatchStream&) = delete;
  BatchStream& operator=(const BatchStream&) = delete;

  enum class Wait {
    kBatch,    // *batch holds the next batch
    kEnd,      // no more batches: status() says why (OK, the error, or kCancelled after Stop)
    kTimeout,  // nothing yet; call again
  };
  Wait Next(pipeline::Batch* batch, std::chrono::milliseconds timeout);
  // Meaningful once Next returned kEnd: OK at the end, the error, or kCancelled after Stop.
  const Status& status() const { return status_; }

  // Stops the pipeline and joins every thread. Idempotent.
  void Stop();

  pipeline::SkipStats skip_stats() const { return pipeline_->skip_stats(); }
  // The pipeline's state after the batches Next handed out (not those still queued). Any thread.
  Result<std::string> SaveState() const { return pipeline_->SaveStateAfter(base_ + taken_.load()); }
  const std::vector<std::string>& files() const { return pipeline_->files(); }
  // Where the batches' numeric buffers go back once Python is done with them: the consumer thread
  // hands them to the pipeline with the batch memory it passes to Pipeline::Next.
  const std::shared_ptr<BufferRecycler>& recycler() const { return recycler_; }

 private:
  explicit BatchStream(std::unique_ptr<pipeline::Pipeline> pipeline);
  void ConsumeLoop();

  std::unique_ptr<pipeline::Pipeline> pipeline_;
  const uint64_t base_;                // batches of the state the pipeline was opened from
  std::atomic<uint64_t> taken_{0};     // batches Next handed out
  const std::shared_ptr<BufferRecycler> recycler_ = std::make_shared<BufferRecycler>();
  static constexpr size_t kReadyBatches = 4;

  std::mutex mu_;
  std::condition_variable ready_cv_;  // the taker: a batch is ready, or the end
  std::condition_variable room_cv_;   // the consumer thread: room in ready_, or stopping
  std::deque<pipeline::Batch> ready_;
  std::vector<pipeline::Batch> spare_;  // batches the taker handed back, for their memory
  bool taker_waiting_ = false;
  bool producer_waiting_ = false;
  bool done_ = false;      // the consumer thread has ended; status_ says why
  Status status_;
  bool stopping_ = false;
  std::mutex stop_mu_;     // serializes Stop
  std::thread consumer_;
};

}  // namespace tfq::python

#endif  // TFQ_PYTHON_BATCH_STREAM_H_
