// RecordStream: the record stages of the pipeline, pulled by one consumer thread.
//
//   files (paths, globs) -> shard files -> shuffle files -> parallel interleave (reader threads)
//     -> shard records -> shuffle buffer -> repeat
//
// Usage (also the core of Pipeline, which adds batching and parsing on threads of its own):
//   auto stream = RecordStream::Open(options);            // Result<std::unique_ptr<...>>
//   Record record;
//   while ((*stream)->Next(&record)) Use(record.data);
//   if (!(*stream)->status().ok()) Report((*stream)->status());
//
// Errors: the first error in stream order (unreadable file, corrupt record) ends the stream at its
// position: every record before it is delivered first (with a shuffle buffer, the buffer drains),
// then Next returns false with status() naming the file, record and byte offset. With
// OnError::kSkip nothing ends the stream; skip_stats() counts what was dropped.
//
// Ranks (ReadOptions::rank, world_size): the files or the interleaved records are split between
// ranks, and each epoch delivers exactly `epoch_quota()` records (docs/pipeline.md, "Ranks").
//
// Exact resume: Next logs its steps (StreamEvent) for a StreamMirror, and Open can start from a
// StreamState the mirror made, refetching the records of a saved shuffle buffer by position.
//
// Thread safety: Next and status are for one consumer thread. Shutdown, skip_stats and files
// may be called from any thread; Shutdown makes a Next blocked on the readers return false with
// kCancelled and joins the reader threads.
#ifndef TFQ_PIPELINE_RECORD_STREAM_H_
#define TFQ_PIPELINE_RECORD_STREAM_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "pipeline/index_permutation.h"
#include "pipeline/interleave.h"
#include "pipeline/options.h"
#include "pipeline/record.h"
#include "pipeline/record_block_pool.h"
#include "pipeline/shuffle_buffer.h"
#include "pipeline/stream_state.h"
#include "tfrecord/record_file.h"

namespace tfq::pipeline {

class RecordStream {
 public:
  // Validates the options, expands the inputs and starts the reader threads. Fails with
  // kInvalidArgument for bad options and with ExpandInputPaths' errors (a glob matching nothing).
  // With `from`, the stream continues where the stream that logged it stood.
  static Result<std::unique_ptr<RecordStream>> Open(const ReadOptions& options,
                                                    const StreamState* from = nullptr);
  ~RecordStream();  // Shutdown()

  // Moves the next record into *out; false at the end of the last epoch or on error (status()).
  // In deterministic mode the steps that led to it (ending with its kOutput) are appended to *log.
  bool Next(Record* out, std::vector<StreamEvent>* log = nullptr);
  const Status& status() const { return status_; }

  // As Interleaver::DeferWakes and WakeReaders: with wakes deferred, the reader threads Next
  // queued work for are woken by WakeReaders (any thread) or before Next would wait for them.
  void DeferWakes(bool defer) { interleaver_->DeferWakes(defer); }
  void WakeReaders() { interleaver_->WakeReaders(); }

  void Shutdown();
  SkipStats skip_stats() const { return interleaver_->skip_stats(); }
  // The input files after expansion and file sharding, in list order (RecordSource::file indexes
  // this list). Immutable after Open.
  const std::vector<std::string>& files() const { return files_; }
  // The options in effect: ranks turned into file and record shards.
  const ReadOptions& options() const { return options_; }
  // Global shuffle: the records Next handed out carry only their source; this reads them (into
  // blocks of their own), on the caller's thread, and may run on several threads at once. A
  // record that fails is an error naming it, or with OnError::kSkip dropped and counted.
  bool needs_fetch() const { return options_.global_shuffle; }
  Status Fetch(std::vector<Record>* records, std::vector<uint64_t>* ordinals, SkipStats* skips) const;

  // The records at `sources` read again (a resumed pipeline's rows held for bucketing).
  Status Refetch(const std::vector<RecordSource>& sources, std::vector<Record>* records) const;

  // The record shard of the passes that pad a rank's epoch to the quota.
  const Shard& padding_shard() const { return padding_shard_; }
  // The records each epoch delivers when ranks are evened out; kNoQuota otherwise.
  static constexpr uint64_t kNoQuota = ~uint64_t{0};
  uint64_t epoch_quota() const { return quota_; }

 private:
  RecordStream(const ReadOptions& options, std::vector<std::string> files, uint64_t quota,
               Shard padding_shard, std::vector<std::unique_ptr<tfrecord::RecordFile>> record_files);
  bool PullGlobal(Record* out);   // the next position of the epoch's permutation (global shuffle)
  std::vector<uint32_t> EpochOrder() const;
  void BeginEpoch(bool padding);
  Status Restore(const StreamState& from);
  void Log(const StreamEvent& event) {
    if (log_ != nullptr) log_->push_back(event);
  }
  bool NextInEpoch(Record* out);  // false at the end of the epoch (input_status_ says why)
  bool PullInput(Record* out);    // interleave + record shard
  // Copies the record into a block of its own: a record waiting in the shuffle buffer would
  // otherwise keep its whole burst's block alive, and a large buffer many times its own size.
  void Detach(Record* record);

  const ReadOptions options_;
  const std::vector<std::string> files_;
  std::unique_ptr<Interleaver> interleaver_;
  ShuffleBuffer<Record> shuffle_;
  const bool shuffling_;
  std::shared_ptr<RecordBlockPool> detached_pool_;  // for Detach

  const uint64_t quota_;
  const Shard padding_shard_;     // the record shard of padding passes
  // Global shuffle: every file open for random access, the first global index of each file (and
  // the total at the end), and the epoch's permutation of the global indexes.
  std::vector<std::unique_ptr<tfrecord::RecordFile>> record_files_;
  std::vector<uint64_t> file_starts_;
  std::optional<IndexPermutation> permutation_;
  std::shared_ptr<RecordBlockPool> fetch_pool_;
  uint32_t epoch_ = 0;
  bool in_epoch_ = false;
  bool padding_ = false;          // repeating the epoch to reach the quota
  bool input_done_ = false;       // the epoch's input has ended (shuffle buffer may still hold some)
  Status input_status_;           // why the input ended early
  uint64_t input_index_ = 0;      // interleaved records this epoch, before record sharding
  uint64_t epoch_records_ = 0;    // records delivered this epoch
  Record replacement_;            // scratch for the shuffle buffer
  uint64_t outputs_ = 0;          // records delivered (the ordinals in the log)
  std::vector<StreamEvent>* log_ = nullptr;  // where Next logs, if anywhere
  bool done_ = false;
  Status status_;
};

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_RECORD_STREAM_H_
