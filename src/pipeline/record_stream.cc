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
constexpr uint64_t kGlobalShuffleStream = 3;

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

// `counts`: the records of each file of the list the ranks split.
Result<RankPlan> PlanRanks(const ReadOptions& o, const std::vector<uint64_t>& counts) {
  // The user's file shard, if any, is applied before; a plan's file shard is the ranks'.
  RankPlan plan{Shard{}, o.record_shard, kNoQuota, o.record_shard};
  if (o.world_size <= 1) return plan;
  const uint64_t w = o.world_size;
  std::vector<uint64_t> by_file(w, 0);
  uint64_t total = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    by_file[i % w] += counts[i];
    total += counts[i];
  }
  const bool a_rank_without_records =
      total > 0 && std::find(by_file.begin(), by_file.end(), 0) != by_file.end();
  // A global shuffle mixes all files, so its ranks split the permutation, by record.
  bool split_by_file = !o.global_shuffle && (o.rank_split == RankSplit::kByFile ||
                                             (o.rank_split == RankSplit::kAuto && counts.size() >= w));
  // A rank whose files hold nothing could neither deliver nor pad: split those by record.
  if (o.rank_split == RankSplit::kAuto && a_rank_without_records) split_by_file = false;
  if (split_by_file && a_rank_without_records && o.rank_balance == RankBalance::kPad) {
    return Status::InvalidArgument("pipeline: split by file, a rank's files hold no records to pad "
                                   "with; split by record instead");
  }
  if (!split_by_file && !o.deterministic) {
    return Status::InvalidArgument("pipeline: " + std::to_string(counts.size()) + " files for " +
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

// Opens every file for random access (its index read or built); with OnError::kSkip a file that
// cannot be indexed stays null and counts as empty.
Status OpenRecordFiles(const ReadOptions& o, const std::vector<std::string>& files,
                       std::vector<std::unique_ptr<tfrecord::RecordFile>>* opened,
                       std::vector<uint64_t>* counts) {
  tfrecord::RecordFileOptions options;
  options.compression = o.compression;
  options.max_record_bytes = o.max_record_bytes;
  options.decompression = o.decompression;
  for (const std::string& path : files) {
    Result<std::unique_ptr<tfrecord::RecordFile>> file = tfrecord::RecordFile::Open(path, options);
    if (!file.ok() && o.on_error == OnError::kStop) return file.status();
    counts->push_back(file.ok() ? (*file)->size() : 0);
    opened->push_back(file.ok() ? std::move(file).value() : nullptr);
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<RecordStream>> RecordStream::Open(const ReadOptions& options,
                                                         const StreamState* from) {
  TFQ_RETURN_IF_ERROR(ValidateReadOptions(options));
  TFQ_ASSIGN_OR_RETURN(std::vector<std::string> expanded,
                       ExpandInputPaths(options.inputs, /*check_existence=*/false));
  if (expanded.size() > std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument("pipeline: more than 2^32 input files");
  }
  // The files the ranks split (with ranks, file_shard is left at its default, so all of them).
  std::vector<std::string> files;
  for (size_t i = 0; i < expanded.size(); ++i) {
    if (i % options.file_shard.count == options.file_shard.index) files.push_back(expanded[i]);
  }
  std::vector<std::unique_ptr<tfrecord::RecordFile>> record_files;
  std::vector<uint64_t> counts;
  if (options.world_size > 1 || options.global_shuffle) {
    TFQ_RETURN_IF_ERROR(OpenRecordFiles(options, files, &record_files, &counts));
  }
  TFQ_ASSIGN_OR_RETURN(RankPlan plan, PlanRanks(options, counts));
  ReadOptions effective = options;
  effective.record_shard = plan.record_shard;
  if (plan.file_shard.count > 1) {  // ranks split by file (the user's file_shard is the default)
    effective.file_shard = plan.file_shard;
    std::vector<std::string> share;
    for (size_t i = 0; i < files.size(); ++i) {
      if (i % plan.file_shard.count == plan.file_shard.index) share.push_back(std::move(files[i]));
    }
    files = std::move(share);
  }
  if (!options.global_shuffle) record_files.clear();  // only counted
  std::unique_ptr<RecordStream> stream(new RecordStream(effective, std::move(files), plan.quota,
                                                        plan.padding_shard, std::move(record_files)));
  if (from != nullptr) TFQ_RETURN_IF_ERROR(stream->Restore(*from));
  return stream;
}

RecordStream::RecordStream(const ReadOptions& options, std::vector<std::string> files, uint64_t quota,
                           Shard padding_shard,
                           std::vector<std::unique_ptr<tfrecord::RecordFile>> record_files)
    : options_(options),
      files_(std::move(files)),
      shuffle_(options.shuffle_buffer_size),
      shuffling_(options.shuffle_buffer_size > 1),
      detached_pool_(RecordBlockPool::Create(kDetachedSpareBlocks, kDetachedSpareBytes,
                                             kDetachedMaxBlockBytes)),
      quota_(quota),
      padding_shard_(padding_shard),
      record_files_(std::move(record_files)),
      fetch_pool_(RecordBlockPool::Create(kDetachedSpareBlocks, kDetachedSpareBytes,
                                          kDetachedMaxBlockBytes)) {
  if (options_.global_shuffle) {
    file_starts_.push_back(0);
    for (const auto& file : record_files_) file_starts_.push_back(file_starts_.back() + (file ? file->size() : 0));
  }
  // The interleave's reader threads are not needed in global order, which reads by position.
  ReadOptions interleave = options_;
  if (options_.global_shuffle) interleave.reader_threads = 1;
  interleaver_ = std::make_unique<Interleaver>(&files_, interleave);
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
  if (options_.global_shuffle) {
    permutation_.emplace(file_starts_.back(), DeriveSeed(options_.seed, kGlobalShuffleStream, order_epoch));
  } else {
    interleaver_->StartEpoch(EpochOrder(), epoch_);
  }
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
  if (options_.global_shuffle) {
    const uint64_t order_epoch = options_.reshuffle_each_epoch ? epoch_ : 0;
    permutation_.emplace(file_starts_.back(), DeriveSeed(options_.seed, kGlobalShuffleStream, order_epoch));
    return Status::OK();
  }
  interleaver_->StartEpoch(EpochOrder(), epoch_, &from.interleave);
  if (shuffling_) {
    std::vector<Record> buffered;
    TFQ_RETURN_IF_ERROR(Refetch(from.shuffle_buffer, &buffered));
    shuffle_.Restore(std::move(buffered), from.shuffle_rng);
  }
  return Status::OK();
}

Status RecordStream::Refetch(const std::vector<RecordSource>& sources, std::vector<Record>* records) const {
  internal::ReadContext context;
  context.files = &files_;
  context.compression = options_.compression;
  context.max_record_bytes = options_.max_record_bytes;
  context.decompression = options_.decompression;
  context.on_error = OnError::kStop;
  return internal::FetchRecords(context, sources, detached_pool_.get(), records);
}

bool RecordStream::PullGlobal(Record* out) {
  const Shard& shard = padding_ ? padding_shard_ : options_.record_shard;
  while (input_index_ < permutation_->size()) {
    const uint64_t index = input_index_++;
    StreamEvent e;
    e.kind = StreamEvent::Kind::kTake;
    e.slot = kNoSlot;
    Log(e);
    if (index % shard.count != shard.index) continue;
    const uint64_t global = (*permutation_)(index);
    const size_t file = static_cast<size_t>(
        std::upper_bound(file_starts_.begin(), file_starts_.end(), global) - file_starts_.begin() - 1);
    out->data = {};
    out->block.reset();
    out->source.file = static_cast<uint32_t>(file);
    out->source.epoch = epoch_;
    out->source.index = global - file_starts_[file];
    out->source.offset = record_files_[file]->offset(out->source.index);
    return true;
  }
  input_done_ = true;
  StreamEvent e;
  e.kind = StreamEvent::Kind::kInputEnd;
  Log(e);
  return false;
}

Status RecordStream::Fetch(std::vector<Record>* records, std::vector<uint64_t>* ordinals,
                           SkipStats* skips) const {
  std::string bytes;
  size_t kept = 0;
  for (size_t i = 0; i < records->size(); ++i) {
    Record& record = (*records)[i];
    Status s = record_files_[record.source.file]->Get(record.source.index, &bytes);
    if (!s.ok()) {
      if (options_.on_error == OnError::kStop) {
        records->resize(kept);
        ordinals->resize(kept);
        return s;
      }
      ++skips->corrupt_records;
      skips->AddMessage(s.message() + "; record skipped");
      continue;
    }
    std::shared_ptr<RecordBlock> block = fetch_pool_->Get();
    block->bytes.swap(bytes);  // the block's old capacity becomes the next record's scratch
    record.data = block->bytes;
    record.block = std::move(block);
    if (kept != i) {
      (*records)[kept] = std::move(record);
      (*ordinals)[kept] = (*ordinals)[i];
    }
    ++kept;
  }
  records->resize(kept);
  ordinals->resize(kept);
  return Status::OK();
}

bool RecordStream::PullInput(Record* out) {
  if (input_done_) return false;
  if (options_.global_shuffle) return PullGlobal(out);
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
