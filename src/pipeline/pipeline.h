// Pipeline: a tf.data-like input pipeline over TFRecord files of tf.train.Examples, with the
// reading, mixing, parsing and batching done on background threads (docs/pipeline.md).
//
//   PipelineOptions options;
//   options.read.inputs = {"data/train-*.tfrecord"};
//   options.read.cycle_length = 4;
//   options.read.shuffle_buffer_size = 10000;
//   options.read.epochs = 3;
//   options.batch_size = 32;
//   options.features = {FixedLenInt64("label", 1, {-1}), VarLenFloat("scores")};
//   TFQ_ASSIGN_OR_RETURN(std::unique_ptr<Pipeline> pipeline, Pipeline::Open(options));
//   Batch batch;
//   while (pipeline->Next(&batch)) Train(batch);
//   if (!pipeline->status().ok()) return pipeline->status();
//
// Threads: the reader pool (interleave) and the parse pool; both are started by Open and joined by
// Stop or the destructor. A parse thread takes the next chunk of whole batches from the record
// stages itself (record shard, shuffle buffer, repeat; one thread at a time, in chunk order) and
// parses it while the next thread takes the following chunk, so no record changes threads
// between the readers and the batch it ends in. Every queue is bounded; no thread spins.
//
// Order: with read.deterministic (the default) the batches are the same for the same inputs,
// options and seed, whatever the thread counts and timing. Otherwise the readers and the parse
// pool hand on whatever is ready first: same multiset of records, any order.
//
// Errors: an error (unreadable file, corrupt record, an Example that does not fit the features)
// ends the stream at its position; everything before it is delivered as at a normal end
// (including a final short batch unless drop_remainder), then Next returns false and status()
// names the file, record and byte offset. In deterministic mode the error reported is the one
// with the lowest position, whatever thread met it first. With read.on_error = kSkip bad records
// and files are dropped and counted instead (skip_stats()).
//
// Exact resume (deterministic order): SaveState returns the pipeline's position after the last
// batch Next handed out, as JSON text; Open(options, state) on a new pipeline with the same options
// and files yields exactly the batches this one would have yielded next (docs/pipeline.md).
//
// Thread safety: Next and status are for one consumer thread. Stop, skip_stats, files and
// max_buffered_records may be called from any thread; Stop makes a Next blocked on another
// thread return false (status kCancelled). Destroying the pipeline while another thread is
// inside Next is not allowed.
#ifndef TFQ_PIPELINE_PIPELINE_H_
#define TFQ_PIPELINE_PIPELINE_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/status.h"
#include "pipeline/batch.h"
#include "pipeline/batcher.h"
#include "pipeline/bucket_batcher.h"
#include "pipeline/example_parser.h"
#include "pipeline/options.h"
#include "pipeline/record.h"
#include "pipeline/record_stream.h"
#include "pipeline/stream_state.h"

namespace tfq::pipeline {

class Pipeline {
 public:
  // Validates the options, expands the inputs and starts every thread; reading begins at once.
  static Result<std::unique_ptr<Pipeline>> Open(const PipelineOptions& options);
  // Continues from `state`, the text SaveState returned (kInvalidArgument when it does not
  // parse, or was saved with other options or files).
  static Result<std::unique_ptr<Pipeline>> Open(const PipelineOptions& options,
                                                const std::string& state);
  ~Pipeline();  // Stop()
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // Replaces *batch with the next batch and returns true (*batch's memory may be reused for later
  // batches); or returns false at the end, on error, or after Stop, and status() tells which.
  bool Next(Batch* batch);
  // Next that gives up after `timeout` when no batch is ready: kTimeout, with nothing taken and
  // *batch as it was (call again). For a consumer that must get control back while it waits (the
  // Python binding runs Ctrl-C handlers between waits).
  enum class Wait { kBatch, kEnd, kTimeout };
  Wait NextFor(Batch* batch, std::chrono::milliseconds timeout);
  // OK after a normal end; the error; kCancelled after Stop. Meaningful once Next returned false.
  const Status& status() const { return status_; }

  // The position after the last batch Next returned (or the end), as JSON text of a few hundred
  // bytes plus about 40 per record in the shuffle buffer. kInvalidArgument in
  // non-deterministic mode, where no position can be replayed. Any thread.
  Result<std::string> SaveState() const;
  // The position after the first `batches` batches Next returned since the pipeline began (counting
  // those of the state it was opened from): for a consumer that hands batches on through a queue
  // and saves where its own consumer is. At most kStateWindow batches back; kInvalidArgument else.
  static constexpr size_t kStateWindow = 16;
  Result<std::string> SaveStateAfter(uint64_t batches) const;
  // Batches Next returned since the pipeline began (counting those of the state it was opened from).
  uint64_t batches_delivered() const;
  // Records per epoch with ranks evened out (ReadOptions::world_size > 1); else RecordStream::kNoQuota.
  uint64_t epoch_quota() const { return stream_->epoch_quota(); }

  // Stops every stage and joins every thread, promptly even when a reader is blocked on a full
  // buffer or the consumer on an empty queue. Idempotent.
  void Stop();

