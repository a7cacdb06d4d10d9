#include "reshard/shuffle.h"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <span>

#include "common/byte_size.h"
#include "io/paths.h"
#include "reshard/arena.h"
#include "reshard/bucket_shuffle.h"
#include "reshard/indexed_shuffle.h"
#include "reshard/random.h"
#include "reshard/scan_shuffle.h"
#include "tfrecord/format.h"

namespace tfq::reshard {
namespace {

// The expected arena cost of all records (RecordArena::Cost summed), or 0 if unknown.
uint64_t EstimateTotalCost(const InputSurvey& survey, const RecordSource& source,
                           uint64_t arena_bytes) {
  if (survey.sizes_exact) {
    // Uncompressed files hold exactly their framed records (payload + 16 bytes, the size of an
    // arena entry); each record also needs one index entry.
    const uint64_t mean = survey.sampled_records ? survey.sampled_bytes / survey.sampled_records : 0;
    const uint64_t records = mean ? survey.file_bytes / mean : 0;
    return survey.file_bytes + records * sizeof(RecordArena::IndexEntry);
  }
  // Compressed files: extrapolate from the first arena's worth and how far into the files it got.
  const uint64_t read = source.source_bytes_read();
  if (survey.rereadable && read > 0) {
    return static_cast<uint64_t>(static_cast<double>(arena_bytes) *
                                 static_cast<double>(survey.file_bytes) / static_cast<double>(read));
  }
  return 0;  // standard input: no idea
}

// Refuses early when the temporary file would clearly not fit (rather than failing with a full
// disk after an hour). Only possible when the input size is known.
Status CheckTemporarySpace(const std::string& dir, uint64_t spill_bytes) {
  struct statvfs vfs;
  if (statvfs(dir.c_str(), &vfs) != 0) return Status::OK();  // the spill file reports it
  const uint64_t free_bytes = static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize;
  if (free_bytes >= spill_bytes) return Status::OK();
  return Status::ResourceExhausted(
      "the shuffle needs about " + FormatByteSize(spill_bytes) + " of temporary space in " + dir +
      " but only " + FormatByteSize(free_bytes) +
      " is free; choose another directory with --tmp-dir (or raise --memory)");
}

// The machine's physical memory, or 0 when unknown.
uint64_t PhysicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_bytes <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_bytes);
}

}  // namespace

uint64_t ShuffleInputReserve(uint64_t memory) {
  return std::clamp<uint64_t>(memory / 16, uint64_t{8} << 20, uint64_t{64} << 20);
}

uint64_t ShuffleArenaBytes(uint64_t memory) {
  const uint64_t io = ShuffleInputReserve(memory) + kShuffleBufferMemory;
  return memory > io ? memory - io : 0;
}

uint64_t ShuffleMaxRecordBytes(uint64_t memory) {
  const uint64_t capacity = ShuffleArenaBytes(memory) / 16 * 16;  // as RecordArena::Create rounds
  return capacity > RecordArena::Cost(0) ? capacity - RecordArena::Cost(0) : 0;
}

uint64_t ShuffleCompressionReserve(uint64_t memory, const ShardSetOptions& output) {
  if (output.compression == Compression::kNone || output.threads <= 1) return 0;
  const uint64_t above = memory > kMinShuffleMemory ? memory - kMinShuffleMemory : 0;
  return std::min<uint64_t>(static_cast<uint64_t>(output.threads) * kDeflateMemoryPerThread, above / 8);
}

int ShuffleCompressThreads(uint64_t memory, const ShardSetOptions& output) {
  return static_cast<int>(std::max<uint64_t>(1, ShuffleCompressionReserve(memory, output) / kDeflateMemoryPerThread));
}

uint64_t ShuffleRecordMemory(const ShuffleOptions& options) {
  return options.memory - ShuffleCompressionReserve(options.memory, options.output);
}

