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
      staged_(options.cycle_length),
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

void Interleaver::OweWake() { owed_wakes_.fetch_add(1, std::memory_order_relaxed); }

void Interleaver::WakeReaders() {
  // The tasks were queued under mu_ before the count went up, so a reader woken here finds them
  // (and one that was not waiting yet checks the queue before it waits).
  const size_t owed = owed_wakes_.exchange(0, std::memory_order_relaxed);
  if (owed >= threads_.size()) {
    work_cv_.notify_all();
  } else {
    for (size_t i = 0; i < owed; ++i) work_cv_.notify_one();
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
  for (Staging& staging : staged_) staging = Staging();
  pending_events_.clear();
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
  WakeReaders();
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
    OweWake();
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
    OweWake();
    look_ahead_.push_back(std::move(task));
  }
}

void Interleaver::LogAssign(size_t slot) {
  if (!options_.deterministic) return;
  StreamEvent& e = pending_events_.emplace_back();
  e.kind = StreamEvent::Kind::kAssign;
  e.slot = static_cast<uint32_t>(slot);
  e.file = slots_[slot] ? slots_[slot]->file : kNoFile;
  e.a = next_in_order_;
  e.cycle_index = cycle_index_;
  e.block_index = block_index_;
}

bool Interleaver::Full(const internal::FileTask& task) const {
  if (task.look_ahead) return task.held_records() >= kLookAheadRecords || task.held_bytes() >= kLookAheadBytes;
  return task.held_records() >= options_.file_buffer_records || task.held_bytes() >= options_.file_buffer_bytes;
}

void Interleaver::MaybeQueue(const Task& task) {
  if (task->active || task->queued || task->finished) return;
  // Refill from half empty, so a reader thread gets a worthwhile burst rather than one record.
  if (task->held_records() > options_.file_buffer_records / 2 ||
      task->held_bytes() > options_.file_buffer_bytes / 2) {
    return;
  }
  task->queued = true;
  work_.push_back(task);
  OweWake();
}

