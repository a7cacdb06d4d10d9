#include "pipeline/pipeline.h"

#include <algorithm>
#include <utility>

#include "common/cpus.h"
#include "io/glob.h"

namespace tfq::pipeline {
namespace {

// A chunk is what a parse thread takes from the record stages, which one thread at a time may
// do: each take passes that turn to the next thread with a wake-up (tens of microseconds), so the
// chunks grow with the thread count, kChunkRecordsPerThread records per parse thread up to
// kMaxChunkRecords (at 16 threads, chunks of 64 records ran the pipeline at 0.29x its parser,
// chunks of 1024 at 0.49x; docs/benchmarks.md). Chunks are whole batches, and one ends early,
// at a batch boundary, once it holds kMaxChunkBytes of records (large records need no help to
// amortize the turn, and the bytes in flight stay bounded).
constexpr size_t kChunkRecordsPerThread = 64;
constexpr size_t kMaxChunkRecords = 1024;
constexpr size_t kMaxChunkBytes = size_t{8} << 20;

size_t ParseThreadCount(const PipelineOptions& options) {
  if (options.parse_threads > 0) return options.parse_threads;
  return static_cast<size_t>(UsableCpus());
}

size_t ChunkRecords(size_t batch_size, size_t parse_threads) {
  const size_t wanted = std::min(kMaxChunkRecords, kChunkRecordsPerThread * std::max<size_t>(1, parse_threads));
  if (batch_size >= wanted) return batch_size;
  return batch_size * ((wanted + batch_size - 1) / batch_size);
}

}  // namespace

// What a saved state depends on: the options that decide which records come in which batches,
// and the files (FNV-1a over a canonical text of them). Thread counts and buffer sizes do not
// change the order in deterministic mode, so a state may be resumed with other ones.
uint64_t Fingerprint(const PipelineOptions& o, const std::vector<std::string>& files) {
  const ReadOptions& r = o.read;
  std::string text;
  for (const std::string& f : files) text += f + '\n';
  for (uint64_t v : {uint64_t(r.compression), r.file_shard.count, r.file_shard.index,
                     uint64_t(r.shuffle_files), uint64_t(r.cycle_length), uint64_t(r.block_length),
                     r.record_shard.count, r.record_shard.index, r.rank, r.world_size,
                     uint64_t(r.rank_split), uint64_t(r.rank_balance), uint64_t(r.shuffle_buffer_size),
                     r.seed, uint64_t(r.reshuffle_each_epoch), uint64_t(r.epochs), uint64_t(r.on_error),
                     uint64_t(o.batch_size), uint64_t(o.drop_remainder)}) {
    text += std::to_string(v) + ',';
  }
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

Result<std::unique_ptr<Pipeline>> Pipeline::Open(const PipelineOptions& options) {
  TFQ_RETURN_IF_ERROR(ValidatePipelineOptions(options));
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<RecordStream> stream, RecordStream::Open(options.read));
  return std::unique_ptr<Pipeline>(new Pipeline(options, std::move(stream), nullptr));
}

Result<std::unique_ptr<Pipeline>> Pipeline::Open(const PipelineOptions& options,
                                                 const std::string& state_text) {
  TFQ_RETURN_IF_ERROR(ValidatePipelineOptions(options));
  if (!options.read.deterministic) {
    return Status::InvalidArgument("pipeline: resuming from a state needs deterministic order");
  }
  TFQ_ASSIGN_OR_RETURN(PipelineState state, PipelineStateFromJson(state_text));
  TFQ_ASSIGN_OR_RETURN(std::vector<std::string> files,
                       ExpandInputPaths(options.read.inputs, /*check_existence=*/false));
  if (state.fingerprint != Fingerprint(options, files)) {
    return Status::InvalidArgument(
        "pipeline state: saved by a pipeline with other files or options (inputs, shards, ranks, "
        "shuffling, seed, epochs, batch size); open it with the options it was saved with");
  }
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<RecordStream> stream, RecordStream::Open(options.read, &state.stream));
  std::unique_ptr<Pipeline> pipeline(new Pipeline(options, std::move(stream), &state));
  TFQ_RETURN_IF_ERROR(pipeline->RestorePending(state.pending));
  return pipeline;
}

