// ShardSet: the output shards of one `tfq shard` or `tfq shuffle` run, made visible together.
//
// Each shard is written to a hidden staging file beside its final name,
// ".tfq-partial.<base>-<k><suffix>.<pid>" (shard globs never match it; io/glob.h skips the
// prefix), registered with the interrupt cleanup (io/cleanup.h) while it exists. Only Commit
// gives the shards their final names "<prefix>-<k>-of-<n><suffix>" (tfrecord::ShardName), all
// at once when every shard is complete, so the number of shards may be decided at the very end
// (contiguous --shard-size). A run that fails, is interrupted, or destroys the set uncommitted
// leaves no file under a final name. After SIGKILL the staging files stay; io/leftovers.h
// finds them. An object-store prefix ("s3://bucket/train") is staged in $TMPDIR (or /tmp), and
// Commit uploads every shard and completes the uploads together (io/output_set.h).
//
// Records are framed here and hashed into checksum() as they are written: the output side of
// the "every record exactly once" proof counts what was handed to the files.
//
// Records that need no re-framing (uncompressed output, large records of uncompressed inputs)
// can be copied from their input file by the kernel (CopyRecord), as `cp` does.
//
// Resources: one descriptor and two buffers of `buffer_bytes` (plus a deflate state when
// compressing) per shard that is open, i.e. written to and not yet finished; one writer thread.
// Thread safety: none; one thread writes.
#ifndef TFQ_RESHARD_SHARD_SET_H_
#define TFQ_RESHARD_SHARD_SET_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "io/compression.h"
#include "io/deflate_pool.h"
#include "io/output_stream.h"
#include "io/staged_file.h"
#include "reshard/checksum.h"
#include "reshard/file_sink.h"
#include "reshard/write_queue.h"

namespace tfq::reshard {

// A copy_file_range costs some microseconds besides its bytes: records that cannot be merged
// with their neighbours into one copy (round-robin, shuffled order) are copied by the kernel only
// from this size on, and go through the buffer below it. (Measured: the kernel's own page copy
// is far cheaper than write(2)'s copy from user memory on the VM this was tuned on, so copying
// wins from a few KiB up; 16 KiB leaves a margin for the per-call cost.)
constexpr uint64_t kCopyMinBytes = 16 << 10;

struct ShardSetOptions {
  std::string prefix;  // "out/train": shards are out/train-00000-of-00004<suffix>
  std::string suffix;
  Compression compression = Compression::kNone;  // kNone, kGzip or kZlib
  // Threads that compress the shards, shared by them (io/deflate_pool.h); 1: the writing thread
  // compresses. The shards' bytes are the same either way.
  int threads = 1;
  size_t buffer_bytes = size_t{1} << 20;        // per open shard (twice that with a writer thread)
  // Write on a background thread (reshard/write_queue.h) while the caller prepares more.
  bool writer_thread = true;
  // Shard numbers from this on are refused (Open is kInvalidArgument): the commands pass the
  // most that five-digit names can number (apps/app_common.h), and check their flags against it
  // first, so that the error names the flag.
  uint64_t max_shards = UINT64_MAX;
};

struct ShardInfo {
  uint64_t shard = 0;
  std::string path;     // the final name (after Commit)
  uint64_t records = 0;
  uint64_t bytes = 0;   // framed bytes before compression
};

// kInvalidArgument unless `prefix` names files ("out/train"), not a directory, "" or "-".
Status ValidateShardPrefix(const std::string& prefix);

class ShardSet {
 public:
  // Checks the prefix (a file name, not a directory) without creating anything.
  static Result<std::unique_ptr<ShardSet>> Create(const ShardSetOptions& options);
  ~ShardSet();
  ShardSet(const ShardSet&) = delete;
  ShardSet& operator=(const ShardSet&) = delete;

  // Creates shard k's staging file if it does not exist yet (an empty shard stays empty).
  Status Open(uint64_t shard);
  // Frames `record` onto shard k, opening it first if needed.
  Status Write(uint64_t shard, std::string_view record) {
    return Write(shard, record, RecordHash(record));
  }
  // The same for a caller that has just hashed this very view (RecordHash): the checksum then
  // proves that every record was routed to exactly one write, without hashing it twice.
  Status Write(uint64_t shard, std::string_view record, uint64_t hash);
  // The same for a record whose framed bytes (verified by the caller) lie in `source` at
  // `framed_offset`: an uncompressed shard copies them inside the kernel on the writer thread
  // (no copy through this process; adjacent records become one copy); otherwise `record` is
  // framed and written as by Write.
  Status CopyRecord(uint64_t shard, const std::shared_ptr<const RandomAccessFile>& source,
                    uint64_t framed_offset, std::string_view record, uint64_t hash);
  // The same for a record already framed (`framed` = header, payload, footer, verified by the
  // caller; `hash` the payload's RecordHash): written as it is, without computing its CRC again.
  Status WriteFramed(uint64_t shard, std::string_view framed, uint64_t hash);
  // The same for consecutive framed records (verified by the caller) whose payloads' hashes are
  // summed in `hashes` (one AddHash per record): one call for a whole run of records.
  Status WriteFramedRecords(uint64_t shard, std::string_view framed, const RecordChecksum& hashes);
  // Completes shard k's bytes and releases its descriptor and buffer; it waits for Commit.
  // Writing to it afterwards is kInternal.
  Status Finish(uint64_t shard);
  // Finishes every shard and renames all to their final names for a set of `num_shards`
  // (every shard opened must be below it). On failure, shards already renamed are removed again.
  Status Commit(uint64_t num_shards);

  const RecordChecksum& checksum() const { return checksum_; }
  uint64_t bytes_written() const { return bytes_; }  // framed, before compression
  // One entry per shard opened, in shard order.
  std::vector<ShardInfo> shards() const;

 private:
  struct Shard {
    std::unique_ptr<StagedFile> staged;  // the hidden file until Commit renames it
    std::string final_path;
    std::unique_ptr<OutputStream> out;  // null once finished
    bool copies = false;  // `out` is an uncompressed file that copies ranges on the writer thread
    bool finished = false;
    uint64_t records = 0;
    uint64_t bytes = 0;
  };
  explicit ShardSet(const ShardSetOptions& options) : options_(options) {}
  Result<Shard*> Get(uint64_t shard);
  Status CommitObjects(uint64_t num_shards);

  const ShardSetOptions options_;
  std::unique_ptr<WriteQueue> queue_;  // declared before shards_: outlives their sinks
  std::unique_ptr<DeflatePool> deflate_pool_;  // the same; null with one thread
  std::map<uint64_t, Shard> shards_;
  RecordChecksum checksum_;
  uint64_t bytes_ = 0;
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_SHARD_SET_H_
