// Interleaver: tf.data's parallel interleave over TFRecord files.
//
// `cycle_length` files are open at once, each in a slot of the cycle; the consumer takes
// `block_length` consecutive records from a slot, then moves to the next slot. A fixed pool of
// reader threads reads ahead into a bounded buffer per open file.
//
// Deterministic order is exactly tf.data's `interleave` (and `ParallelInterleave` with
// deterministic=True): the first files fill slots 0..cycle_length-1 in list order; when the
// consumer finds the file of the current slot exhausted, the next unopened file takes that slot
// and the turn passes to the next slot (so the new file's first block comes one round later);
// once the list is used up, empty slots are skipped. An empty file thus costs a turn and
// produces nothing. The consumer waits for the slot whose turn it is, however far other files
// have read ahead.
//
// Non-deterministic mode takes up to `block_length` records from the first slot, starting at the
// current one, that has records ready: faster when files are uneven or slow, same multiset.
//
// Errors: an unreadable file or corrupt record ends that file; in deterministic mode the error
// takes its place in the order (the consumer gets every record before it first), in
// non-deterministic mode it is returned at once. Either way it then stops the reader threads.
// With OnError::kSkip nothing stops: problems are counted (skip_stats()).
//
// Look-ahead: the next cycle_length files of the list (after those in slots) are opened and read
// one burst ahead, as tf.data's interleave prefetches its future input elements, so that a file
// taking a slot has records at once instead of stalling the consumer while it opens (with small
// shards that stall was a third of the time). It changes no order: a file still takes a slot
// exactly when it would without look-ahead.
//
// Hand-over: a reader thread appends its burst to the file's buffer under the mutex; the consumer
// takes a file's whole buffer at once (a swap, under the mutex) into that slot's staging, and hands
// records out of the staging without the mutex. So the one thread that runs the record stages
// takes the mutex about twice per file_buffer_records / 2 records of a file, and moves no record
// while holding it (docs/benchmarks.md, "reader-batcher").
//
// Memory: at most cycle_length * file_buffer_records records are buffered, staging included (and
// per file at most file_buffer_bytes plus one record), plus for the look-ahead files cycle_length *
// kLookAheadRecords records (at most kLookAheadBytes plus one record each).
//
// Exact resume (deterministic mode): every step that moves the cycle (a file taking a slot, a
// record taken from a slot) is logged as a StreamEvent, handed to Next's caller with the record
// it precedes, and StartEpoch can begin an epoch at a saved InterleavePosition.
//
// Thread safety: StartEpoch and Next are called from one consumer thread. Shutdown and
// skip_stats may be called from any thread; Shutdown makes a blocked Next return kCancelled.
#ifndef TFQ_PIPELINE_INTERLEAVE_H_
#define TFQ_PIPELINE_INTERLEAVE_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/status.h"
#include "pipeline/file_reading.h"
#include "pipeline/options.h"
#include "pipeline/record.h"
#include "pipeline/record_block_pool.h"
#include "pipeline/stream_state.h"

namespace tfq::pipeline {

class Interleaver {
 public:
  // What a look-ahead file buffers before it takes a slot: one reader burst.
  static constexpr size_t kLookAheadRecords = 32;
  static constexpr size_t kLookAheadBytes = size_t{1} << 20;

  // `files` must outlive the Interleaver. Starts the reader threads, which wait for an epoch.
  Interleaver(const std::vector<std::string>* files, const ReadOptions& options);
  ~Interleaver();  // Shutdown()
  Interleaver(const Interleaver&) = delete;
  Interleaver& operator=(const Interleaver&) = delete;

  // Begins reading the files `order` (indices into files) as epoch `epoch`, abandoning whatever
  // is left of the previous epoch; at the saved cursor `from` instead of the beginning if given.
  void StartEpoch(std::vector<uint32_t> order, uint32_t epoch, const InterleavePosition* from = nullptr);

  // Moves the next record of the epoch into *out and returns true; or returns false with *status
  // OK at the end of the epoch, the error that stopped reading, or kCancelled after Shutdown.
  // After an error every call returns it again. In deterministic mode the steps up to and
  // including this record's kTake (or, at the end, the rest) are appended to *log if given.
  bool Next(Record* out, Status* status, std::vector<StreamEvent>* log = nullptr);