std::string ShuffleTmpDir(const ShuffleOptions& options) {
  if (!options.tmp_dir.empty()) return options.tmp_dir;
  if (LooksLikeUrl(options.output.prefix)) {  // an object store: the local temporary folder
    const char* tmp = std::getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
  }
  const size_t slash = options.output.prefix.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : options.output.prefix.substr(0, slash);
}

Status ValidateShuffleOptions(const ShuffleOptions& o) {
  TFQ_RETURN_IF_ERROR(ValidateShardPrefix(o.output.prefix));
  if (o.shards == 0) return Status::InvalidArgument("--shards must be at least 1");
  if (o.shards > o.output.max_shards) {
    return Status::InvalidArgument("--shards must be at most " + std::to_string(o.output.max_shards) +
                                   " (what shard names can number)");
  }
  if (o.window == 0 && o.memory < kMinShuffleMemory) {
    return Status::InvalidArgument("--memory must be at least " + FormatByteSize(kMinShuffleMemory) +
                                   " (" + FormatByteSize(ShuffleInputReserve(o.memory) + kShuffleBufferMemory) +
                                   " of it goes to I/O buffers)");
  }
  // A bound above the machine's memory bounds nothing, and its arena could not even be reserved.
  if (const uint64_t physical = PhysicalMemory(); o.window == 0 && physical > 0 && o.memory > physical) {
    return Status::InvalidArgument("--memory " + FormatByteSize(o.memory) + " is more than this machine's " +
                                   FormatByteSize(physical) + " of memory");
  }
  if (!o.tmp_dir.empty()) {
    struct stat st;
    if (stat(o.tmp_dir.c_str(), &st) != 0) return Status::FromErrno("--tmp-dir " + o.tmp_dir, errno);
    if (!S_ISDIR(st.st_mode)) return Status::InvalidArgument("--tmp-dir " + o.tmp_dir + ": not a directory");
  }
  return Status::OK();
}

namespace {

using Emit = std::function<Status(std::string_view payload)>;

// Cuts the records handed out in key order into consecutive runs: shard k gets positions
// [k*n/N, (k+1)*n/N), so only one output is open at a time. Every shard exists, even if empty.
class ShardCutter {
 public:
  ShardCutter(uint64_t n, uint64_t num_shards, ShardSet& set) : n_(n), num_shards_(num_shards), set_(set) {}
  // The shard of the next record, finishing the previous shard when it is full.
  Result<uint64_t> Next() {
    while (position_ >= End(shard_)) TFQ_RETURN_IF_ERROR(set_.Finish(shard_++));
    ++position_;
    return shard_;
  }
  // The same for the next `wanted` records (> 0): the shard of the first, and how many of them
  // (at least one) go to it.
  struct Run {
    uint64_t shard;
    uint64_t records;
  };
  Result<Run> NextRun(uint64_t wanted) {
    while (position_ >= End(shard_)) TFQ_RETURN_IF_ERROR(set_.Finish(shard_++));
    const uint64_t records = std::min(wanted, End(shard_) - position_);
    position_ += records;
    return Run{shard_, records};
  }
  Status Finish() {
    for (uint64_t k = 0; k < num_shards_; ++k) {
      TFQ_RETURN_IF_ERROR(set_.Open(k));
      TFQ_RETURN_IF_ERROR(set_.Finish(k));
    }
    return Status::OK();
  }

 private:
  uint64_t End(uint64_t k) const {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(k + 1) * n_ / num_shards_);
  }
  const uint64_t n_, num_shards_;
  ShardSet& set_;
  uint64_t position_ = 0;
  uint64_t shard_ = 0;
};

Status WriteShards(uint64_t n, uint64_t num_shards, ShardSet& set,
                   const std::function<Status(const Emit&)>& drain) {
  ShardCutter cut(n, num_shards, set);
  TFQ_RETURN_IF_ERROR(drain([&](std::string_view payload) -> Status {
    TFQ_ASSIGN_OR_RETURN(uint64_t shard, cut.Next());
    return set.Write(shard, payload);
  }));
  return cut.Finish();
}

