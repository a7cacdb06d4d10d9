#include "tfrecord/sharded_writer.h"

#include "io/output_set.h"
#include "tfrecord/open.h"

namespace tfq::tfrecord {

Result<std::unique_ptr<ShardedRecordWriter>> ShardedRecordWriter::Create(
    const ShardedWriterOptions& options) {
  if (options.num_shards == 0) return Status::InvalidArgument("the number of shards must be at least 1");
  if (options.num_tasks == 0 || options.task_index >= options.num_tasks) {
    return Status::InvalidArgument("--task-index must be below --num-tasks");
  }
  std::unique_ptr<ShardedRecordWriter> w(new ShardedRecordWriter(options));
  w->outputs_.resize(options.num_shards);
  w->info_.resize(options.num_shards);
  w->writers_.reserve(options.num_shards);
  for (uint64_t k = 0; k < options.num_shards; ++k) {
    w->writers_.emplace_back(nullptr);
    if (!w->owns(k)) continue;
    w->info_[k].path = ShardName(options.prefix, k, options.num_shards, options.suffix);
    Result<std::unique_ptr<OutputStream>> out =
        options.create_output ? options.create_output(w->info_[k].path, options.compression)
                              : CreateRecordOutput(w->info_[k].path, options.compression);
    if (!out.ok()) return out.status();
    w->outputs_[k] = std::move(out).value();
    w->writers_[k] = RecordWriter(w->outputs_[k].get());
  }
  return w;
}

namespace {

Status NotOwned(uint64_t shard) {
  return Status::Internal("record routed to shard " + std::to_string(shard) + " not owned by this task");
}

}  // namespace

Status ShardedRecordWriter::Write(uint64_t shard, std::string_view record) {
  if (shard >= outputs_.size() || !outputs_[shard]) return NotOwned(shard);
  return writers_[shard].Write(record);
}

Status ShardedRecordWriter::WriteFramed(uint64_t shard, std::string_view framed_record) {
  if (shard >= outputs_.size() || !outputs_[shard]) return NotOwned(shard);
  return writers_[shard].WriteFramed(framed_record, 1);
}

Status ShardedRecordWriter::Close() {
  std::vector<OutputStream*> outputs;
  for (uint64_t k = 0; k < outputs_.size(); ++k) {
    outputs.push_back(outputs_[k].get());
    if (!outputs_[k]) continue;
    info_[k].records = writers_[k].records_written();
    info_[k].bytes = writers_[k].bytes_written();
  }
  Status status = CloseTogether(outputs);
  outputs_.clear();  // destroys (and so removes) the temporaries of shards not completed
  return status;
}

}  // namespace tfq::tfrecord