Pipeline::Pipeline(const PipelineOptions& options, std::unique_ptr<RecordStream> stream,
                   const PipelineState* from)
    : options_(options),
      stream_(std::move(stream)),
      keep_records_(options.keep_records || options.features.empty()),
      chunk_records_(ChunkRecords(options.batch_size, ParseThreadCount(options))),
      piece_rows_(options.bucketing ? chunk_records_ : options.batch_size),
      views_(std::any_of(options.features.begin(), options.features.end(), [](const FeatureSpec& f) {
        return f.dtype == DType::kBytes && f.bytes_layout == BytesLayout::kViews;
      })),
      parse_threads_(ParseThreadCount(options)),
      max_in_flight_(std::max<size_t>(1, parse_threads_ + options.prefetch)),
      batcher_(&options_.features, options.batch_size, options.drop_remainder),
      mirror_(options.read.cycle_length, stream_->options().record_shard, stream_->padding_shard(),
              options.read.shuffle_buffer_size > 1 ? options.read.shuffle_buffer_size : 0) {
  if (options_.bucketing) {
    bucketer_ = std::make_unique<internal::BucketBatcher>(&options_.features, *options_.bucketing);
  }
  // A chunk is filled on one thread at a time while the others wait for their turn: the reader
  // wake-ups it causes are made after the turn is handed on (ParseLoop).
  stream_->DeferWakes(true);
  if (from != nullptr) {
    mirror_.Reset(from->stream);
    batches_ = from->batches;
  }
  if (options.read.deterministic) {
    Result<std::vector<std::string>> files = ExpandInputPaths(options.read.inputs, false);
    if (files.ok()) fingerprint_ = Fingerprint(options, *files);
  }
  parsers_.reserve(parse_threads_);
  for (size_t i = 0; i < parse_threads_; ++i) parsers_.emplace_back([this] { ParseLoop(); });
}

Pipeline::~Pipeline() { Stop(); }

void Pipeline::Stop() {
  stop_requested_.store(true, std::memory_order_release);
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  parse_cv_.notify_all();
  out_cv_.notify_all();
  stream_->Shutdown();  // wakes a parse thread waiting in the stream for records; joins the readers
  std::lock_guard<std::mutex> join_lock(stop_mu_);
  for (std::thread& t : parsers_) {
    if (t.joinable()) t.join();
  }
}

SkipStats Pipeline::skip_stats() const {
  SkipStats stats = stream_->skip_stats();
  std::lock_guard<std::mutex> lock(mu_);
  stats.Merge(parse_skips_);
  return stats;
}

uint64_t Pipeline::max_buffered_records() const {
  const ReadOptions& r = options_.read;
  // Reader buffers (including bursts in progress and what the stream staged from them) and the
  // look-ahead files' first bursts; the shuffle buffer and its incoming record; chunks issued and
  // not yet taken by the consumer; the consumer's pending rows (less than a chunk plus a batch)
  // and the batch it holds.
  return r.cycle_length * (r.file_buffer_records + Interleaver::kLookAheadRecords) +
         r.shuffle_buffer_size + 1 + max_in_flight_ * chunk_records_ + chunk_records_ +
         2 * options_.batch_size;
}

// --- Parse threads: each takes the next chunk from the stream, then parses it. ---

bool Pipeline::FillChunk(RawChunk* chunk, std::unique_lock<std::mutex>* lock) {
  parse_cv_.wait(*lock, [this] {
    return stopping_ || failed_seq_ != kNoFailure || feed_done_ ||
           (!filling_ && issued_ - consumed_ < max_in_flight_);
  });
  if (stopping_ || failed_seq_ != kNoFailure || feed_done_) return false;
  filling_ = true;
  chunk->seq = issued_++;
  lock->unlock();
  chunk->records.clear();
  chunk->ordinals.clear();
  chunk->log.clear();
  Record record;
  bool ended = false;
  size_t bytes = 0;
  while (chunk->records.size() < chunk_records_) {
    if (!stream_->Next(&record, &chunk->log)) {
      ended = true;
      break;
    }
    bytes += record.data.size();
    chunk->records.push_back(std::move(record));
    chunk->ordinals.push_back(chunk->log.empty() ? 0 : chunk->log.back().a);  // its kOutput
    if (bytes >= kMaxChunkBytes && chunk->records.size() % options_.batch_size == 0) break;
  }
  lock->lock();
  filling_ = false;
  if (ended) {
    feed_done_ = true;
    feed_status_ = stream_->status();
    if (chunk->records.empty()) --issued_;  // nothing to parse: the chunk is not issued after all
    out_cv_.notify_all();
    parse_cv_.notify_all();  // every parse thread waiting may stop
  } else {
    // Only one thread can take the next chunk: waking them all (16 on a 16-core machine, some
    // 30,000 times a second) only makes them fight for the mutex.
    parse_cv_.notify_one();
  }
  return !chunk->records.empty();
}

