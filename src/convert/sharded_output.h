// ShardedOutput: the one writer of every conversion's output (docs/architecture.md,
// "Conversions"): one file, or N shard files named like tensorflow/models and Beam do
// ("<prefix>-00000-of-00004<suffix>"), of which a task of a scale-out run writes its own share.
//
// Every file is written under a temporary name and only takes its final name when the whole set
// is complete (Commit, all or nothing: io/output_set.h); a run that fails or is interrupted
// leaves no file that looks finished. Files hold bytes the converter made: framed TFRecords
// (framed on the converter's worker threads, tfq::RecordFramer) or lines of text.
//
// Thread safety: none; one thread writes. Open files cost one file descriptor each.
#ifndef TFQ_CONVERT_SHARDED_OUTPUT_H_
#define TFQ_CONVERT_SHARDED_OUTPUT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "io/compression.h"
#include "io/deflate_pool.h"
#include "io/output_stream.h"

namespace tfq {

struct ShardedOutputOptions {
  std::string path;         // the file ("-": standard output), or the shard prefix ("out/train")
  uint64_t num_shards = 0;  // 0: one file named `path`
  std::string suffix;       // shards only: ".tfrecord"; ".gz" is not added for compression
  Compression compression = Compression::kNone;  // kAuto: from each file's name
  // Threads that compress the files, shared by them (io/deflate_pool.h); 1: the writing thread
  // compresses. The files' bytes are the same either way.
  int threads = 1;
  // Shards only: write the shards k with k % num_tasks == task_index (scale-out across
  // machines); names keep the global numbering.
  uint64_t task_index = 0;
  uint64_t num_tasks = 1;
  bool make_parent_dirs = false;  // create the directories of `path` first, as mkdir -p
  // Sees every byte that reaches file k's disk (after compression), in order: for checksums
  // that a manifest records without reading the files again.
  std::function<void(uint64_t k, std::string_view bytes)> on_file_bytes;
  // Creates one file under its temporary name; empty: CreateOutputFile. A seam for tests that
  // inject write failures (tests/common/fault_streams.h).
  std::function<Result<std::unique_ptr<OutputStream>>(const std::string& path)> create_file;
};

struct OutputFile {
  std::string path;         // empty: another task's shard
  uint64_t records = 0;     // records (or rows, lines) written
  uint64_t bytes = 0;       // before compression
  uint64_t file_bytes = 0;  // on disk; known after Finish
};

class ShardedOutput {
 public:
  // Creates the temporaries of every file this task owns. kInvalidArgument for a task index not
  // below the task count (or a scale-out of a single file).
  static Result<std::unique_ptr<ShardedOutput>> Create(const ShardedOutputOptions& options);
  ~ShardedOutput();

  uint64_t num_files() const { return files_.size(); }
  bool owns(uint64_t k) const { return k < streams_.size() && streams_[k] != nullptr; }

  // Appends `bytes`, holding `records` whole records, to file k (owned by this task).
  Status Write(uint64_t k, std::string_view bytes, uint64_t records);
  // Frames one record (tfrecord::AppendFramedRecord) and appends it to file k.
  Status WriteRecord(uint64_t k, std::string_view record);
  // Deals framed records out in turn: record i of everything written this way goes to file
  // i % num_files(); records of other tasks' shards are dropped. Record j of `framed` is
  // [ends[j-1], ends[j]) (ends[-1] = 0).
  Status WriteInTurn(std::string_view framed, std::span<const size_t> ends);

  // Flushes every file (compression finished), still under its temporary name; file_bytes and
  // the on_file_bytes observer are complete after it.
  Status Finish();
  // Gives this task's files and then `also` (a manifest, say; null entries skipped) their final
  // names together, or none of them (io/output_set.h). Calls Finish first if needed.
  Status Commit(std::vector<OutputStream*> also = {});
  // Finish and Commit. Without a successful Commit, destroying the writer removes the temporaries.
  Status Close() { return Commit(); }

  // Per file, by index (other tasks' shards have no path).
  const std::vector<OutputFile>& files() const { return files_; }
  // This task's files: their paths, and the records and bytes (before compression) they hold.
  std::vector<std::string> paths() const;
  uint64_t records() const;
  uint64_t bytes() const;

 private:
  class FileTap;
  explicit ShardedOutput(const ShardedOutputOptions& options) : options_(options) {}

  ShardedOutputOptions options_;
  std::unique_ptr<DeflatePool> deflate_pool_;  // outlives streams_; null with one thread
  std::vector<OutputFile> files_;
  std::vector<std::unique_ptr<OutputStream>> raw_;      // the files; null for other tasks'
  std::vector<FileTap*> taps_;                          // above raw_, owned by streams_
  std::vector<std::unique_ptr<OutputStream>> streams_;  // what Write writes to
  std::string scratch_;
  uint64_t next_in_turn_ = 0;
  bool finished_ = false;
};

}  // namespace tfq

#endif  // TFQ_CONVERT_SHARDED_OUTPUT_H_
