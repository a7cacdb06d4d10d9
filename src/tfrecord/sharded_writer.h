// ShardedRecordWriter: writes records into N shard files named like tensorflow/models and Beam
// do ("<prefix>-00000-of-00004<suffix>"), each through a temporary name that is renamed when the
// set is complete; a run that fails or is interrupted leaves no shard that looks finished.
//
// Thread safety: none; one thread writes. Open shards cost one file descriptor each.
#ifndef TFQ_TFRECORD_SHARDED_WRITER_H_
#define TFQ_TFRECORD_SHARDED_WRITER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "io/compression.h"
#include "io/output_stream.h"
#include "tfrecord/record_writer.h"

namespace tfq::tfrecord {

struct ShardedWriterOptions {
  std::string prefix;       // "out/train"
  uint64_t num_shards = 1;
  std::string suffix;       // ".tfrecord"; with compression ".gz" is not added automatically
  Compression compression = Compression::kNone;
  // Write only the shards k with k % num_tasks == task_index (scale-out across machines);
  // names keep the global numbering.
  uint64_t task_index = 0;
  uint64_t num_tasks = 1;
  // Creates one shard's output; empty: CreateRecordOutput. A seam for tests that inject write
  // failures (tests/common/fault_streams.h).
  std::function<Result<std::unique_ptr<OutputStream>>(const std::string& path, Compression c)>
      create_output;
};

struct ShardInfo {
  std::string path;
  uint64_t records = 0;
  uint64_t bytes = 0;  // framed bytes before compression
};

class ShardedRecordWriter {
 public:
  // Creates the temporaries of every shard this task owns.
  static Result<std::unique_ptr<ShardedRecordWriter>> Create(const ShardedWriterOptions& options);

  // Appends `record` to shard `shard` (< num_shards, owned by this task).
  Status Write(uint64_t shard, std::string_view record);
  // Appends one record framed already (tfrecord::AppendFramedRecord) to shard `shard`.
  Status WriteFramed(uint64_t shard, std::string_view framed_record);

  // Completes every shard (renames the temporaries into place) all or nothing (io/output_set.h):
  // after a failure, or an interrupt during the call, no shard of the set has its final name.
  // Without a successful Close, destroying the writer removes all temporaries.
  Status Close();

  bool owns(uint64_t shard) const { return shard % options_.num_tasks == options_.task_index; }
  uint64_t num_shards() const { return options_.num_shards; }
  // Per shard (only owned shards have a path).
  const std::vector<ShardInfo>& shards() const { return info_; }

 private:
  explicit ShardedRecordWriter(const ShardedWriterOptions& options) : options_(options) {}

  ShardedWriterOptions options_;
  std::vector<std::unique_ptr<OutputStream>> outputs_;  // null for shards of other tasks
  std::vector<RecordWriter> writers_;
  std::vector<ShardInfo> info_;
};

}  // namespace tfq::tfrecord

#endif  // TFQ_TFRECORD_SHARDED_WRITER_H_