Batch* Pipeline::NextBatch(ParsedChunk* parsed, std::vector<Batch>* spare) {
  Batch& batch = parsed->batches.emplace_back();
  if (!spare->empty()) {
    batch = std::move(spare->back());
    spare->pop_back();
  }
  internal::ResetBatch(options_.features, &batch);
  return &batch;
}

void Pipeline::ParseChunk(ExampleParser* parser, RawChunk* raw, std::vector<Batch>* spare,
                          ParsedChunk* parsed, SkipStats* skips) {
  Batch* batch = nullptr;
  std::vector<internal::ColumnMark> marks;
  for (size_t i = 0; i < raw->records.size(); ++i) {
    const Record& record = raw->records[i];
    if (batch == nullptr || batch->rows == piece_rows_) batch = NextBatch(parsed, spare);
    if (!options_.features.empty()) {
      if (bucketer_) internal::MarkColumns(*batch, &marks);
      Status status = parser->AppendRow(record.data, batch);
      if (status.ok() && bucketer_) {
        // A row bucketing cannot pad is named here, where its record is known.
        status = bucketer_->CheckRow(*batch, batch->rows);
        if (!status.ok()) internal::RollBackColumns(marks, batch);
      }
      if (!status.ok()) {
        status = status.WithPrefix(DescribeSource(files(), record.source));
        if (options_.read.on_error == OnError::kSkip) {
          ++skips->examples_failed;
          skips->AddMessage(status.message() + "; record skipped");
          continue;
        }
        parsed->status = std::move(status);
        return;
      }
    }
    if (keep_records_) batch->records.emplace_back(record.data);
    if (views_ && (batch->blocks.empty() || batch->blocks.back() != record.block)) {
      batch->blocks.push_back(record.block);  // what the row's kViews values point into
    }
    batch->sources.push_back(record.source);
    batch->ordinals.push_back(raw->ordinals[i]);
    ++batch->rows;
  }
}

void Pipeline::ParseLoop() {
  ExampleParser parser(&options_.features);
  SkipStats skips;
  RawChunk raw;
  raw.records.reserve(chunk_records_);
  std::vector<Batch> spare;  // handed-back batch memory for this thread's next chunk
  std::unique_lock<std::mutex> lock(mu_);
  while (FillChunk(&raw, &lock)) {
    // The batches this chunk fills, taken while the lock is held anyway (not one lock per batch).
    const size_t batches = raw.records.size() / piece_rows_ + 1;
    while (spare.size() < batches && !spare_.empty()) {
      spare.push_back(std::move(spare_.back()));
      spare_.pop_back();
    }
    lock.unlock();
    stream_->WakeReaders();
    ParsedChunk parsed;
    parsed.seq = raw.seq;
    // A global shuffle hands out positions; each parse thread reads its own chunk's records.
    const Status fetched =
        stream_->needs_fetch() ? stream_->Fetch(&raw.records, &raw.ordinals, &skips) : Status::OK();
    ParseChunk(&parser, &raw, &spare, &parsed, &skips);
    if (parsed.status.ok() && !fetched.ok()) parsed.status = fetched;  // after the rows before it
    parsed.log.swap(raw.log);
    raw.records.clear();  // releases the record blocks for the readers to reuse
    lock.lock();
    if (!spare_logs_.empty()) {  // a replayed log's capacity for the next chunk's steps
      raw.log = std::move(spare_logs_.back());
      spare_logs_.pop_back();
    }
    if (!skips.empty()) {
      parse_skips_.Merge(skips);
      skips = SkipStats();
    }
    if (!parsed.status.ok() && parsed.seq < failed_seq_) {
      failed_seq_ = parsed.seq;
      parse_cv_.notify_all();
    }
    parsed_.emplace(parsed.seq, std::move(parsed));
    out_cv_.notify_one();
  }
}

// --- The consumer. ---