// The one check of a record's size for every method (ShuffleMaxRecordBytes), naming the record
// and the --memory that would take it.
Status CheckRecordFits(const RecordSource& source, const std::vector<std::string>& paths,
                       uint64_t size, const ShuffleOptions& options) {
  // The largest record a --memory takes, with the compressing threads' share taken out.
  auto max_for = [&](uint64_t memory) {
    return ShuffleMaxRecordBytes(memory - ShuffleCompressionReserve(memory, options.output));
  };
  const uint64_t memory = options.memory;
  const uint64_t max = max_for(memory);
  if (size <= max) return Status::OK();
  // The least --memory that takes it, in whole MiB (the limit grows with --memory).
  uint64_t lo = memory >> 20, hi = std::max<uint64_t>(lo, 1) * 2;
  while (max_for(hi << 20) < size) hi *= 2;
  while (lo + 1 < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (max_for(mid << 20) < size ? lo : hi) = mid;
  }
  const uint64_t needed = hi << 20;
  return Status::ResourceExhausted(
      paths[source.input_index()] + ": record " + std::to_string(source.reader()->record_index()) +
      " (byte " + std::to_string(source.reader()->record_offset()) + "): " + std::to_string(size) +
      " bytes, more than the " + std::to_string(max) + " bytes --memory " + FormatByteSize(memory) +
      " leaves for one record; raise --memory to " + FormatByteSize(needed) + " or more");
}

void NoteSource(const RecordSource& source, RunSummary* summary) {
  summary->records_read = source.records();
  summary->bytes_read = source.source_bytes_read();
  summary->skipped = source.skipped();
}

// Re-reading (IndexedShuffle) pays when the inputs can be re-read at known offsets, do not fit in
// memory anyway, hold large records, and their references take a small part of the budget.
bool UseIndexed(const InputSurvey& survey, uint64_t arena_bytes, uint64_t mean, uint64_t records) {
  return survey.sizes_exact && survey.rereadable && survey.file_bytes > arena_bytes &&
         mean >= kIndexedMinRecordBytes && records * sizeof(RecordRef) <= arena_bytes / 8;
}

// Scanning once per key range (ScanShuffle) pays when the inputs can be re-read, do not fit in
// memory, are held by the page cache between passes (at most half of what is available), their
// table is a small part of the budget, and the passes are not too many: each reads the records of
// its range from the page cache, where the bucket method's spill costs two writes and reads of
// the data that, beyond the kernel's dirty page limits, go at the disk's speed.
bool UseScan(const InputSurvey& survey, uint64_t arena_bytes, uint64_t mem_available, uint64_t mean,
             uint64_t records) {
  if (!survey.sizes_exact || !survey.rereadable || survey.file_bytes <= arena_bytes || mean == 0) {
    return false;
  }
  const uint64_t table = records * ScanShuffle::kTableBytesPerRecord;
  if (table > arena_bytes / 8) return false;
  const uint64_t cost = survey.file_bytes + records * kScanRecordOverhead;
  const uint64_t passes = cost / ((arena_bytes - table) / 2) + 1;  // two blocks share the budget
  return passes <= kScanMaxPasses && survey.file_bytes <= mem_available / 2;
}

// The kernel's estimate of memory available without swapping (MemAvailable in /proc/meminfo,
// which counts the reclaimable page cache), or 0 when unknown.
uint64_t MemAvailable() {
  std::ifstream meminfo("/proc/meminfo");
  std::string name;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> name >> kib) {
    std::getline(meminfo, unit);
    if (name == "MemAvailable:") return kib << 10;
  }
  return 0;
}

}  // namespace

