#include "pipeline/record_stream.h"

#include <limits>
#include <numeric>
#include <utility>

#include "io/glob.h"
#include "pipeline/random.h"

namespace tfq::pipeline {
namespace {

// Independent random streams derived from the one user seed.
constexpr uint64_t kFileOrderStream = 1;
constexpr uint64_t kShuffleBufferStream = 2;

// Blocks of records that left the shuffle buffer come back for the records entering it; only the
// few in flight between the two are spare at a time.
constexpr size_t kDetachedSpareBlocks = 4096;
constexpr size_t kDetachedSpareBytes = size_t{64} << 20;
constexpr size_t kDetachedMaxBlockBytes = size_t{4} << 20;

}  // namespace

Result<std::unique_ptr<RecordStream>> RecordStream::Open(const ReadOptions& options) {
  TFQ_RETURN_IF_ERROR(ValidateReadOptions(options));
  Result<std::vector<std::string>> expanded = ExpandInputPaths(options.inputs, /*check_existence=*/false);
  if (!expanded.ok()) return expanded.status();
  std::vector<std::string> files;
  for (size_t i = 0; i < expanded->size(); ++i) {
    if (i % options.file_shard.count == options.file_shard.index) {
      files.push_back(std::move((*expanded)[i]));
    }
  }
  if (files.size() > std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument("pipeline: more than 2^32 input files");
  }
  return std::unique_ptr<RecordStream>(new RecordStream(options, std::move(files)));
}

RecordStream::RecordStream(const ReadOptions& options, std::vector<std::string> files)
    : options_(options),
      files_(std::move(files)),
      shuffle_(options.shuffle_buffer_size),
      shuffling_(options.shuffle_buffer_size > 1),
      detached_pool_(RecordBlockPool::Create(kDetachedSpareBlocks, kDetachedSpareBytes,
                                             kDetachedMaxBlockBytes)) {
  interleaver_ = std::make_unique<Interleaver>(&files_, options_);
}

void RecordStream::Detach(Record* record) {
  std::shared_ptr<RecordBlock> block = detached_pool_->Get();
  block->bytes.assign(record->data);
  record->data = block->bytes;
  record->block = std::move(block);
}

RecordStream::~RecordStream() { Shutdown(); }

void RecordStream::Shutdown() { interleaver_->Shutdown(); }

void RecordStream::BeginEpoch() {
  const uint64_t order_epoch = options_.reshuffle_each_epoch ? epoch_ : 0;
  std::vector<uint32_t> order(files_.size());
  std::iota(order.begin(), order.end(), 0u);
  if (options_.shuffle_files) {
    Rng rng(DeriveSeed(options_.seed, kFileOrderStream, order_epoch));
    ShuffleVector(&order, &rng);
  }
  shuffle_.Reset(DeriveSeed(options_.seed, kShuffleBufferStream, order_epoch));
  interleaver_->StartEpoch(std::move(order), epoch_);
  in_epoch_ = true;
  input_done_ = false;
  input_index_ = 0;
  epoch_records_ = 0;
}

bool RecordStream::PullInput(Record* out) {
  if (input_done_) return false;
  Status status;
  while (interleaver_->Next(out, &status)) {
    const uint64_t index = input_index_++;
    if (index % options_.record_shard.count == options_.record_shard.index) {
      if (shuffling_) Detach(out);
      return true;
    }
  }
  input_done_ = true;
  input_status_ = std::move(status);
  return false;
}

bool RecordStream::NextInEpoch(Record* out) {
  if (!shuffling_) return PullInput(out);
  while (!shuffle_.full() && PullInput(&replacement_)) shuffle_.Add(std::move(replacement_));
  // Stopping does not drain the buffer; an error does (the records before it come first).
  if (input_status_.code() == StatusCode::kCancelled || shuffle_.empty()) return false;
  const bool replaced = PullInput(&replacement_);
  shuffle_.Take(out, replaced ? &replacement_ : nullptr);
  return true;
}

bool RecordStream::Next(Record* out) {
  while (!done_) {
    if (!in_epoch_) {
      if (options_.epochs != kRepeatForever && epoch_ >= static_cast<uint64_t>(options_.epochs)) {
        done_ = true;
        break;
      }
      BeginEpoch();
    }
    if (NextInEpoch(out)) {
      ++epoch_records_;
      return true;
    }
    if (!input_status_.ok()) {
      status_ = input_status_;
      done_ = true;
      break;
    }
    in_epoch_ = false;
    // Every epoch reads the same files, so an empty one means the rest are empty too: stop rather
    // than repeat nothing forever (tf.data's repeat() of an empty dataset ends too).
    if (epoch_records_ == 0) {
      done_ = true;
      break;
    }
    ++epoch_;
  }
  return false;
}

}  // namespace tfq::pipeline