  // What OnError::kSkip dropped so far (also while running).
  SkipStats skip_stats() const;
  // The input files after glob expansion and file sharding; RecordSource::file indexes this list.
  const std::vector<std::string>& files() const { return stream_->files(); }
  // The most records the pipeline holds at once (docs/pipeline.md, "Memory"), with the thread
  // counts resolved. Multiply by the largest record size for a memory bound.
  uint64_t max_buffered_records() const;

 private:
  struct RawChunk {
    uint64_t seq = 0;
    std::vector<Record> records;
    std::vector<uint64_t> ordinals;  // each record's place in the output
    std::vector<StreamEvent> log;    // the record stages' steps that produced the records
  };
  struct ParsedChunk {
    uint64_t seq = 0;
    std::vector<Batch> batches;  // whole batches, then the rows parsed before an error, if any
    std::vector<StreamEvent> log;
    Status status;
  };
  enum class Take { kChunk, kEnd, kStopped, kTimeout };
  static constexpr uint64_t kNoFailure = ~uint64_t{0};

  Pipeline(const PipelineOptions& options, std::unique_ptr<RecordStream> stream,
           const PipelineState* from);
  // Replays the log as far as the row with `ordinal` (under mirror_mu_).
  void AdvanceMirror(uint64_t ordinal);
  // Under mirror_mu_: notes a batch handed out, and moves the mirror up to the window.
  void NoteHandedOut(const Batch& batch);
  // A resumed pipeline's rows that were held for bucketing, read and parsed again and added back.
  Status RestorePending(const std::vector<std::vector<RecordSource>>& pending);
  // The consumer's batcher, plain or bucketing.
  void AddToBatcher(Batch chunk);
  bool PopFull(Batch* out);
  bool PopRemainder(Batch* out);
  // Takes the next chunk of records from the stream (one thread at a time); false when there is
  // nothing more to parse (the end, a failure, or stopping).
  bool FillChunk(RawChunk* chunk, std::unique_lock<std::mutex>* lock);
  void ParseLoop();
  // Parses the chunk into whole batches, their memory from *spare where it has some.
  void ParseChunk(ExampleParser* parser, RawChunk* raw, std::vector<Batch>* spare, ParsedChunk* parsed,
                  SkipStats* skips);
  Batch* NextBatch(ParsedChunk* parsed, std::vector<Batch>* spare);
  // Waits until `deadline` at most (kTimeout).
  Take TakeChunk(ParsedChunk* chunk, Status* end_status, std::chrono::steady_clock::time_point deadline);
  void Finish(Status status);

  const PipelineOptions options_;
  std::unique_ptr<RecordStream> stream_;
  const bool keep_records_;
  const size_t chunk_records_;  // a multiple of batch_size
  const size_t piece_rows_;     // rows per Batch a parse thread fills: batch_size, or with bucketing a chunk
  const bool views_;            // some column is BytesLayout::kViews: batches keep record blocks
  const size_t parse_threads_;
  const size_t max_in_flight_;  // chunks issued and not yet taken by the consumer

  mutable std::mutex mu_;
  std::condition_variable parse_cv_;  // parse threads: the stream is free and a chunk may be issued
  std::condition_variable out_cv_;    // consumer: a parsed chunk, the end, or stopping
  std::map<uint64_t, ParsedChunk> parsed_;
  std::vector<Batch> spare_;  // handed-back batch memory, taken by a parse thread per chunk
  std::vector<std::vector<StreamEvent>> spare_logs_;  // replayed logs' vectors for the chunks' steps
  uint64_t issued_ = 0;
  uint64_t consumed_ = 0;
  bool filling_ = false;              // a parse thread is taking records from the stream
  uint64_t failed_seq_ = kNoFailure;  // lowest chunk whose parsing failed
  bool feed_done_ = false;            // the stream has ended (feed_status_ says how)
  Status feed_status_;
  bool stopping_ = false;
  SkipStats parse_skips_;

  // The consumer's side (Next's thread only).
  internal::Batcher batcher_;
  std::unique_ptr<internal::BucketBatcher> bucketer_;  // instead of batcher_ with bucketing
  // The state's side, guarded by mirror_mu_ (SaveState may run on any thread). The mirror stays
  // kStateWindow batches behind Next, so that a state can be made for any of the last ones.
  struct HandedOut {
    uint64_t last_ordinal;                // of its last row (the plain batcher)
    std::vector<RecordSource> sources;    // its rows (bucketing: saved as pending when unconsumed)
  };
  mutable std::mutex mirror_mu_;
  StreamMirror mirror_;
  StreamBacklog backlog_;               // taken with chunks, not yet replayed
  // Replayed logs, for spare_logs_: filled by AdvanceMirror, which only Next's thread runs.
  std::vector<std::vector<StreamEvent>> spent_logs_;
  std::deque<HandedOut> handed_;        // the last batches handed out, oldest first
  bool ended_clean_ = false;            // Next returned false at a clean end
  uint64_t fingerprint_ = 0;
  uint64_t batches_ = 0;
  std::vector<Batch> consumer_spare_;
  bool ending_ = false;
  Status end_status_;
  bool finished_ = false;
  Status status_;
  std::atomic<bool> stop_requested_{false};

  std::mutex stop_mu_;  // serializes Stop
  std::vector<std::thread> parsers_;
};

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_PIPELINE_H_
