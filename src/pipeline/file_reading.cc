#include "pipeline/file_reading.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "pipeline/stream_state.h"
#include "tfrecord/open.h"
#include "tfrecord/record_file.h"

namespace tfq::pipeline::internal {
namespace {

// Ends the file: folds what a tolerant reader dropped into *skips, turns an error into a count in
// skip mode, and releases the reader (its mapping or file descriptor) right away rather than
// when the consumer lets go of the task.
bool EndFile(const ReadContext& context, FileTask* task, Status status, Status* end,
             SkipStats* skips) {
  if (task->reader) {
    const tfrecord::SkipReport& report = task->reader->skipped();
    skips->corrupt_records += report.corrupt_records;
    skips->resyncs += report.resyncs;
    skips->resync_bytes += report.resync_bytes;
    for (const std::string& m : report.messages) skips->AddMessage(m);
    task->reader.reset();
  }
  if (!status.ok() && context.on_error == OnError::kSkip) {
    ++skips->files_failed;
    skips->AddMessage(status.message() + "; rest of the file skipped");
    status = Status::OK();
  }
  *end = std::move(status);
  return false;
}

}  // namespace

bool ReadBurst(const ReadContext& context, FileTask* task, size_t max_records, size_t max_bytes,
               RecordBlockPool* pool, std::vector<Record>* out, Status* end, SkipStats* skips) {
  if (!task->opened) {
    task->opened = true;
    const std::string& path = (*context.files)[task->file];
    Result<tfrecord::OpenedInput> input =
        tfrecord::OpenRecordInput(path, context.compression, context.decompression);
    if (!input.ok()) return EndFile(context, task, input.status(), end, skips);
    if (task->start_offset > 0) {
      uint64_t skipped = 0;
      Status s = input.value().stream->Skip(task->start_offset, &skipped);
      if (s.ok() && skipped != task->start_offset) {
        s = Status::InvalidArgument(path + ": shorter (" + std::to_string(skipped) +
                                    " bytes) than the saved position " + std::to_string(task->start_offset) +
                                    "; the file changed since the pipeline state was saved");
      }
      if (!s.ok()) return EndFile(context, task, s, end, skips);
    }
    tfrecord::RecordReaderOptions options;
    options.max_record_bytes = context.max_record_bytes;
    // Skip mode drops bad records and scans past bad headers; only what cannot be resumed
    // (truncation, I/O errors, corrupt compression) ends the file early.
    options.on_corruption = context.on_error == OnError::kSkip ? tfrecord::CorruptionPolicy::kResync
                                                               : tfrecord::CorruptionPolicy::kFail;
    task->reader = std::make_unique<tfrecord::RecordReader>(std::move(input.value().stream), options);
    // The stream was skipped to the offset, so only the index needs telling.
    task->reader->StartAt(task->start_index, 0);
  }
  if (!task->reader) return EndFile(context, task, Status::OK(), end, skips);

  // Where the stream can pin its buffer, the records are views into it and nothing is copied
  // (one pin per run of records in the same buffer). Otherwise the payloads are copied into one
  // block, back to back, and viewed once it has stopped growing.
  tfrecord::RecordReader& reader = *task->reader;
  const size_t first = out->size();
  std::shared_ptr<RecordBlock> block;
  std::shared_ptr<const void> pin;
  size_t bytes = 0;
  bool more = true;
  std::string_view data;
  while (out->size() - first < max_records && bytes < max_bytes) {
    if (context.stop != nullptr && context.stop->load(std::memory_order_relaxed)) break;
    if (!reader.Read(&data)) {
      more = false;
      break;
    }
    Record& record = out->emplace_back();
    record.source.file = task->file;
    record.source.epoch = task->epoch;
    record.source.index = reader.record_index();
    record.source.offset = reader.record_offset();
    bytes += data.size();
    if (!block) {
      std::shared_ptr<const void> current = reader.stream().PinBuffer();
      if (current) {
        if (current != pin) pin = std::move(current);
        record.data = data;
        record.block = pin;
        continue;
      }
      block = pool->Get();
    }
    record.data = std::string_view(nullptr, data.size());  // placed below
    block->bytes.append(data);
  }
  if (block) {
    size_t at = 0;
    for (size_t i = first; i < out->size(); ++i) {
      Record& record = (*out)[i];
      if (record.block) continue;  // pinned before the stream stopped pinning (it does not)
      record.data = std::string_view(block->bytes.data() + at, record.data.size());
      record.block = block;
      at += record.data.size();
    }
  }
  if (!more) return EndFile(context, task, reader.status(), end, skips);
  return true;
}

Status FetchRecords(const ReadContext& context, const std::vector<RecordSource>& sources,
                    RecordBlockPool* pool, std::vector<Record>* out) {
  // Visit the records file by file in offset order, then put them back in the given order.
  std::vector<size_t> visit(sources.size());
  for (size_t i = 0; i < visit.size(); ++i) visit[i] = i;
  std::sort(visit.begin(), visit.end(), [&](size_t a, size_t b) {
    return std::tie(sources[a].file, sources[a].offset) < std::tie(sources[b].file, sources[b].offset);
  });
  out->assign(sources.size(), Record());
  std::unique_ptr<tfrecord::RecordReader> reader;
  uint32_t open_file = kNoFile;
  uint64_t next_offset = 0;  // where the open reader's next record starts
  for (size_t v = 0; v < visit.size(); ++v) {
    const RecordSource& source = sources[visit[v]];
    if (source.file >= context.files->size()) {
      return Status::InvalidArgument("pipeline state: file " + std::to_string(source.file) + " of " +
                                     std::to_string(context.files->size()));
    }
    const std::string& path = (*context.files)[source.file];
    auto changed = [&] {
      return Status::InvalidArgument(path + ": no record starts at byte " + std::to_string(source.offset) +
                                     "; the file changed since the pipeline state was saved");
    };
    if (source.file != open_file || reader == nullptr || source.offset < next_offset) {
      TFQ_ASSIGN_OR_RETURN(tfrecord::OpenedInput input,
                           tfrecord::OpenRecordInput(path, context.compression, context.decompression));
      uint64_t skipped = 0;
      TFQ_RETURN_IF_ERROR(input.stream->Skip(source.offset, &skipped));
      if (skipped != source.offset) return changed();
      tfrecord::RecordReaderOptions options;
      options.max_record_bytes = context.max_record_bytes;
      reader = std::make_unique<tfrecord::RecordReader>(std::move(input.stream), options);
      reader->StartAt(source.index, 0);
      open_file = source.file;
      next_offset = source.offset;
    }
    // Further on in the same file: step over the records between (headers only where it can).
    while (next_offset < source.offset) {
      if (!reader->Skip()) return reader->status().ok() ? changed() : reader->status();
      next_offset = reader->record_offset() + reader->record_framed_size();
    }
    if (next_offset != source.offset) return changed();
    std::string_view data;
    if (!reader->Read(&data)) return reader->status().ok() ? changed() : reader->status();
    next_offset = reader->record_offset() + reader->record_framed_size();
    Record& record = (*out)[visit[v]];
    std::shared_ptr<RecordBlock> block = pool->Get();
    block->bytes.assign(data);
    record.data = block->bytes;
    record.block = std::move(block);
    record.source = source;
  }
  return Status::OK();
}

}  // namespace tfq::pipeline::internal
