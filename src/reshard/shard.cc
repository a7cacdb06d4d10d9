#include "reshard/shard.h"

#include <algorithm>

#include "tfrecord/format.h"

namespace tfq::reshard {
namespace {

// The first buffer of every open shard together (each has a second while the first is written).
constexpr uint64_t kShardBuffersInAll = uint64_t{2} << 20;

uint64_t CeilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

// The flag that decided the shard count, for errors about it.
std::string CountFlag(const ShardOptions& o) {
  if (o.records_per_shard) return "--records-per-shard " + std::to_string(o.records_per_shard);
  if (o.shard_bytes) return "--shard-size " + std::to_string(o.shard_bytes) + " bytes";
  return "--shards " + std::to_string(o.shards);
}

// `n` shards (0: more than the cap, found while routing) are more than names can number.
Status TooManyShards(const ShardOptions& o, uint64_t n) {
  const uint64_t max = o.output.max_shards;
  return Status::InvalidArgument(CountFlag(o) + " makes " + (n ? std::to_string(n) : "more than " + std::to_string(max)) +
                                 " shards, but shard names number at most " + std::to_string(max) +
                                 "; give a larger one");
}

// Where each record goes. The number of shards is known up front except for the contiguous
// modes that fill shards to a size, where it is known at the end.
class Router {
 public:
  enum class Kind { kRoundRobin, kOne, kContiguousRanges, kContiguousRecords, kContiguousBytes };

  Router(Kind kind, uint64_t n, uint64_t param) : kind_(kind), n_(n), param_(param) {}

  // Sets *shard for record j of `framed` bytes; false if the record is not this run's.
  bool Route(uint64_t j, uint64_t framed, uint64_t* shard) {
    switch (kind_) {
      case Kind::kRoundRobin: *shard = j % n_; return true;
      case Kind::kOne:
        *shard = param_;
        return j % n_ == param_;
      case Kind::kContiguousRanges:
        // Shard k holds records [k*T/N, (k+1)*T/N): sizes differ by at most one. Records beyond
        // the count (an input that grew) stay in the last shard.
        while (current_ + 1 < n_ && j >= RangeEnd(current_)) ++current_;
        break;
      case Kind::kContiguousRecords: current_ = j / param_; break;
      case Kind::kContiguousBytes:
        if (current_bytes_ > 0 && current_bytes_ + framed > param_) {
          ++current_;
          current_bytes_ = 0;
        }
        current_bytes_ += framed;
        break;
    }
    *shard = current_;
    return true;
  }

  // The number of shards, once every record has been routed (`records` of them).
  uint64_t NumShards(uint64_t records) const {
    switch (kind_) {
      case Kind::kContiguousRecords: return std::max<uint64_t>(1, CeilDiv(records, param_));
      case Kind::kContiguousBytes: return current_ + 1;
      default: return n_;
    }
  }
  // The shards of this run: [first, first + NumShards) except for kOne, which writes only one.
  uint64_t FirstShard() const { return kind_ == Kind::kOne ? param_ : 0; }
  // Round-robin writes to all shards at once; the other modes fill one shard after another.
  bool one_at_a_time() const { return kind_ != Kind::kRoundRobin; }

 private:
  uint64_t RangeEnd(uint64_t k) const {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(k + 1) * param_ / n_);
  }

  const Kind kind_;
  const uint64_t n_;      // shards (or tf.data's num_shards)
  const uint64_t param_;  // record count, records per shard, bytes per shard or the index
  uint64_t current_ = 0;
  uint64_t current_bytes_ = 0;
};

// Works out the routing, counting the inputs first where the mode needs it.
Result<Router> MakeRouter(const std::vector<std::string>& paths, const ShardOptions& o,
                          std::string* method) {
  using Kind = Router::Kind;
  if (o.single) {
    *method = "shard " + std::to_string(o.index) + " of " + std::to_string(o.num_shards) +
              " (records j with j % " + std::to_string(o.num_shards) + " == " +
              std::to_string(o.index) + ")";
    return Router(Kind::kOne, o.num_shards, o.index);
  }
  if (o.contiguous && o.records_per_shard) {
    *method = "contiguous, " + std::to_string(o.records_per_shard) + " records per shard";
    return Router(Kind::kContiguousRecords, 0, o.records_per_shard);
  }
  if (o.contiguous && o.shard_bytes) {
    *method = "contiguous, at most " + std::to_string(o.shard_bytes) + " bytes per shard";
    return Router(Kind::kContiguousBytes, 0, o.shard_bytes);
  }
  if (!o.contiguous && o.shards) {
    *method = "round-robin";
    return Router(Kind::kRoundRobin, o.shards, 0);
  }
  // The rest need the count or the framed size of the inputs.
  TFQ_ASSIGN_OR_RETURN(InputSurvey survey, SurveyInputs(paths, o.input, 0));
  RecordCount count;
  if (!o.contiguous && o.shard_bytes && survey.sizes_exact) {
    count.framed_bytes = survey.file_bytes;  // uncompressed files are exactly their records
  } else {
    if (!survey.rereadable) {
      return Status::InvalidArgument(
          "this mode counts the records before writing and cannot read standard input or a "
          "pipe twice; use --shards N, or contiguous --records-per-shard / --shard-size");
    }
    TFQ_ASSIGN_OR_RETURN(count, CountRecords(paths, o.input));
  }
  if (o.contiguous) {
    *method = "contiguous";
    return Router(Kind::kContiguousRanges, o.shards, count.records);
  }
  *method = "round-robin";
  const uint64_t n = o.records_per_shard ? CeilDiv(count.records, o.records_per_shard)
                                         : CeilDiv(count.framed_bytes, o.shard_bytes);
  if (n > o.output.max_shards) return TooManyShards(o, n);
  return Router(Kind::kRoundRobin, std::max<uint64_t>(1, n), 0);
}

}  // namespace

