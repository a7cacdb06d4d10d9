#include "batch_stream.h"

#include <utility>

namespace tfq::python {

Result<std::unique_ptr<BatchStream>> BatchStream::Open(const pipeline::PipelineOptions& options,
                                                       const std::string& state) {
  Result<std::unique_ptr<pipeline::Pipeline>> opened =
      state.empty() ? pipeline::Pipeline::Open(options) : pipeline::Pipeline::Open(options, state);
  if (!opened.ok()) return opened.status();
  return std::unique_ptr<BatchStream>(new BatchStream(std::move(opened).value()));
}

BatchStream::~BatchStream() { Stop(); }

BatchStream::Wait BatchStream::Next(pipeline::Batch* batch, std::chrono::milliseconds timeout) {
  recycler_->Refill(batch);
  return pipeline_->NextFor(batch, timeout);
}

}  // namespace tfq::python