ShuffleMethod ChooseShuffleMethod(const InputSurvey& survey, uint64_t arena_bytes,
                                  uint64_t mem_available, uint64_t* expected_records) {
  const uint64_t mean = survey.sampled_records ? survey.sampled_bytes / survey.sampled_records : 0;
  *expected_records = mean ? survey.file_bytes / mean : 0;
  // Re-scanning before re-reading: for large records that the page cache holds, it measured
  // faster in every benchmark (4 GiB of 64 KiB records: 0.86x against 1.29x the three passes on
  // Zen 5; 0.97x against 1.20x and 1.26x against 1.49x on Zen 3), at the price of using the
  // budget it is given. Re-reading stays for large records in inputs the cache cannot hold.
  if (UseScan(survey, arena_bytes, mem_available, mean, *expected_records)) return ShuffleMethod::kScan;
  if (UseIndexed(survey, arena_bytes, mean, *expected_records)) return ShuffleMethod::kIndexed;
  return ShuffleMethod::kBuckets;
}

namespace {

// Re-scanning and re-reading set *too_large and write nothing when the largest record (within
// ShuffleMaxRecordBytes) does not fit beside their tables; RunShuffle then uses buckets.
Status ShuffleScan(const std::vector<std::string>& paths, const ShuffleOptions& options,
                   uint64_t arena_bytes, uint64_t expected_records, ShardSet& set,
                   RunSummary* summary, bool* too_large) {
  // After the first pass the input's read buffer is gone: its share goes to records.
  ScanShuffle shuffle(paths, arena_bytes + ShuffleInputReserve(ShuffleRecordMemory(options)), expected_records);
  // When any corrupt record is to fail the run, the first pass, which alone runs on one core,
  // leaves data CRCs alone: ScanShuffle checks each record's when it reads it again (on two),
  // and the hashes prove those are the bytes this pass counted. Tolerant policies must know
  // here which records to drop.
  InputOptions input = options.input;
  if (input.reader.on_corruption == tfrecord::CorruptionPolicy::kFail) input.reader.verify_data_crc = false;
  RecordSource source(paths, input);
  std::string_view record;
  while (source.Next(&record)) {
    TFQ_RETURN_IF_ERROR(CheckRecordFits(source, paths, record.size(), options));
    summary->expected.Add(record);
    TFQ_RETURN_IF_ERROR(shuffle.Add(static_cast<uint32_t>(source.input_index()),
                                    source.reader()->record_offset(), record.size()));
  }
  NoteSource(source, summary);
  TFQ_RETURN_IF_ERROR(source.status());
  if (!shuffle.HoldsLargestRecord()) {  // its tables leave too little room: buckets take it
    *too_large = true;
    return Status::OK();
  }
  // Each key range comes as one block of framed records, written in runs cut only where a shard
  // ends.
  ShardCutter cut(source.records(), options.shards, set);
  const ScanShuffle::Emit write_range = [&](std::string_view framed, std::span<const uint64_t> hashes) -> Status {
    uint64_t pos = 0;
    for (size_t k = 0; k < hashes.size();) {
      TFQ_ASSIGN_OR_RETURN(ShardCutter::Run run, cut.NextRun(hashes.size() - k));
      const size_t end = k + run.records;
      // A run that ends inside the range (at a shard's end) is found by walking its records'
      // headers; one that takes the rest of the range ends where the range does. (The walk costs
      // a cache miss per record in a block of hundreds of MiB: 2% of a 1 KiB-record shuffle.)
      uint64_t run_end = framed.size();
      if (end < hashes.size()) {
        run_end = pos;
        for (size_t i = k; i < end; ++i) {
          run_end += tfrecord::DecodeFixed64(framed.data() + run_end) + tfrecord::kFramingOverhead;
        }
      }
      RecordChecksum sum;
      for (; k < end; ++k) sum.AddHash(hashes[k]);
      TFQ_RETURN_IF_ERROR(set.WriteFramedRecords(run.shard, framed.substr(pos, run_end - pos), sum));
      pos = run_end;
    }
    return Status::OK();
  };
  TFQ_RETURN_IF_ERROR(shuffle.Drain(ShuffleKeys(options.seed), write_range));
  TFQ_RETURN_IF_ERROR(cut.Finish());
  summary->method = "re-scanned in " + std::to_string(shuffle.passes()) + " pass" +
                    (shuffle.passes() == 1 ? "" : "es");
  // The records written were hashed as they were read again: as many records but another sum
  // means an input was rewritten in between with valid framing (damaged framing or a failing
  // data CRC is caught earlier, with the record's place). Other mismatches are CheckChecksums'.
  if (set.checksum().count() == summary->expected.count() && set.checksum() != summary->expected) {
    return Status::Corruption("the records read again differ from those first read (checksum " +
                              summary->expected.Hex() + " then " + set.checksum().Hex() +
                              "): an input changed during the shuffle (inputs must not change "
                              "during a shuffle)");
  }
  return Status::OK();
}

Status ShuffleIndexed(const std::vector<std::string>& paths, const ShuffleOptions& options,
                      uint64_t arena_bytes, uint64_t expected_records, ShardSet& set,
                      RunSummary* summary, bool* too_large) {
  // After the first pass the input's read buffer is gone: its share goes to the scratch record.
  IndexedShuffle shuffle(paths, arena_bytes + ShuffleInputReserve(ShuffleRecordMemory(options)), expected_records);
  RecordSource source(paths, options.input);
  const ShuffleKeys keys(options.seed);
  std::string_view record;
  while (source.Next(&record)) {
    TFQ_RETURN_IF_ERROR(CheckRecordFits(source, paths, record.size(), options));
    summary->expected.Add(record);
    TFQ_RETURN_IF_ERROR(shuffle.Add(keys(source.records() - 1),
                                    static_cast<uint32_t>(source.input_index()),
                                    source.reader()->record_offset(), record.size()));
  }
  NoteSource(source, summary);
  TFQ_RETURN_IF_ERROR(source.status());
  if (!shuffle.HoldsLargestRecord()) {  // its references leave too little room: buckets take it
    *too_large = true;
    return Status::OK();
  }
  // The records come back framed and verified: written as they are, or for large ones copied
  // out of the input by the kernel.
  ShardCutter cut(source.records(), options.shards, set);
  TFQ_RETURN_IF_ERROR(shuffle.Drain([&](std::string_view framed,
                                        const std::shared_ptr<const RandomAccessFile>& file,
                                        uint64_t framed_offset) -> Status {
    TFQ_ASSIGN_OR_RETURN(uint64_t shard, cut.Next());
    const std::string_view payload = framed.substr(
        tfrecord::kHeaderSize, framed.size() - tfrecord::kFramingOverhead);
    const uint64_t hash = RecordHash(payload);
    if (framed.size() >= kCopyMinBytes) {
      return set.CopyRecord(shard, file, framed_offset, payload, hash);
    }
    return set.WriteFramed(shard, framed, hash);
  }));
  TFQ_RETURN_IF_ERROR(cut.Finish());
  summary->method = "re-read in " + std::to_string(shuffle.runs()) + " run" +
                    (shuffle.runs() == 1 ? "" : "s");
  return Status::OK();
}

Status ShuffleBuckets(const std::vector<std::string>& paths, const ShuffleOptions& options,
                      const InputSurvey& survey, uint64_t arena_bytes, ShardSet& set,
                      RunSummary* summary) {
  const std::string tmp_dir = ShuffleTmpDir(options);
  // By default the bucket file goes beside the output, whose folder may not exist yet.
  if (options.tmp_dir.empty() && !LooksLikeUrl(options.output.prefix)) {
    TFQ_RETURN_IF_ERROR(CreateParentDirectories(options.output.prefix));
  }
  if (survey.sizes_exact && survey.file_bytes > arena_bytes) {
    TFQ_RETURN_IF_ERROR(CheckTemporarySpace(tmp_dir, survey.file_bytes));
  }
  RecordSource source(paths, options.input);
  BucketShuffleOptions bucket_options;
  bucket_options.memory = arena_bytes;
  bucket_options.tmp_dir = tmp_dir;
  bucket_options.estimate_total_cost = [&] { return EstimateTotalCost(survey, source, arena_bytes); };
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<BucketShuffle> made, BucketShuffle::Create(std::move(bucket_options)));
  BucketShuffle& shuffle = *made;