Status ValidateShardOptions(const ShardOptions& o) {
  TFQ_RETURN_IF_ERROR(ValidateShardPrefix(o.output.prefix));
  const uint64_t max = o.output.max_shards;
  if (o.shards > max || o.num_shards > max) {
    return Status::InvalidArgument(std::string(o.shards > max ? "--shards" : "--num-shards") +
                                   " must be at most " + std::to_string(max) +
                                   " (what shard names can number)");
  }
  if (o.single) {
    if (o.num_shards == 0) return Status::InvalidArgument("--num-shards must be at least 1");
    if (o.index >= o.num_shards) {
      return Status::InvalidArgument("--index must be below --num-shards (shards count from 0)");
    }
    if (o.shards || o.shard_bytes || o.records_per_shard || o.contiguous) {
      return Status::InvalidArgument(
          "--index/--num-shards write one round-robin shard; they do not combine with --shards, "
          "--shard-size, --records-per-shard or --contiguous");
    }
    return Status::OK();
  }
  const int given = (o.shards > 0) + (o.shard_bytes > 0) + (o.records_per_shard > 0);
  if (given != 1) {
    return Status::InvalidArgument(
        "give exactly one of --shards N, --shard-size SIZE, --records-per-shard K (each above 0), "
        "or --index i --num-shards n");
  }
  return Status::OK();
}

Status RunShard(const std::vector<std::string>& paths, const ShardOptions& options,
                RunSummary* summary) {
  *summary = RunSummary{};
  TFQ_RETURN_IF_ERROR(ValidateShardOptions(options));
  TFQ_ASSIGN_OR_RETURN(Router router, MakeRouter(paths, options, &summary->method));

  ShardSetOptions out = options.output;
  // Round-robin keeps every shard open, each with two buffers. Together they must stay small
  // enough for the cache: copying records into them, and the kernel's copy out of them, then run
  // from it. Measured on 4 GiB of 1 KiB records into 8 shards (2 cores, three alternating
  // rounds): 1 MiB per buffer (16 MiB in all) 5.7-6.1 s, 256 KiB (4 MiB) 2.0-2.3 s, 128 and
  // 64 KiB about the same as 256, `cp` of the file 1.6-2.3 s.
  const uint64_t open_at_once = router.one_at_a_time() ? 1 : router.NumShards(0);
  out.buffer_bytes = static_cast<size_t>(
      std::clamp<uint64_t>(kShardBuffersInAll / open_at_once, 64 << 10, out.buffer_bytes));
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<ShardSet> created, ShardSet::Create(out));
  ShardSet& set = *created;
  if (!router.one_at_a_time()) {
    for (uint64_t k = 0; k < router.NumShards(0); ++k) TFQ_RETURN_IF_ERROR(set.Open(k));
  }

  RecordSource source(paths, options.input);
  const bool merges_copies = router.one_at_a_time() || router.NumShards(0) == 1;
  std::string_view record;
  uint64_t current = router.FirstShard();
  while (source.Next(&record)) {
    const uint64_t j = source.records() - 1;
    uint64_t shard;
    if (!router.Route(j, record.size() + tfrecord::kFramingOverhead, &shard)) continue;
    // Contiguous shards filled to a size are counted as they come.
    if (shard >= options.output.max_shards) return TooManyShards(options, 0);
    if (router.one_at_a_time() && shard != current) {
      TFQ_RETURN_IF_ERROR(set.Finish(current));  // release its buffer and descriptor now
      current = shard;
    }
    const uint64_t hash = RecordHash(record);
    summary->expected.AddHash(hash);
    // Records of plain files are copied by the kernel, verified here (CRC and hash), where
    // consecutive records share a shard (one copy for many) or a record is large on its own.
    if (source.source_file() &&
        (merges_copies || record.size() + tfrecord::kFramingOverhead >= kCopyMinBytes)) {
      TFQ_RETURN_IF_ERROR(set.CopyRecord(shard, source.source_file(),
                                         source.reader()->record_offset(), record, hash));
    } else if (options.input.reader.verify_data_crc) {
      // Verified: its framing is what Write would encode, so it is written as it was read (one
      // copy, no second CRC).
      TFQ_RETURN_IF_ERROR(set.WriteFramed(shard, source.reader()->framed_record(), hash));
    } else {
      TFQ_RETURN_IF_ERROR(set.Write(shard, record, hash));
    }
  }
  summary->records_read = source.records();
  summary->bytes_read = source.source_bytes_read();
  summary->skipped = source.skipped();
  TFQ_RETURN_IF_ERROR(source.status());

  // Shards no record reached still exist, empty (opened one at a time: few descriptors).
  const uint64_t num_shards = router.NumShards(source.records());
  if (options.single) {
    TFQ_RETURN_IF_ERROR(set.Open(options.index));
  } else {
    for (uint64_t k = 0; k < num_shards; ++k) {
      TFQ_RETURN_IF_ERROR(set.Open(k));
      if (router.one_at_a_time()) TFQ_RETURN_IF_ERROR(set.Finish(k));
    }
  }
  summary->written = set.checksum();
  summary->bytes_written = set.bytes_written();
  TFQ_RETURN_IF_ERROR(CheckChecksums(*summary));
  TFQ_RETURN_IF_ERROR(set.Commit(num_shards));
  summary->shards = set.shards();
  return Status::OK();
}

}  // namespace tfq::reshard