void Interleaver::Deliver(internal::FileTask* task, std::vector<Record>* burst) {
  for (const Record& record : *burst) task->buffered_bytes += record.data.size();
  if (task->buffer.empty()) {
    task->buffer.swap(*burst);  // the burst keeps the emptied buffer's capacity for the next one
  } else {
    task->buffer.insert(task->buffer.end(), std::make_move_iterator(burst->begin()),
                        std::make_move_iterator(burst->end()));
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
                                      task->held_records());
      const size_t max_bytes =
          std::min(kBurstBytes, (task->look_ahead ? kLookAheadBytes : options_.file_buffer_bytes) -
                                    task->held_bytes());
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
        // its turn in the cycle (NextInOrder).
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

bool Interleaver::Stopped(Status* status) const {
  if (!error_.ok()) {
    *status = error_;
    return true;
  }
  if (cancelled_) {
    *status = Status::Cancelled("pipeline stopped");
    return true;
  }
  return false;
}

bool Interleaver::Restage(size_t slot) {
  Staging& staging = staged_[slot];
  internal::FileTask& task = *slots_[slot];
  staging.records.clear();
  staging.records.swap(task.buffer);  // the buffer keeps the staging's old capacity
  staging.next = 0;
  staging.bytes = task.buffered_bytes;
  staging.told = false;
  task.buffered_bytes = 0;
  TellStaged(slot);
  return !staging.empty();
}

void Interleaver::TellStaged(size_t slot) {
  const Staging& staging = staged_[slot];
  internal::FileTask& task = *slots_[slot];
  task.staged_records = staging.records.size() - staging.next;
  task.staged_bytes = staging.bytes;
  MaybeQueue(slots_[slot]);
}

void Interleaver::FlushPending(std::vector<StreamEvent>* log) {
  if (log != nullptr) log->insert(log->end(), pending_events_.begin(), pending_events_.end());
  pending_events_.clear();
}

void Interleaver::TakeStaged(size_t slot, Record* out, std::vector<StreamEvent>* log) {
  Staging& staging = staged_[slot];
  Record& record = staging.records[staging.next++];
  staging.bytes -= record.data.size();
  ++block_index_;
  const bool block_done = block_index_ == options_.block_length;
  if (options_.deterministic) {
    if (!pending_events_.empty()) FlushPending(log);
    if (log != nullptr) {
      StreamEvent& e = log->emplace_back();
      e.kind = StreamEvent::Kind::kTake;
      e.slot = static_cast<uint32_t>(slot);
      e.source = record.source;
      e.a = record.data.size() + tfrecord::kFramingOverhead;
      // The cursor after this record.
      e.cycle_index = block_done ? (slot + 1) % slots_.size() : slot;
      e.block_index = block_done ? 0 : block_index_;
    }
  }
  *out = std::move(record);
  if (block_done) AdvanceToNextSlot();
  // Half used: the reader side learns how much is left, so that the file reads ahead again
  // while the rest is handed out.
  const size_t left = staging.records.size() - staging.next;
  if (!staging.told && left <= options_.file_buffer_records / 2 &&
      staging.bytes <= options_.file_buffer_bytes / 2) {
    staging.told = true;
    std::lock_guard<std::mutex> lock(mu_);
    TellStaged(slot);
  }
}

bool Interleaver::NextInOrder(Record* out, Status* status, std::vector<StreamEvent>* log) {
  const size_t cycle = slots_.size();
  while (true) {
    // The slot whose turn it is: the current one, or the next occupied one (empty slots only
    // remain once the file list is used up, and are skipped as in tf.data).
    size_t i = 0;
    while (i < cycle && !slots_[(cycle_index_ + i) % cycle]) ++i;
    if (i == cycle) {
      *status = Status::OK();
      FlushPending(log);  // the steps after the epoch's last record (files found empty, slots emptied)
      return false;
    }
    if (i > 0) {
      cycle_index_ = (cycle_index_ + i) % cycle;
      block_index_ = 0;
    }
    const size_t slot = cycle_index_;
    if (!staged_[slot].empty()) {
      TakeStaged(slot, out, log);
      return true;
    }
    std::unique_lock<std::mutex> lock(mu_);
    if (Stopped(status)) return false;
    if (Restage(slot)) continue;
    const internal::FileTask& task = *slots_[slot];
    if (!task.finished) {
      awaited_ = &task;
      consumer_waiting_ = true;
      WakeReaders();
      data_cv_.wait(lock);
      consumer_waiting_ = false;
      continue;
    }
    if (!task.status.ok()) {
      error_ = task.status;
      CancelLocked();
      *status = error_;
      return false;
    }
    // Exhausted: the next file takes the slot and the turn passes on.
    slots_[slot] = NextTask();
    AdvanceToNextSlot();
    LogAssign(slot);
  }
}

bool Interleaver::NextAnyReady(Record* out, Status* status) {
  const size_t cycle = slots_.size();
  while (true) {
    // Up to block_length records from a slot, starting at the current one, that has some staged.
    for (size_t i = 0; i < cycle; ++i) {
      const size_t slot = (cycle_index_ + i) % cycle;
      if (!slots_[slot] || staged_[slot].empty()) continue;
      if (i > 0) {
        cycle_index_ = slot;
        block_index_ = 0;
      }
      TakeStaged(slot, out, nullptr);
      return true;
    }
    // None staged: take what the readers have buffered, replacing finished files.
    std::unique_lock<std::mutex> lock(mu_);
    if (Stopped(status)) return false;
    bool any_open = false;
    bool progress = false;
    for (size_t slot = 0; slot < cycle; ++slot) {
      if (!slots_[slot]) continue;
      any_open = true;
      if (Restage(slot)) {
        progress = true;
      } else if (slots_[slot]->finished) {
        if (!slots_[slot]->status.ok()) {  // normally raised by its reader thread already
          if (error_.ok()) error_ = slots_[slot]->status;
          CancelLocked();
          *status = error_;
          return false;
        }
        slots_[slot] = NextTask();
        progress = true;
      }
    }
    if (!any_open) {
      *status = Status::OK();
      return false;
    }
    if (progress) continue;
    awaited_ = nullptr;
    consumer_waiting_ = true;
    WakeReaders();
    data_cv_.wait(lock);
    consumer_waiting_ = false;
  }
}

bool Interleaver::Next(Record* out, Status* status, std::vector<StreamEvent>* log) {
  // An error or Shutdown is seen at once, not only when the staged records run out.
  if (stopping_.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(mu_);
    if (Stopped(status)) return false;
  }
  const bool more = options_.deterministic ? NextInOrder(out, status, log) : NextAnyReady(out, status);
  if (!defer_wakes_ && owed_wakes_.load(std::memory_order_relaxed) > 0) WakeReaders();
  return more;
}

}  // namespace tfq::pipeline
