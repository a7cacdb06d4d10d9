// Internal to the interleave stage: one file being read, and the reading of a burst of records
// from it on a reader thread.
#ifndef TFQ_PIPELINE_FILE_READING_H_
#define TFQ_PIPELINE_FILE_READING_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "pipeline/options.h"
#include "pipeline/record.h"
#include "pipeline/record_block_pool.h"
#include "tfrecord/record_reader.h"

namespace tfq::pipeline::internal {

// One file of an epoch, from the moment it takes a slot of the interleave cycle until the
// consumer has taken its last record (or the epoch is abandoned). Shared (shared_ptr) between the
// cycle and the reader thread working on it, so either may drop it first.
struct FileTask {
  FileTask(uint32_t file_index, uint32_t epoch_index, uint64_t first_index = 0,
           uint64_t first_offset = 0)
      : file(file_index), epoch(epoch_index), start_index(first_index), start_offset(first_offset) {}

  const uint32_t file;   // index into the file list
  const uint32_t epoch;
  // Where reading starts (a resumed pipeline): the record index and byte offset of a header.
  const uint64_t start_index;
  const uint64_t start_offset;

  // Touched only by the reader thread that holds the task `active` (no lock needed).
  std::unique_ptr<tfrecord::RecordReader> reader;
  bool opened = false;

  // Guarded by the Interleaver's mutex.
  std::vector<Record> buffer;  // read ahead, not yet moved to the consumer's side
  size_t buffered_bytes = 0;
  // What the consumer's side still held of this file when it last said (it only shrinks after),
  // counted against the same read-ahead limits as the buffer.
  size_t staged_records = 0;
  size_t staged_bytes = 0;
  // What counts against the read-ahead limits: the buffer and the staging.
  size_t held_records() const { return buffer.size() + staged_records; }
  size_t held_bytes() const { return buffered_bytes + staged_bytes; }
  bool active = false;    // a reader thread is reading it now
  bool queued = false;    // waiting in the work queue
  bool finished = false;  // no more records will be added
  bool look_ahead = false;  // read ahead before taking a slot: one burst only
  Status status;          // why reading ended, if not at a clean end (OnError::kStop only)
};

struct ReadContext {
  const std::vector<std::string>* files = nullptr;
  Compression compression = Compression::kAuto;
  uint64_t max_record_bytes = 0;
  DecompressionLimit decompression;
  OnError on_error = OnError::kStop;
  // Set when the reading is abandoned: a burst stops at the next record (a slow pipe would
  // otherwise hold Stop up for a whole burst).
  const std::atomic<bool>* stop = nullptr;
};

// Reads records of `task` into *out (appending), opening its file first if needed, until
// `max_records` records or at least `max_bytes` bytes were read. Returns true if the file may
// have more; false when it has ended, with *end OK at a clean end or the error that ended it.
// With OnError::kSkip an error ends the file with *end OK and is counted in *skips (and the
// reader's dropped records are counted when the file ends). Releases the file when it ends.
// The burst's records share one block from *pool.
bool ReadBurst(const ReadContext& context, FileTask* task, size_t max_records, size_t max_bytes,
               RecordBlockPool* pool, std::vector<Record>* out, Status* end, SkipStats* skips);

// The records at `sources` (file, index and header offset), read again and verified, in the same
// order; each in a block of its own from *pool. Files are read forward once each, in offset order.
Status FetchRecords(const ReadContext& context, const std::vector<RecordSource>& sources,
                    RecordBlockPool* pool, std::vector<Record>* out);

}  // namespace tfq::pipeline::internal

#endif  // TFQ_PIPELINE_FILE_READING_H_
