#include "pipeline/interleave.h"

#include <algorithm>
#include <utility>

#include "common/cpus.h"
#include "tfrecord/format.h"

namespace tfq::pipeline {
namespace {

// A reader thread hands records over in bursts, taking the lock once per burst rather than once
// per record, but small enough that the consumer sees the first records of a file early.
constexpr size_t kBurstRecords = 32;
constexpr size_t kBurstBytes = size_t{1} << 20;

size_t ReaderThreadCount(const ReadOptions& options) {
  if (options.reader_threads > 0) return options.reader_threads;
  const size_t hardware = static_cast<size_t>(UsableCpus());
  return std::min(options.cycle_length, hardware);
}

}  // namespace

Interleaver::Interleaver(const std::vector<std::string>* files, const ReadOptions& options)
    : files_(files),
      options_(options),
      slots_(options.cycle_length),
      // As much as the read-ahead buffers hold; a block is a burst plus at most one record.
      pool_(RecordBlockPool::Create(
          options.cycle_length * (options.file_buffer_records + kLookAheadRecords),
          options.cycle_length * (options.file_buffer_bytes + kLookAheadBytes), 2 * kBurstBytes)) {
  context_.files = files_;
  context_.compression = options_.compression;
  context_.max_record_bytes = options_.max_record_bytes;
  context_.decompression = options_.decompression;
  context_.on_error = options_.on_error;
  context_.stop = &stopping_;
  const size_t n = ReaderThreadCount(options_);
  threads_.reserve(n);
  for (size_t i = 0; i < n; ++i) threads_.emplace_back([this] { ReaderLoop(); });
}

Interleaver::~Interleaver() { Shutdown(); }

void Interleaver::Shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    CancelLocked();
  }
  std::lock_guard<std::mutex> join_lock(join_mu_);
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void Interleaver::CancelLocked() {
  cancelled_ = true;
  stopping_.store(true, std::memory_order_relaxed);
  work_cv_.notify_all();
  data_cv_.notify_all();
}

SkipStats Interleaver::skip_stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return skips_;
}

void Interleaver::StartEpoch(std::vector<uint32_t> order, uint32_t epoch,
                             const InterleavePosition* from) {
  std::lock_guard<std::mutex> lock(mu_);
  // Abandon what is left of the previous epoch: a reader thread still on one of its files sees
  // it finished after its current burst and lets go of it.
  for (Task& task : slots_) {
    if (task) task->finished = true;
    task.reset();
  }
  for (Task& task : look_ahead_) task->finished = true;
  look_ahead_.clear();
  for (Task& task : work_) task->queued = false;
  work_.clear();
  ready_.clear();
  ready_events_.clear();
  order_ = std::move(order);
  next_in_order_ = 0;
  epoch_ = epoch;
  cycle_index_ = 0;
  block_index_ = 0;
  if (from != nullptr) {
    next_in_order_ = from->next_in_order;
    cycle_index_ = from->cycle_index;
    block_index_ = from->block_index;
    for (size_t i = 0; i < slots_.size(); ++i) {
      const SlotPosition& slot = from->slots[i];
      if (slot.file == kNoFile) continue;
      auto task = std::make_shared<internal::FileTask>(slot.file, epoch_, slot.next_index,
                                                       slot.next_offset);
      task->queued = true;
      work_.push_back(task);
      slots_[i] = std::move(task);
    }
    TopUpLookAhead();
    work_cv_.notify_all();
    return;
  }
  // tf.data fills the slots lazily as the cycle first reaches them; filling them all now gives
  // the same file-to-slot assignment and lets every file start reading at once.
  for (size_t i = 0; i < slots_.size(); ++i) {
    slots_[i] = NextTask();
    LogAssign(i);
  }
}

Interleaver::Task Interleaver::NextTask() {
  if (next_in_order_ >= order_.size()) return nullptr;
  Task task;
  if (!look_ahead_.empty()) {
    task = std::move(look_ahead_.front());
    look_ahead_.pop_front();
    task->look_ahead = false;
    ++next_in_order_;
    MaybeQueue(task);  // now with the whole file buffer
  } else {
    task = std::make_shared<internal::FileTask>(order_[next_in_order_++], epoch_);
    task->queued = true;
    work_.push_back(task);
    work_cv_.notify_one();
  }
  TopUpLookAhead();
  return task;
}

void Interleaver::TopUpLookAhead() {
  while (look_ahead_.size() < slots_.size() && next_in_order_ + look_ahead_.size() < order_.size()) {
    auto task = std::make_shared<internal::FileTask>(order_[next_in_order_ + look_ahead_.size()], epoch_);
    task->look_ahead = true;
    task->queued = true;
    // Behind the files in slots: a reader thread turns to it when they are full.
    work_.push_back(task);
    work_cv_.notify_one();
    look_ahead_.push_back(std::move(task));
  }
}