  // Reader threads that Next has queued work for are woken before it returns, unless deferred:
  // then by WakeReaders (and always before Next waits for them). For a caller that takes records
  // in runs on a thread others wait for (the pipeline's turn to fill a chunk), so that the
  // wake-ups' system calls fall after the run, outside the turn. Set before the first Next.
  void DeferWakes(bool defer) { defer_wakes_ = defer; }
  // Any thread.
  void WakeReaders();

  // Stops and joins the reader threads (promptly: each finishes at most one burst of reading).
  // Idempotent; safe from any thread, also while another thread is blocked in Next.
  void Shutdown();

  SkipStats skip_stats() const;

 private:
  using Task = std::shared_ptr<internal::FileTask>;

  // A file's records on the consumer's side: taken from its buffer at once, handed out one by one.
  struct Staging {
    std::vector<Record> records;
    size_t next = 0;     // the first not handed out
    size_t bytes = 0;    // of the records not handed out
    bool told = false;   // the reader side was told the staging is half used (since the last restage)
    bool empty() const { return next == records.size(); }
  };

  void ReaderLoop();
  // Appends a burst to the task's buffer; under mu_.
  void Deliver(internal::FileTask* task, std::vector<Record>* burst);
  // Records held for the task (its buffer and, for a slot's file, its staging) reach the limits.
  bool Full(const internal::FileTask& task) const;
  // Queues the task for reading if it is idle, unfinished and below its low-water mark.
  void MaybeQueue(const Task& task);
  // The next file of the epoch for a slot (the first look-ahead file), or null when the list is
  // used up; then tops the look-ahead up.
  Task NextTask();
  void TopUpLookAhead();
  // Under mu_, with the slot's staging used up: moves the slot's file buffer into it. True if it
  // now holds records.
  bool Restage(size_t slot);
  // Under mu_: tells the slot's file how much its staging still holds, and queues it for reading
  // if that leaves it below its low-water mark.
  void TellStaged(size_t slot);
  // Hands the next staged record of `slot` out (no lock, but for telling the reader side once the
  // staging is half used), logging its kTake, and moves the cursor on.
  void TakeStaged(size_t slot, Record* out, std::vector<StreamEvent>* log);
  bool NextInOrder(Record* out, Status* status, std::vector<StreamEvent>* log);
  bool NextAnyReady(Record* out, Status* status);
  // Log, in deterministic mode: what slot `slot` holds now, with the cursor as it is now (into
  // pending_events_, handed on before the next record's kTake or at the end).
  void LogAssign(size_t slot);
  void FlushPending(std::vector<StreamEvent>* log);
  void AdvanceToNextSlot();
  // A reader thread is to be woken for work queued (by WakeReaders, or at the end of Next).
  void OweWake();
  // After an error or Shutdown: what every call returns (under mu_).
  bool Stopped(Status* status) const;
  void CancelLocked();

  const std::vector<std::string>* const files_;
  const ReadOptions options_;
  internal::ReadContext context_;

  mutable std::mutex mu_;
  std::condition_variable work_cv_;  // reader threads: work queued or cancelled
  std::condition_variable data_cv_;  // consumer: records or an end in the awaited file
  std::deque<Task> work_;
  // The cycle; null: no file (list used up). Changed by the consumer under mu_, so the consumer
  // reads it without (reader threads never do).
  std::vector<Task> slots_;
  std::vector<uint32_t> order_;
  size_t next_in_order_ = 0;          // the next file of order_ to take a slot
  std::deque<Task> look_ahead_;       // order_[next_in_order_...], opened before taking a slot
  size_t cycle_index_ = 0;            // the cursor: the consumer's alone
  size_t block_index_ = 0;
  uint32_t epoch_ = 0;
  const internal::FileTask* awaited_ = nullptr;  // what the consumer waits for (deterministic)
  bool consumer_waiting_ = false;
  bool cancelled_ = false;
  std::atomic<bool> stopping_{false};  // cancelled_, for reader threads in the middle of a burst
  std::atomic<size_t> owed_wakes_{0};  // work queued since the last WakeReaders
  bool defer_wakes_ = false;
  Status error_;                      // the error returned by Next, once one happened
  SkipStats skips_;

  // The consumer's side, touched only by the thread calling StartEpoch and Next: a staging per
  // slot, and the kAssign steps not yet handed to a log.
  std::vector<Staging> staged_;
  std::vector<StreamEvent> pending_events_;

  std::shared_ptr<RecordBlockPool> pool_;  // the readers' bursts
  std::mutex join_mu_;  // serializes Shutdown
  std::vector<std::thread> threads_;
};

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_INTERLEAVE_H_
