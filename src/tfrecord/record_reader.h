// RecordReader: reads TFRecord framing from an InputStream, verifying both CRCs.
//
// The outcomes of docs/tfrecord-format.md are kept apart: a clean end, a truncated header, a
// truncated payload, a length-CRC mismatch, a record over the size cap and a data-CRC mismatch
// each have their own ReadError and a message naming the stream, the record index and the byte
// offset of the record's header. The length is never trusted (for allocation or skipping) before
// its CRC verifies, nor beyond the cap.
//
// Usage:
//   RecordReader reader(std::move(stream), options);
//   std::string_view record;
//   while (reader.Read(&record)) Use(record);
//   if (!reader.status().ok()) Report(reader.status());
//
// Thread safety: none; one thread uses a reader at a time.
#ifndef TFQ_TFRECORD_RECORD_READER_H_
#define TFQ_TFRECORD_RECORD_READER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "io/input_stream.h"
#include "tfrecord/format.h"

namespace tfq::tfrecord {

class CrcCheckpoints;

enum class CorruptionPolicy {
  kFail,          // the first problem ends reading with an error
  kSkipDataCrc,   // drop records whose data CRC fails (the framing is intact) and go on
  kResync,        // also scan forward past a bad header to the next verifying record
};

struct RecordReaderOptions {
  uint64_t max_record_bytes = kDefaultMaxRecordBytes;
  CorruptionPolicy on_corruption = CorruptionPolicy::kFail;
  bool verify_data_crc = true;  // false only for benchmarks of the framing alone
};

enum class ReadError {
  kNone,
  kTruncatedHeader,
  kTruncatedPayload,
  kLengthCrcMismatch,
  kRecordTooLarge,
  kDataCrcMismatch,
  kStream,  // the stream itself failed: I/O error, corrupt or truncated compressed data
};
std::string_view ReadErrorName(ReadError e);  // "truncated header", ...

// What a tolerant reader dropped. Messages are kept for the first kMaxMessages problems.
struct SkipReport {
  static constexpr size_t kMaxMessages = 100;
  uint64_t corrupt_records = 0;  // records dropped for a data-CRC mismatch
  uint64_t resyncs = 0;          // times a bad header was skipped by scanning forward
  uint64_t resync_bytes = 0;     // bytes passed over while scanning
  std::vector<std::string> messages;
  bool empty() const { return corrupt_records == 0 && resyncs == 0; }
};

class RecordReader {
 public:
  RecordReader(std::unique_ptr<InputStream> stream, const RecordReaderOptions& options);
  RecordReader(const RecordReader&) = delete;
  RecordReader& operator=(const RecordReader&) = delete;

  // Reads the next record and sets *record to its payload, valid until the next call on this
  // reader. Returns false at the end of the stream or on error; status() tells which.
  bool Read(std::string_view* record);

  // Steps over the next record checking only its length CRC and that the payload is all there
  // (no data CRC, payload not read where the stream can seek): the fast path of `--count`.
  bool Skip();

  // For random access: the stream starts at byte `offset` of the file, with record `index`.
  // Messages and record_offset() then name the file's record index and byte offset. Call it
  // before the first Read or Skip.
  void StartAt(uint64_t index, uint64_t offset) {
    index_ = index;
    base_offset_ = offset;
  }

  // OK after a clean end; the error otherwise. Once an error occurred every call returns false.
  const Status& status() const { return status_; }
  ReadError error() const { return error_; }

  // Index of the record last returned, 0-based, counting every record that framed correctly,
  // including ones dropped by kSkipDataCrc. (After an error, status() names the record that
  // failed: the next index.)
  uint64_t record_index() const { return index_ == 0 ? 0 : index_ - 1; }
  // Records framed so far (returned + dropped).
  uint64_t records_framed() const { return index_; }
  // Byte offset (in the uncompressed stream) of the header of the record last returned.
  uint64_t record_offset() const { return record_offset_; }
  // Bytes of the last returned record including framing (for DALI-style indexes).
  uint64_t record_framed_size() const { return record_framed_size_; }
  // The record the last Read returned as it is framed in the stream: header, payload and
  // footer, valid as long as the payload's view; empty after any other call. Its footer was
  // checked against the payload only with verify_data_crc.
  std::string_view framed_record() const {
    if (last_payload_.data() == nullptr) return {};
    return std::string_view(last_payload_.data() - kHeaderSize, last_payload_.size() + kFramingOverhead);
  }

  const SkipReport& skipped() const { return skipped_; }
  // Moves out the messages of skipped().messages noted since the last call, so that a caller
  // reporting problems as they happen sees every one: the cap of SkipReport::kMaxMessages
  // applies only to messages not taken. The counts in skipped() are not affected.
  std::vector<std::string> TakeSkipMessages() { return std::exchange(skipped_.messages, {}); }
  const InputStream& stream() const { return *stream_; }
  const std::string& name() const { return stream_->name(); }

 private:
  enum class Mode { kRead, kSkip };
  bool Next(Mode mode, std::string_view* record);
  bool Fail(ReadError error, uint64_t offset, std::string what);
  void NoteSkip(std::string message);
  // Scans forward from `offset` + 1 for a verifying record; false at end of stream or error.
  bool Resync(uint64_t offset);
  // Whether a complete record with a verifying data CRC starts at the stream's position.
  Status RecordVerifiesHere(CrcCheckpoints* checkpoints, bool* verifies);
  std::string Where(uint64_t offset) const;

  std::unique_ptr<InputStream> stream_;
  RecordReaderOptions options_;
  Status status_;
  ReadError error_ = ReadError::kNone;
  size_t pending_consume_ = 0;  // bytes of the last record, consumed at the next call
  uint64_t index_ = 0;
  uint64_t base_offset_ = 0;  // file offset of the stream's first byte (StartAt)
  uint64_t record_offset_ = 0;
  uint64_t record_framed_size_ = 0;
  std::string_view last_payload_;  // within the stream's buffer, framing around it
  SkipReport skipped_;
};

}  // namespace tfq::tfrecord

#endif  // TFQ_TFRECORD_RECORD_READER_H_
