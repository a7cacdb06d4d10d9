#include "pipeline/record_stream.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

#include "io/glob.h"
#include "pipeline/file_reading.h"
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

namespace {

// The effective file and record shards of a rank, and the quota that evens the ranks out.
constexpr uint64_t kNoQuota = RecordStream::kNoQuota;
struct RankPlan {
  Shard file_shard;
  Shard record_shard;
  uint64_t quota = 0;
  // The record shard of the padding pass. By record, the ranks are padded as if the epoch's
  // interleaved records went on from the first one (PyTorch's DistributedSampler pads its index
  // list so): rank r's padding is record i of the epoch for each i with (total + i) % w == r.
  Shard padding_shard;
};

Result<RankPlan> PlanRanks(const ReadOptions& o, const std::vector<std::string>& files) {
  RankPlan plan{o.file_shard, o.record_shard, kNoQuota, o.record_shard};
  if (o.world_size <= 1) return plan;
  const uint64_t w = o.world_size;
  internal::ReadContext context;
  context.files = &files;
  context.compression = o.compression;
  context.max_record_bytes = o.max_record_bytes;
  context.decompression = o.decompression;
  context.on_error = o.on_error;
  std::vector<uint64_t> by_file(w, 0);
  uint64_t total = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    Result<uint64_t> count = internal::CountFileRecords(context, static_cast<uint32_t>(i));
    if (!count.ok()) return count.status();
    by_file[i % w] += *count;
    total += *count;
  }
  const bool a_rank_without_records =
      total > 0 && std::find(by_file.begin(), by_file.end(), 0) != by_file.end();
  bool split_by_file = o.rank_split == RankSplit::kByFile ||
                       (o.rank_split == RankSplit::kAuto && files.size() >= w);
  // A rank whose files hold nothing could neither deliver nor pad: split those by record.
  if (o.rank_split == RankSplit::kAuto && a_rank_without_records) split_by_file = false;
  if (split_by_file && a_rank_without_records && o.rank_balance == RankBalance::kPad) {
    return Status::InvalidArgument("pipeline: split by file, a rank's files hold no records to pad "
                                   "with; split by record instead");
  }
  if (!split_by_file && !o.deterministic) {
    return Status::InvalidArgument("pipeline: " + std::to_string(files.size()) + " files for " +
                                   std::to_string(w) + " ranks are split by record, which needs "
                                   "deterministic order");
  }
  std::vector<uint64_t> per_rank = by_file;
  if (split_by_file) {
    plan.file_shard = Shard{w, o.rank};
    plan.padding_shard = Shard{};
  } else {
    plan.record_shard = Shard{w, o.rank};
    plan.padding_shard = Shard{w, (o.rank + w - total % w) % w};
    for (uint64_t r = 0; r < w; ++r) per_rank[r] = total / w + (r < total % w ? 1 : 0);
  }
  const auto [least, most] = std::minmax_element(per_rank.begin(), per_rank.end());
  plan.quota = o.rank_balance == RankBalance::kDrop ? *least : *most;
  return plan;
}

}  // namespace

Result<std::unique_ptr<RecordStream>> RecordStream::Open(const ReadOptions& options,
                                                         const StreamState* from) {
  TFQ_RETURN_IF_ERROR(ValidateReadOptions(options));
  Result<std::vector<std::string>> expanded = ExpandInputPaths(options.inputs, /*check_existence=*/false);
  if (!expanded.ok()) return expanded.status();
  if (expanded->size() > std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument("pipeline: more than 2^32 input files");
  }
  Result<RankPlan> plan = PlanRanks(options, *expanded);
  if (!plan.ok()) return plan.status();
  ReadOptions effective = options;
  effective.file_shard = plan->file_shard;
  effective.record_shard = plan->record_shard;
  std::vector<std::string> files;
  for (size_t i = 0; i < expanded->size(); ++i) {
    if (i % effective.file_shard.count == effective.file_shard.index) {
      files.push_back(std::move((*expanded)[i]));
    }
  }
  std::unique_ptr<RecordStream> stream(
      new RecordStream(effective, std::move(files), plan->quota, plan->padding_shard));
  if (from != nullptr) TFQ_RETURN_IF_ERROR(stream->Restore(*from));
  return stream;
}