void Interleaver::LogAssign(size_t slot) {
  if (!options_.deterministic) return;
  StreamEvent& e = ready_events_.emplace_back();
  e.kind = StreamEvent::Kind::kAssign;
  e.slot = static_cast<uint32_t>(slot);
  e.file = slots_[slot] ? slots_[slot]->file : kNoFile;
  e.a = next_in_order_;
  e.cycle_index = cycle_index_;
  e.block_index = block_index_;
}

bool Interleaver::Full(const internal::FileTask& task) const {
  if (task.look_ahead) {
    return task.buffer.size() >= kLookAheadRecords || task.buffered_bytes >= kLookAheadBytes;
  }
  return task.buffer.size() >= options_.file_buffer_records ||
         task.buffered_bytes >= options_.file_buffer_bytes;
}

void Interleaver::MaybeQueue(const Task& task) {
  if (task->active || task->queued || task->finished) return;
  // Refill from half empty, so a reader thread gets a worthwhile burst rather than one record.
  if (task->buffer.size() > options_.file_buffer_records / 2 ||
      task->buffered_bytes > options_.file_buffer_bytes / 2) {
    return;
  }
  task->queued = true;
  work_.push_back(task);
  work_cv_.notify_one();
}

void Interleaver::Deliver(internal::FileTask* task, std::vector<Record>* burst) {
  for (Record& record : *burst) {
    task->buffered_bytes += record.data.size();
    task->buffer.push_back(std::move(record));
  }
  burst->clear();
}

void Interleaver::ReaderLoop() {
  std::vector<Record> burst;
  SkipStats skips;
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    work_cv_.wait(lock, [this] { return cancelled_ || !work_.empty(); });
    if (cancelled_) return;
    Task task = std::move(work_.front());
    work_.pop_front();
    task->queued = false;
    if (task->finished || Full(*task)) continue;
    task->active = true;
    while (true) {
      const size_t max_records =
          std::min(kBurstRecords, (task->look_ahead ? kLookAheadRecords : options_.file_buffer_records) -
                                      task->buffer.size());
      const size_t max_bytes =
          std::min(kBurstBytes, (task->look_ahead ? kLookAheadBytes : options_.file_buffer_bytes) -
                                    task->buffered_bytes);
      lock.unlock();
      Status end;
      const bool more = internal::ReadBurst(context_, task.get(), max_records, max_bytes,
                                            pool_.get(), &burst, &end, &skips);
      lock.lock();
      if (!skips.empty() || !skips.messages.empty()) {
        skips_.Merge(skips);
        skips = SkipStats();
      }
      if (task->finished) {  // abandoned by StartEpoch while we read
        burst.clear();
        break;
      }
      Deliver(task.get(), &burst);
      if (!more) {
        task->finished = true;
        task->status = std::move(end);
        // Out of order, the first error is everyone's error at once; in order it waits for
        // its turn in the cycle (FillDeterministic).
        if (!task->status.ok() && !options_.deterministic && error_.ok() && !cancelled_) {
          error_ = task->status;
          CancelLocked();
        }
      }
      if (consumer_waiting_ && (!options_.deterministic || awaited_ == task.get())) {
        data_cv_.notify_one();
      }
      if (cancelled_ || task->finished || Full(*task)) break;
    }
    if (task->reader && (task->finished || cancelled_)) {
      // Abandoned or cancelled with the file still open: close it, unlocked, while still the
      // reader's owner.
      lock.unlock();
      task->reader.reset();
      lock.lock();
    }
    task->active = false;
  }
}

void Interleaver::AdvanceToNextSlot() {
  block_index_ = 0;
  cycle_index_ = (cycle_index_ + 1) % slots_.size();
}

void Interleaver::Take(internal::FileTask* task, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    Record& front = task->buffer.front();
    task->buffered_bytes -= front.data.size();
    ready_.push_back(std::move(front));
    task->buffer.pop_front();
  }
}

void Interleaver::LogTakes(size_t slot, size_t first) {
  // The cursor after each record: within the block, or (for the block's last) as it is now.
  const size_t n = ready_.size() - first;
  const size_t block_before = block_index_ == 0 ? options_.block_length - n : block_index_ - n;
  for (size_t i = 0; i < n; ++i) {
    const Record& record = ready_[first + i];
    StreamEvent& e = ready_events_.emplace_back();
    e.kind = StreamEvent::Kind::kTake;
    e.slot = static_cast<uint32_t>(slot);
    e.source = record.source;
    e.a = record.data.size() + tfrecord::kFramingOverhead;
    const size_t block = block_before + i + 1;
    if (block == options_.block_length) {
      e.cycle_index = (slot + 1) % slots_.size();
      e.block_index = 0;
    } else {
      e.cycle_index = slot;
      e.block_index = block;
    }
  }
}

