// BatchStream: a Pipeline as the Python iterator drives it, with its batch memory recycled.
//
// Python must get control back every so often while it waits for a batch, to run its signal
// handlers (Ctrl-C), so Next waits with a timeout (Pipeline::NextFor) and the caller releases
// the GIL around it. The batch handed in is the previous one, whose numeric columns went to NumPy
// without a copy; before it goes back to the pipeline as memory for later batches, the buffers of
// arrays Python has dropped are put into it (BufferRecycler), so that in steady state nothing is
// allocated or freed per batch.
//
// Thread safety: Next is for one thread; Stop may be called from any thread, and makes a Next
// waiting on another thread return kEnd. The destructor stops and joins the pipeline's threads,
// so none outlives the object. Nothing here touches Python.
#ifndef TFQ_PYTHON_BATCH_STREAM_H_
#define TFQ_PYTHON_BATCH_STREAM_H_

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "buffer_recycler.h"
#include "common/status.h"
#include "pipeline/pipeline.h"

namespace tfq::python {

class BatchStream {
 public:
  // Pipeline::Open (from `state`, SaveState's text, when not empty).
  static Result<std::unique_ptr<BatchStream>> Open(const pipeline::PipelineOptions& options,
                                                   const std::string& state = "");
  ~BatchStream();  // Stop()
  BatchStream(const BatchStream&) = delete;
  BatchStream& operator=(const BatchStream&) = delete;

  using Wait = pipeline::Pipeline::Wait;  // kBatch, kEnd (status() says why), kTimeout (call again)
  Wait Next(pipeline::Batch* batch, std::chrono::milliseconds timeout);
  // Meaningful once Next returned kEnd: OK at the end, the error, or kCancelled after Stop.
  const Status& status() const { return pipeline_->status(); }

  // Stops the pipeline and joins its threads. Idempotent; any thread.
  void Stop() { pipeline_->Stop(); }

  pipeline::SkipStats skip_stats() const { return pipeline_->skip_stats(); }
  // The pipeline's state after the batches Next handed out. Any thread.
  Result<std::string> SaveState() const { return pipeline_->SaveState(); }
  const std::vector<std::string>& files() const { return pipeline_->files(); }
  // Where the batches' numeric buffers go back once Python is done with them.
  const std::shared_ptr<BufferRecycler>& recycler() const { return recycler_; }

 private:
  explicit BatchStream(std::unique_ptr<pipeline::Pipeline> pipeline) : pipeline_(std::move(pipeline)) {}

  std::unique_ptr<pipeline::Pipeline> pipeline_;
  const std::shared_ptr<BufferRecycler> recycler_ = std::make_shared<BufferRecycler>();
};

}  // namespace tfq::python

#endif  // TFQ_PYTHON_BATCH_STREAM_H_
