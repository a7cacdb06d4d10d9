#include "io/deflate_pool.h"

#include <zlib.h>

#include <algorithm>

namespace tfq {

void DeflaterCache::Run(DeflateJob* job) {
  std::unique_ptr<Deflater>& d = deflaters_[{job->engine.isal, job->engine.zlib_level}];
  if (d == nullptr) {
    Result<std::unique_ptr<Deflater>> made = NewDeflater(job->engine);
    if (!made.ok()) {
      job->status = made.status();
      return;
    }
    d = std::move(made).value();
  }
  job->output.clear();
  job->status = d->DeflateBlock(job->dictionary, job->input, job->last, &job->output);
  const std::string& in = job->input;
  job->check = job->wrapper == DeflateWrapper::kGzip
                   ? GzipCrc32(0, in.data(), in.size())
                   : static_cast<uint32_t>(adler32(1, reinterpret_cast<const Bytef*>(in.data()),
                                                   static_cast<uInt>(in.size())));
  // A block waiting to be written in order holds only its output.
  job->input_bytes = in.size();
  std::string().swap(job->input);
  std::string().swap(job->dictionary);
}

DeflatePool::DeflatePool(int threads) {
  const int n = std::max(1, threads);
  workers_.reserve(n);
  for (int i = 0; i < n; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

DeflatePool::~DeflatePool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void DeflatePool::Submit(std::shared_ptr<DeflateJob> job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(job));
  }
  work_cv_.notify_one();
}

void DeflatePool::Wait(const DeflateJob* job) {
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, [&] { return job->done; });
}

size_t DeflatePool::BlocksPerStream() const {
  std::lock_guard<std::mutex> lock(mu_);
  const size_t streams = std::max<size_t>(1, streams_);
  return std::max<size_t>(2, (workers_.size() + streams) / streams);
}

void DeflatePool::AddStream() {
  std::lock_guard<std::mutex> lock(mu_);
  ++streams_;
}

void DeflatePool::RemoveStream() {
  std::lock_guard<std::mutex> lock(mu_);
  --streams_;
}

void DeflatePool::WorkerLoop() {
  DeflaterCache deflaters;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    std::shared_ptr<DeflateJob> job = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    deflaters.Run(job.get());
    lock.lock();
    job->done = true;
    done_cv_.notify_all();
  }
}

}  // namespace tfq
