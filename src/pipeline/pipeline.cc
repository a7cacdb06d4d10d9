#include "pipeline/pipeline.h"

#include <algorithm>
#include <utility>

#include "common/cpus.h"

namespace tfq::pipeline {
namespace {

// Chunks are whole batches of at least this many records: small batches would otherwise cost a
// hand-off per batch between threads, which outweighs the parsing of a few records.
constexpr size_t kMinChunkRecords = 64;

size_t ChunkRecords(size_t batch_size) {
  if (batch_size >= kMinChunkRecords) return batch_size;
  return batch_size * ((kMinChunkRecords + batch_size - 1) / batch_size);
}

size_t ParseThreadCount(const PipelineOptions& options) {
  if (options.parse_threads > 0) return options.parse_threads;
  return static_cast<size_t>(UsableCpus());
}

}  // namespace

Result<std::unique_ptr<Pipeline>> Pipeline::Open(const PipelineOptions& options) {
  TFQ_RETURN_IF_ERROR(ValidatePipelineOptions(options));
  Result<std::unique_ptr<RecordStream>> stream = RecordStream::Open(options.read);
  if (!stream.ok()) return stream.status();
  return std::unique_ptr<Pipeline>(new Pipeline(options, std::move(stream).value()));
}

Pipeline::Pipeline(const PipelineOptions& options, std::unique_ptr<RecordStream> stream)
    : options_(options),
      stream_(std::move(stream)),
      keep_records_(options.keep_records || options.features.empty()),
      chunk_records_(ChunkRecords(options.batch_size)),
      parse_threads_(ParseThreadCount(options)),
      max_in_flight_(std::max<size_t>(1, parse_threads_ + options.prefetch)),
      batcher_(&options_.features, options.batch_size, options.drop_remainder) {
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
  // Reader buffers (including bursts in progress) and what the stream took from them at once;
  // the shuffle buffer and its incoming record; chunks issued and not yet taken by the consumer;
  // the consumer's pending rows (less than a chunk plus a batch) and the batch it holds.
  return r.cycle_length * r.file_buffer_records + Interleaver::kTakeRecords +
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
  Record record;
  bool ended = false;
  while (chunk->records.size() < chunk_records_) {
    if (!stream_->Next(&record)) {
      ended = true;
      break;
    }
    chunk->records.push_back(std::move(record));
  }
  lock->lock();
  filling_ = false;
  if (ended) {
    feed_done_ = true;
    feed_status_ = stream_->status();
    if (chunk->records.empty()) --issued_;  // nothing to parse: the chunk is not issued after all
    out_cv_.notify_all();
  }
  parse_cv_.notify_all();
  return !chunk->records.empty();
}

Batch* Pipeline::NextBatch(ParsedChunk* parsed) {
  Batch& batch = parsed->batches.emplace_back();
  if (!spare_.empty()) {
    batch = std::move(spare_.back());
    spare_.pop_back();
  }
  internal::ResetBatch(options_.features, &batch);
  return &batch;
}

void Pipeline::ParseChunk(ExampleParser* parser, RawChunk* raw, ParsedChunk* parsed,
                          SkipStats* skips) {
  Batch* batch = nullptr;
  for (Record& record : raw->records) {
    if (batch == nullptr || batch->rows == options_.batch_size) {
      std::lock_guard<std::mutex> lock(mu_);
      batch = NextBatch(parsed);
    }
    if (!options_.features.empty()) {
      Status status = parser->AppendRow(record.data, batch);
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
    batch->sources.push_back(record.source);
    ++batch->rows;
  }
}

void Pipeline::ParseLoop() {
  ExampleParser parser(&options_.features);
  SkipStats skips;
  RawChunk raw;
  raw.records.reserve(chunk_records_);
  std::unique_lock<std::mutex> lock(mu_);
  while (FillChunk(&raw, &lock)) {
    lock.unlock();
    ParsedChunk parsed;
    parsed.seq = raw.seq;
    ParseChunk(&parser, &raw, &parsed, &skips);
    raw.records.clear();  // releases the record blocks for the readers to reuse
    lock.lock();
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

Pipeline::Take Pipeline::TakeChunk(ParsedChunk* chunk, Status* end_status) {
  // Handed-back batches go to the parse threads.
  std::unique_lock<std::mutex> lock(mu_);
  for (Batch& batch : consumer_spare_) {
    if (spare_.size() >= max_in_flight_ * (chunk_records_ / options_.batch_size + 1)) break;
    spare_.push_back(std::move(batch));
  }
  consumer_spare_.clear();
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
    out_cv_.wait(lock);
  }
}

void Pipeline::Finish(Status status) {
  status_ = std::move(status);
  finished_ = true;
  Stop();
}

bool Pipeline::Next(Batch* out) {
  if (finished_) return false;
  while (true) {
    if (stop_requested_.load(std::memory_order_acquire)) {
      Finish(Status::Cancelled("pipeline stopped"));
      return false;
    }
    if (batcher_.PopFull(out, &consumer_spare_)) return true;
    if (ending_) {
      if (batcher_.PopRemainder(out, &consumer_spare_)) return true;
      Finish(std::move(end_status_));
      return false;
    }
    ParsedChunk chunk;
    switch (TakeChunk(&chunk, &end_status_)) {
      case Take::kChunk:
        for (Batch& batch : chunk.batches) batcher_.Add(std::move(batch));
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
        return false;
    }
  }
}

}  // namespace tfq::pipeline
