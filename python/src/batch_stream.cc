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

BatchStream::BatchStream(std::unique_ptr<pipeline::Pipeline> pipeline)
    : pipeline_(std::move(pipeline)), base_(pipeline_->batches_delivered()) {
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
    if (ready_.size() >= kReadyBatches && !stopping_) {
      producer_waiting_ = true;
      room_cv_.wait(lock, [this] { return ready_.size() <= kReadyBatches / 2 || stopping_; });
      producer_waiting_ = false;
    }
    if (stopping_) {
      end = Status::Cancelled("pipeline stopped");
      break;
    }
    ready_.push_back(std::move(batch));
    batch = pipeline::Batch();
    if (!spare_.empty()) {  // a batch the taker is done with: its memory for the pipeline
      batch = std::move(spare_.back());
      spare_.pop_back();
    }
    if (taker_waiting_) ready_cv_.notify_one();
  }
  std::lock_guard<std::mutex> lock(mu_);
  status_ = std::move(end);
  done_ = true;
  ready_cv_.notify_all();
}

BatchStream::Wait BatchStream::Next(pipeline::Batch* batch, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  if (ready_.empty() && !done_) {
    taker_waiting_ = true;
    ready_cv_.wait_for(lock, timeout, [this] { return !ready_.empty() || done_; });
    taker_waiting_ = false;
  }
  if (ready_.empty()) return done_ ? Wait::kEnd : Wait::kTimeout;
  if (spare_.size() < 2) spare_.push_back(std::move(*batch));
  *batch = std::move(ready_.front());
  ready_.pop_front();
  ++taken_;
  // The producer is woken once the queue is half empty, not for every batch taken: each wake-up
  // is a context switch, which at tens of thousands of batches a second costs more than the copy.
  if (producer_waiting_ && ready_.size() <= kReadyBatches / 2) room_cv_.notify_one();
  return Wait::kBatch;
}

void BatchStream::Stop() {
  std::lock_guard<std::mutex> stop_lock(stop_mu_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    room_cv_.notify_all();
  }
  pipeline_->Stop();  // a Next blocked on the consumer thread returns false
  if (consumer_.joinable()) consumer_.join();
}

}  // namespace tfq::python
