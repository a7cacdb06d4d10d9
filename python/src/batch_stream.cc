#include "batch_stream.h"

#include <utility>

namespace tfq::python {

Result<std::unique_ptr<BatchStream>> BatchStream::Open(const pipeline::PipelineOptions& options) {
  Result<std::unique_ptr<pipeline::Pipeline>> opened = pipeline::Pipeline::Open(options);
  if (!opened.ok()) return opened.status();
  return std::unique_ptr<BatchStream>(new BatchStream(std::move(opened).value()));
}

BatchStream::BatchStream(std::unique_ptr<pipeline::Pipeline> pipeline)
    : pipeline_(std::move(pipeline)) {
  consumer_ = std::thread([this] { ConsumeLoop(); });
}

BatchStream::~BatchStream() { Stop(); }

void BatchStream::ConsumeLoop() {
  pipeline::Batch batch;
  Status end;
  for (;;) {
    if (!pipeline_->Next(&batch)) {
      end = pipeline_->status();
      break;
    }
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return !slot_full_ || stopping_; });
    if (stopping_) {
      end = Status::Cancelled("pipeline stopped");
      break;
    }
    std::swap(slot_, batch);  // the taker's old batch comes back for the pipeline to reuse
    slot_full_ = true;
    cv_.notify_all();
  }
  std::lock_guard<std::mutex> lock(mu_);
  status_ = std::move(end);
  done_ = true;
  cv_.notify_all();
}

BatchStream::Wait BatchStream::Next(pipeline::Batch* batch, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!cv_.wait_for(lock, timeout, [this] { return slot_full_ || done_; })) return Wait::kTimeout;
  if (!slot_full_) return Wait::kEnd;
  std::swap(*batch, slot_);
  slot_full_ = false;
  cv_.notify_all();
  return Wait::kBatch;
}

void BatchStream::Stop() {
  std::lock_guard<std::mutex> stop_lock(stop_mu_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    cv_.notify_all();
  }
  pipeline_->Stop();  // a Next blocked on the consumer thread returns false
  if (consumer_.joinable()) consumer_.join();
}

}  // namespace tfq::python