  const ShuffleKeys keys(options.seed);
  std::string_view record;
  while (source.Next(&record)) {
    TFQ_RETURN_IF_ERROR(CheckRecordFits(source, paths, record.size(), options));
    summary->expected.Add(record);
    TFQ_RETURN_IF_ERROR(shuffle.Add(keys(source.records() - 1), record));
  }
  NoteSource(source, summary);
  TFQ_RETURN_IF_ERROR(source.status());
  TFQ_RETURN_IF_ERROR(WriteShards(source.records(), options.shards, set,
                                  [&](const Emit& emit) { return shuffle.Drain(emit); }));
  summary->temporary_bytes = shuffle.spill_bytes();
  summary->method = !shuffle.spilled() ? "in memory"
                    : std::to_string(shuffle.top_buckets()) + " buckets" +
                          (shuffle.splits() ? ", " + std::to_string(shuffle.splits()) + " split again" : "");
  return Status::OK();
}

}  // namespace

Status RunShuffle(const std::vector<std::string>& paths, const ShuffleOptions& options,
                  RunSummary* summary) {
  *summary = RunSummary{};
  TFQ_RETURN_IF_ERROR(ValidateShuffleOptions(options));
  if (options.window > 0) return RunWindowShuffle(paths, options, summary);
  ShardSetOptions output = options.output;
  output.threads = ShuffleCompressThreads(options.memory, options.output);
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<ShardSet> created, ShardSet::Create(output));
  ShardSet& set = *created;

  TFQ_ASSIGN_OR_RETURN(InputSurvey survey, SurveyInputs(paths, options.input));
  const uint64_t arena_bytes = ShuffleArenaBytes(ShuffleRecordMemory(options));
  uint64_t expected_records = 0;
  const ShuffleMethod chosen = ChooseShuffleMethod(survey, arena_bytes, MemAvailable(), &expected_records);
  ShuffleMethod method = options.method;
  if (method == ShuffleMethod::kAuto) {
    method = chosen;
  } else if (method != ShuffleMethod::kBuckets && (!survey.sizes_exact || !survey.rereadable)) {
    return Status::InvalidArgument(std::string(method == ShuffleMethod::kScan ? "re-scanning" : "re-reading") +
                                   " needs regular, uncompressed input files");
  }
  bool too_large = false;
  switch (method) {
    case ShuffleMethod::kIndexed:
      TFQ_RETURN_IF_ERROR(ShuffleIndexed(paths, options, arena_bytes, expected_records, set, summary, &too_large));
      break;
    case ShuffleMethod::kScan:
      TFQ_RETURN_IF_ERROR(ShuffleScan(paths, options, arena_bytes, expected_records, set, summary, &too_large));
      break;
    default:
      TFQ_RETURN_IF_ERROR(ShuffleBuckets(paths, options, survey, arena_bytes, set, summary));
  }
  if (too_large) {  // nothing was written: the same records through buckets
    const std::string first = method == ShuffleMethod::kScan ? "re-scanning" : "re-reading";
    *summary = RunSummary{};
    TFQ_RETURN_IF_ERROR(ShuffleBuckets(paths, options, survey, arena_bytes, set, summary));
    summary->method += "; the largest record left " + first + " too little room";
  }
  summary->written = set.checksum();
  summary->bytes_written = set.bytes_written();
  TFQ_RETURN_IF_ERROR(CheckChecksums(*summary));
  TFQ_RETURN_IF_ERROR(set.Commit(options.shards));
  summary->shards = set.shards();
  return Status::OK();
}

}  // namespace tfq::reshard
