#include "pipeline/file_reading.h"

#include <utility>

#include "tfrecord/open.h"

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
    tfrecord::RecordReaderOptions options;
    options.max_record_bytes = context.max_record_bytes;
    // Skip mode drops bad records and scans past bad headers; only what cannot be resumed
    // (truncation, I/O errors, corrupt compression) ends the file early.
    options.on_corruption = context.on_error == OnError::kSkip ? tfrecord::CorruptionPolicy::kResync
                                                               : tfrecord::CorruptionPolicy::kFail;
    task->reader = std::make_unique<tfrecord::RecordReader>(std::move(input.value().stream), options);
  }
  if (!task->reader) return EndFile(context, task, Status::OK(), end, skips);

  // The payloads go into the block back to back; the views are taken once it has stopped growing.
  std::shared_ptr<RecordBlock> block = pool->Get();
  std::string& bytes = block->bytes;
  const size_t first = out->size();
  tfrecord::RecordReader& reader = *task->reader;
  bool more = true;
  std::string_view data;
  while (out->size() - first < max_records && bytes.size() < max_bytes) {
    if (!reader.Read(&data)) {
      more = false;
      break;
    }
    Record& record = out->emplace_back();
    record.data = std::string_view(nullptr, data.size());
    record.source.file = task->file;
    record.source.epoch = task->epoch;
    record.source.index = reader.record_index();
    record.source.offset = reader.record_offset();
    bytes.append(data);
  }
  size_t at = 0;
  for (size_t i = first; i < out->size(); ++i) {
    Record& record = (*out)[i];
    record.data = std::string_view(bytes.data() + at, record.data.size());
    record.block = block;
    at += record.data.size();
  }
  if (!more) return EndFile(context, task, reader.status(), end, skips);
  return true;
}

}  // namespace tfq::pipeline::internal
