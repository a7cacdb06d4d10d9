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
               std::vector<std::string>* spare, std::vector<Record>* out, Status* end,
               SkipStats* skips) {
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

  tfrecord::RecordReader& reader = *task->reader;
  size_t records = 0;
  size_t bytes = 0;
  std::string_view data;
  while (records < max_records && bytes < max_bytes) {
    if (!reader.Read(&data)) return EndFile(context, task, reader.status(), end, skips);
    Record& record = out->emplace_back();
    if (!spare->empty()) {
      record.data = std::move(spare->back());
      spare->pop_back();
    }
    record.data.assign(data.data(), data.size());
    record.source.file = task->file;
    record.source.epoch = task->epoch;
    record.source.index = reader.record_index();
    record.source.offset = reader.record_offset();
    ++records;
    bytes += data.size();
  }
  return true;
}

}  // namespace tfq::pipeline::internal