Pipeline::Take Pipeline::TakeChunk(ParsedChunk* chunk, Status* end_status,
                                   std::chrono::steady_clock::time_point deadline) {
  // Handed-back batches go to the parse threads.
  std::unique_lock<std::mutex> lock(mu_);
  for (Batch& batch : consumer_spare_) {
    if (spare_.size() >= max_in_flight_ * (chunk_records_ / options_.batch_size + 1)) break;
    spare_.push_back(std::move(batch));
  }
  consumer_spare_.clear();
  for (std::vector<StreamEvent>& log : spent_logs_) {
    if (spare_logs_.size() >= max_in_flight_ + parse_threads_) break;
    spare_logs_.push_back(std::move(log));
  }
  spent_logs_.clear();
  while (true) {
    if (stopping_) return Take::kStopped;
    // In order, only the next chunk will do; otherwise any parsed one.
    auto it = options_.read.deterministic ? parsed_.find(consumed_) : parsed_.begin();
    if (it != parsed_.end()) {
      *chunk = std::move(it->second);
      parsed_.erase(it);
      ++consumed_;
      parse_cv_.notify_one();
      return Take::kChunk;
    }
    if (feed_done_ && consumed_ == issued_) {
      *end_status = feed_status_;
      return Take::kEnd;
    }
    if (deadline == std::chrono::steady_clock::time_point::max()) {
      out_cv_.wait(lock);
    } else {
      if (std::chrono::steady_clock::now() >= deadline) return Take::kTimeout;
      out_cv_.wait_until(lock, deadline);
    }
  }
}

void Pipeline::Finish(Status status) {
  status_ = std::move(status);
  finished_ = true;
  Stop();
}

void Pipeline::AdvanceMirror(uint64_t ordinal) {
  // The steps up to and including the delivery of row `ordinal`; those after it lead to the
  // next row, which the consumer has not had.
  while (!backlog_.empty()) {
    const StreamEvent& e = backlog_.front();
    if (e.kind == StreamEvent::Kind::kOutput && e.a > ordinal) break;
    mirror_.Apply(e);
    const bool last = e.kind == StreamEvent::Kind::kOutput && e.a == ordinal;
    backlog_.PopFront(&spent_logs_);
    if (last) break;
  }
}

Result<std::string> Pipeline::SaveState() const { return SaveStateAfter(batches_delivered()); }

uint64_t Pipeline::batches_delivered() const {
  std::lock_guard<std::mutex> lock(mirror_mu_);
  return batches_;
}

void Pipeline::NoteHandedOut(const Batch& batch) {
  ++batches_;
  HandedOut& h = handed_.emplace_back();
  h.last_ordinal = batch.ordinals.empty() ? 0 : batch.ordinals.back();
  if (bucketer_) h.sources = batch.sources;
  while (handed_.size() > kStateWindow) {
    if (!bucketer_) AdvanceMirror(handed_.front().last_ordinal);
    handed_.pop_front();
  }
}

Result<std::string> Pipeline::SaveStateAfter(uint64_t batches) const {
  if (!options_.read.deterministic) {
    return Status::InvalidArgument(
        "pipeline: no state to save in non-deterministic order (set deterministic to resume)");
  }
  std::lock_guard<std::mutex> lock(mirror_mu_);
  const uint64_t unconsumed = batches_ >= batches ? batches_ - batches : ~uint64_t{0};
  if (unconsumed > handed_.size()) {
    return Status::InvalidArgument("pipeline: no state after batch " + std::to_string(batches) + " (" +
                                   std::to_string(batches_) + " handed out; the last " +
                                   std::to_string(kStateWindow) + " can be saved)");
  }
  PipelineState state;
  state.fingerprint = fingerprint_;
  state.batches = batches;
  StreamMirror mirror = mirror_;
  if (bucketer_) {
    // The mirror is at the last row bucketing took in; the rows of the batches not consumed go
    // back first, then what the bucketer holds.
    if (unconsumed == 0 && ended_clean_) mirror.MarkDone();
    state.stream = mirror.state();
    for (size_t i = handed_.size() - unconsumed; i < handed_.size(); ++i) {
      state.pending.push_back(handed_[i].sources);
    }
    for (std::vector<RecordSource>& waiting : bucketer_->WaitingSources()) {
      state.pending.push_back(std::move(waiting));
    }
    for (std::vector<RecordSource>& bucket : bucketer_->PendingSources()) {
      if (!bucket.empty()) state.pending.push_back(std::move(bucket));
    }
  } else {
    // Replay, on a copy, the steps up to the last row consumed: that of batch `batches`.
    const bool all = unconsumed == 0 && ended_clean_;
    const size_t consumed_in_window = handed_.size() - unconsumed;
    if (consumed_in_window > 0 || all) {
      const uint64_t target = all ? ~uint64_t{0} : handed_[consumed_in_window - 1].last_ordinal;
      backlog_.ForEach([&](const StreamEvent& e) {
        if (e.kind == StreamEvent::Kind::kOutput && e.a > target) return false;
        mirror.Apply(e);
        return !(e.kind == StreamEvent::Kind::kOutput && e.a == target);
      });
    }
    if (all) mirror.MarkDone();
    state.stream = mirror.state();
  }
  return PipelineStateToJson(state);
}

