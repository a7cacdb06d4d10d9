// What flows between the pipeline's record stages: owned records with their provenance, and the
// counts of what OnError::kSkip dropped.
#ifndef TFQ_PIPELINE_RECORD_H_
#define TFQ_PIPELINE_RECORD_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tfq::pipeline {

// Where a record came from, for error messages and for callers that want to trace an element.
struct RecordSource {
  uint32_t file = 0;    // index into the pipeline's file list (files())
  uint32_t epoch = 0;   // 0-based repetition
  uint64_t index = 0;   // 0-based record index within the file
  uint64_t offset = 0;  // byte offset of the record's header (in the uncompressed stream)
  bool padding = false; // a repeat delivered to even out ranks (docs/pipeline.md, "Ranks")
};

// The bytes of records read together (a reader's burst), back to back. Shared by the Records
// that view it and recycled once the last of them is gone (RecordBlockPool).
struct RecordBlock {
  std::string bytes;
};

// A record that has left its reader: a view of memory that it keeps alive, either its reader's
// own buffer, pinned (InputStream::PinBuffer: nothing copied), or a RecordBlock it was copied
// into. Moving a Record is cheap; copying shares the memory.
struct Record {
  std::string_view data;
  RecordSource source;
  std::shared_ptr<const void> block;  // what `data` points into
};

// "path: record 12 (byte 3456)": the place, as the TFRecord reader names it in its own errors.
std::string DescribeSource(const std::vector<std::string>& files, const RecordSource& source);

// What OnError::kSkip dropped, over all epochs so far.
struct SkipStats {
  static constexpr size_t kMaxMessages = 100;

  uint64_t files_failed = 0;      // files that could not be opened, or stopped at an unrecoverable
                                  // error (truncation, I/O, corrupt compression); the records read
                                  // before it were kept
  uint64_t corrupt_records = 0;   // records dropped for a data-CRC mismatch
  uint64_t resyncs = 0;           // bad record headers passed by scanning for the next good one
  uint64_t resync_bytes = 0;      // bytes passed over while scanning
  uint64_t examples_failed = 0;   // records that did not parse into the requested features
  std::vector<std::string> messages;  // the first kMaxMessages problems, each naming its place

  bool empty() const {
    return files_failed == 0 && corrupt_records == 0 && resyncs == 0 && examples_failed == 0;
  }
  void AddMessage(std::string message);
  void Merge(const SkipStats& other);
};

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_RECORD_H_
