#include "convert/ordered_map.h"

#include <algorithm>
#include <utility>

namespace tfq {

OrderedMap::OrderedMap(int threads, MakeSlot make_slot, Convert convert, Write write, size_t slots_per_thread)
    : threads_(threads < 1 ? 1 : threads),
      max_slots_(threads_ == 1 ? 1 : std::max<size_t>(slots_per_thread, 1) * static_cast<size_t>(threads_) + 2),
      make_slot_(std::move(make_slot)), convert_(std::move(convert)), write_(std::move(write)) {
  if (threads_ > 1) {
    for (int w = 0; w < threads_; ++w) workers_.emplace_back([this, w] { WorkerLoop(w); });
  }
}

OrderedMap::~OrderedMap() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void OrderedMap::WorkerLoop(int worker) {
  for (;;) {
    MapSlot* slot;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;  // nothing queued is written after a stop
      slot = queue_.front();
      queue_.pop_front();
    }
    Status s = convert_(*slot, worker);
    {
      std::lock_guard<std::mutex> lock(mu_);
      slot->status_ = std::move(s);
      slot->done_ = true;
    }
    done_cv_.notify_one();
  }
}

Status OrderedMap::Fail(Status status) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  error_ = status;
  return status;
}

Status OrderedMap::WriteFinished() {
  if (!error_.ok()) return error_;
  for (;;) {
    MapSlot* slot;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (in_flight_.empty() || !in_flight_.front()->done_) return Status::OK();
      slot = in_flight_.front();
      in_flight_.pop_front();
    }
    if (!slot->status_.ok()) return Fail(slot->status_);
    Status s = write_(*slot);
    if (!s.ok()) return Fail(std::move(s));
    free_.push_back(slot);
  }
}

Status OrderedMap::Acquire(MapSlot** slot) {
  for (;;) {
    TFQ_RETURN_IF_ERROR(WriteFinished());
    if (!free_.empty()) {
      *slot = free_.back();
      free_.pop_back();
      return Status::OK();
    }
    if (storage_.size() < max_slots_) {
      storage_.push_back(make_slot_());
      *slot = storage_.back().get();
      return Status::OK();
    }
    std::unique_lock<std::mutex> lock(mu_);
    done_cv_.wait(lock, [this] { return in_flight_.front()->done_; });
  }
}

void OrderedMap::Release(MapSlot* slot) { free_.push_back(slot); }

void OrderedMap::Adopt(std::unique_ptr<MapSlot> slot) {
  storage_.push_back(std::move(slot));
  Submit(storage_.back().get());
}

void OrderedMap::Submit(MapSlot* slot) {
  slot->done_ = false;
  slot->status_ = Status::OK();
  if (workers_.empty()) {
    slot->status_ = convert_(*slot, 0);
    slot->done_ = true;
    in_flight_.push_back(slot);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    in_flight_.push_back(slot);
    queue_.push_back(slot);
  }
  work_cv_.notify_one();
}

Status OrderedMap::Drain() {
  for (;;) {
    TFQ_RETURN_IF_ERROR(WriteFinished());
    std::unique_lock<std::mutex> lock(mu_);
    if (in_flight_.empty()) return Status::OK();
    done_cv_.wait(lock, [this] { return in_flight_.front()->done_; });
  }
}

}  // namespace tfq