RecordStream::RecordStream(const ReadOptions& options, std::vector<std::string> files, uint64_t quota,
                           Shard padding_shard)
    : options_(options),
      files_(std::move(files)),
      shuffle_(options.shuffle_buffer_size),
      shuffling_(options.shuffle_buffer_size > 1),
      detached_pool_(RecordBlockPool::Create(kDetachedSpareBlocks, kDetachedSpareBytes,
                                             kDetachedMaxBlockBytes)),
      quota_(quota),
      padding_shard_(padding_shard) {
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

std::vector<uint32_t> RecordStream::EpochOrder() const {
  const uint64_t order_epoch = options_.reshuffle_each_epoch ? epoch_ : 0;
  std::vector<uint32_t> order(files_.size());
  std::iota(order.begin(), order.end(), 0u);
  if (options_.shuffle_files) {
    Rng rng(DeriveSeed(options_.seed, kFileOrderStream, order_epoch));
    ShuffleVector(&order, &rng);
  }
  return order;
}

void RecordStream::BeginEpoch(bool padding) {
  const uint64_t order_epoch = options_.reshuffle_each_epoch ? epoch_ : 0;
  StreamEvent e;
  e.kind = StreamEvent::Kind::kEpoch;
  e.a = epoch_;
  e.b = padding ? 1 : 0;
  Log(e);
  shuffle_.Reset(DeriveSeed(options_.seed, kShuffleBufferStream, order_epoch));
  interleaver_->StartEpoch(EpochOrder(), epoch_);
  in_epoch_ = true;
  padding_ = padding;
  input_done_ = false;
  input_status_ = Status::OK();
  input_index_ = 0;
  if (!padding) epoch_records_ = 0;
}

Status RecordStream::Restore(const StreamState& from) {
  if (from.interleave.slots.size() != options_.cycle_length) {
    return Status::InvalidArgument("pipeline state: saved with cycle_length " +
                                   std::to_string(from.interleave.slots.size()));
  }
  for (const SlotPosition& slot : from.interleave.slots) {
    if (slot.file != kNoFile && slot.file >= files_.size()) {
      return Status::InvalidArgument("pipeline state: file " + std::to_string(slot.file) +
                                     " of " + std::to_string(files_.size()));
    }
  }
  epoch_ = static_cast<uint32_t>(from.epoch);
  done_ = from.done;
  in_epoch_ = from.in_epoch;
  padding_ = from.padding;
  input_index_ = from.input_index;
  input_done_ = from.input_done;
  epoch_records_ = from.epoch_records;
  if (done_ || !in_epoch_) return Status::OK();
  interleaver_->StartEpoch(EpochOrder(), epoch_, &from.interleave);
  if (shuffling_) {
    std::vector<Record> buffered;
    internal::ReadContext context;
    context.files = &files_;
    context.compression = options_.compression;
    context.max_record_bytes = options_.max_record_bytes;
    context.decompression = options_.decompression;
    context.on_error = OnError::kStop;
    TFQ_RETURN_IF_ERROR(internal::FetchRecords(context, from.shuffle_buffer, detached_pool_.get(), &buffered));
    shuffle_.Restore(std::move(buffered), from.shuffle_rng);
  }
  return Status::OK();
}

bool RecordStream::PullInput(Record* out) {
  if (input_done_) return false;
  Status status;
  const Shard& shard = padding_ ? padding_shard_ : options_.record_shard;
  while (interleaver_->Next(out, &status, log_)) {
    const uint64_t index = input_index_++;
    if (index % shard.count == shard.index) {
      if (shuffling_) Detach(out);
      return true;
    }
  }
  input_done_ = true;
  if (status.ok()) {
    StreamEvent e;
    e.kind = StreamEvent::Kind::kInputEnd;
    Log(e);
  }
  input_status_ = std::move(status);
  return false;
}

bool RecordStream::NextInEpoch(Record* out) {
  StreamEvent e;
  e.kind = StreamEvent::Kind::kOutput;
  if (!shuffling_) {
    if (!PullInput(out)) return false;
  } else {
    while (!shuffle_.full() && PullInput(&replacement_)) shuffle_.Add(std::move(replacement_));
    // Stopping does not drain the buffer; an error does (the records before it come first).
    if (input_status_.code() == StatusCode::kCancelled || shuffle_.empty()) return false;
    const bool replaced = PullInput(&replacement_);
    e.slot = static_cast<uint32_t>(shuffle_.Take(out, replaced ? &replacement_ : nullptr));
    e.b = replaced ? 1 : 0;
    e.rng = shuffle_.rng_state();
  }
  e.a = outputs_++;
  Log(e);
  return true;
}

bool RecordStream::Next(Record* out, std::vector<StreamEvent>* log) {
  log_ = options_.deterministic ? log : nullptr;
  while (!done_) {
    if (!in_epoch_) {
      if (options_.epochs != kRepeatForever && epoch_ >= static_cast<uint64_t>(options_.epochs)) {
        done_ = true;
        break;
      }
      BeginEpoch(/*padding=*/false);
    }
    // Ranks evened out: the epoch ends at the quota, whatever is left (RankBalance::kDrop).
    const bool quota_met = quota_ != kNoQuota && epoch_records_ >= quota_;
    if (!quota_met && NextInEpoch(out)) {
      out->source.padding = padding_;
      ++epoch_records_;
      return true;
    }
    if (!quota_met && !input_status_.ok()) {
      status_ = input_status_;
      done_ = true;
      break;
    }
    // Short of the quota (RankBalance::kPad): the epoch again from its start, as padding. (A
    // quota above 0 means some rank has records, and a padding pass then always yields some.)
    if (!quota_met && quota_ != kNoQuota && quota_ > 0) {
      BeginEpoch(/*padding=*/true);
      continue;
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