Interleaver::Step Interleaver::FillDeterministic() {
  const size_t cycle = slots_.size();
  size_t taken = 0;
  while (taken < kTakeRecords) {
    // The slot whose turn it is: the current one, or the next occupied one (empty slots only
    // remain once the file list is used up, and are skipped as in tf.data).
    size_t i = 0;
    while (i < cycle && !slots_[(cycle_index_ + i) % cycle]) ++i;
    if (i == cycle) return taken > 0 ? Step::kRecords : Step::kEnd;
    if (i > 0) {
      cycle_index_ = (cycle_index_ + i) % cycle;
      block_index_ = 0;
    }
    const Task& task = slots_[cycle_index_];
    if (!task->buffer.empty()) {
      const size_t n = std::min({options_.block_length - block_index_, task->buffer.size(),
                                 kTakeRecords - taken});
      const size_t first = ready_.size();
      const size_t slot = cycle_index_;
      Take(task.get(), n);
      MaybeQueue(task);
      taken += n;
      block_index_ += n;
      if (block_index_ == options_.block_length) AdvanceToNextSlot();
      LogTakes(slot, first);
      continue;
    }
    // Hand out what was taken before waiting or failing: the state stays at this slot, so the
    // next call resumes exactly here.
    if (taken > 0) return Step::kRecords;
    if (!task->finished) {
      awaited_ = task.get();
      return Step::kWait;
    }
    if (!task->status.ok()) {
      error_ = task->status;
      CancelLocked();
      return Step::kError;
    }
    // Exhausted: the next file takes the slot and the turn passes on.
    const size_t slot = cycle_index_;
    slots_[slot] = NextTask();
    AdvanceToNextSlot();
    LogAssign(slot);
  }
  return Step::kRecords;
}

Interleaver::Step Interleaver::FillAnyReady() {
  const size_t cycle = slots_.size();
  size_t taken = 0;
  bool progress = true;
  while (taken < kTakeRecords && progress) {
    progress = false;
    bool any_open = false;
    const size_t start = cycle_index_;
    for (size_t i = 0; i < cycle && taken < kTakeRecords; ++i) {
      const size_t index = (start + i) % cycle;
      Task& task = slots_[index];
      if (!task) continue;
      any_open = true;
      if (!task->buffer.empty()) {
        const size_t n =
            std::min({options_.block_length, task->buffer.size(), kTakeRecords - taken});
        Take(task.get(), n);
        MaybeQueue(task);
        taken += n;
        cycle_index_ = (index + 1) % cycle;
        progress = true;
      } else if (task->finished) {
        if (!task->status.ok()) {  // normally raised by its reader thread already
          if (taken > 0) return Step::kRecords;
          if (error_.ok()) error_ = task->status;
          CancelLocked();
          return Step::kError;
        }
        task = NextTask();
        progress = true;
      }
    }
    if (!any_open) return taken > 0 ? Step::kRecords : Step::kEnd;
  }
  if (taken > 0) return Step::kRecords;
  awaited_ = nullptr;
  return Step::kWait;
}

bool Interleaver::Next(Record* out, Status* status, std::vector<StreamEvent>* log) {
  if (ready_.empty()) {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      if (!error_.ok()) {
        *status = error_;
        return false;
      }
      if (cancelled_) {
        *status = Status::Cancelled("pipeline stopped");
        return false;
      }
      const Step step = options_.deterministic ? FillDeterministic() : FillAnyReady();
      if (step == Step::kRecords) break;
      if (step == Step::kEnd) {
        *status = Status::OK();
        // The steps after the epoch's last record (files found empty, slots emptied).
        if (log != nullptr) log->insert(log->end(), ready_events_.begin(), ready_events_.end());
        ready_events_.clear();
        return false;
      }
      if (step == Step::kWait) {
        consumer_waiting_ = true;
        data_cv_.wait(lock);
        consumer_waiting_ = false;
      }
    }
  }
  *out = std::move(ready_.front());
  ready_.pop_front();
  if (options_.deterministic) {
    while (!ready_events_.empty()) {
      const bool take = ready_events_.front().kind == StreamEvent::Kind::kTake;
      if (log != nullptr) log->push_back(ready_events_.front());
      ready_events_.pop_front();
      if (take) break;
    }
  }
  return true;
}

}  // namespace tfq::pipeline