void Pipeline::AddToBatcher(Batch chunk) {
  if (!bucketer_) {
    batcher_.Add(std::move(chunk));
    return;
  }
  // Bucketing hands rows out of stream order, so the saved position is that of the last row it
  // took in, and the rows it holds are saved with it (RestorePending).
  const uint64_t last = chunk.rows > 0 ? chunk.ordinals.back() : 0;
  const bool any = chunk.rows > 0;
  std::lock_guard<std::mutex> lock(mirror_mu_);
  bucketer_->Add(std::move(chunk));
  if (any) AdvanceMirror(last);
}

bool Pipeline::PopFull(Batch* out) {
  std::lock_guard<std::mutex> lock(mirror_mu_);
  const bool popped = bucketer_ ? bucketer_->PopFull(out, &consumer_spare_)
                                : batcher_.PopFull(out, &consumer_spare_);
  if (popped) NoteHandedOut(*out);
  return popped;
}

bool Pipeline::PopRemainder(Batch* out) {
  std::lock_guard<std::mutex> lock(mirror_mu_);
  const bool popped = bucketer_ ? bucketer_->PopRemainder(out, &consumer_spare_)
                                : batcher_.PopRemainder(out, &consumer_spare_);
  if (popped) NoteHandedOut(*out);
  return popped;
}

Status Pipeline::RestorePending(const std::vector<std::vector<RecordSource>>& pending) {
  if (pending.empty()) return Status::OK();
  if (!bucketer_) return Status::InvalidArgument("pipeline state: holds rows for bucketing");
  ExampleParser parser(&options_.features);
  for (const std::vector<RecordSource>& group : pending) {
    std::vector<Record> records;
    TFQ_RETURN_IF_ERROR(stream_->Refetch(group, &records));
    Batch batch;
    internal::ResetBatch(options_.features, &batch);
    for (const Record& record : records) {
      Status s = parser.AppendRow(record.data, &batch);
      if (!s.ok()) return s.WithPrefix(DescribeSource(files(), record.source));
      if (views_) batch.blocks.push_back(record.block);
      batch.sources.push_back(record.source);
      batch.ordinals.push_back(0);
      if (keep_records_) batch.records.emplace_back(record.data);
      ++batch.rows;
    }
    bucketer_->Add(std::move(batch));
  }
  return Status::OK();
}

bool Pipeline::Next(Batch* out) {
  return NextFor(out, std::chrono::milliseconds::max()) == Wait::kBatch;
}

Pipeline::Wait Pipeline::NextFor(Batch* out, std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point now = Clock::now();
  const Clock::time_point deadline =
      timeout >= std::chrono::duration_cast<std::chrono::milliseconds>(Clock::time_point::max() - now)
          ? Clock::time_point::max()
          : now + timeout;
  if (finished_) return Wait::kEnd;
  while (true) {
    if (stop_requested_.load(std::memory_order_acquire)) {
      Finish(Status::Cancelled("pipeline stopped"));
      return Wait::kEnd;
    }
    if (PopFull(out)) return Wait::kBatch;
    if (ending_) {
      if (PopRemainder(out)) return Wait::kBatch;
      if (end_status_.ok()) {  // a clean end: the state says so
        std::lock_guard<std::mutex> lock(mirror_mu_);
        ended_clean_ = true;
      }
      Finish(std::move(end_status_));
      return Wait::kEnd;
    }
    ParsedChunk chunk;
    switch (TakeChunk(&chunk, &end_status_, deadline)) {
      case Take::kChunk:
        {
          std::lock_guard<std::mutex> lock(mirror_mu_);
          backlog_.Append(std::move(chunk.log));
        }
        for (Batch& batch : chunk.batches) AddToBatcher(std::move(batch));
        if (!chunk.status.ok()) {
          ending_ = true;
          end_status_ = std::move(chunk.status);
        }
        break;
      case Take::kEnd:
        ending_ = true;
        break;
      case Take::kStopped:
        Finish(Status::Cancelled("pipeline stopped"));
        return Wait::kEnd;
      case Take::kTimeout:
        return Wait::kTimeout;
    }
  }
}

}  // namespace tfq::pipeline
