// RecordWriter: frames records onto an OutputStream.
//
// The writer does not own the stream: the caller closes it (which, for files, renames the
// temporary into place), so a writer that fails midway leaves nothing that looks finished.
#ifndef TFQ_TFRECORD_RECORD_WRITER_H_
#define TFQ_TFRECORD_RECORD_WRITER_H_

#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "io/output_stream.h"

namespace tfq::tfrecord {

class RecordWriter {
 public:
  explicit RecordWriter(OutputStream* out) : out_(out) {}

  Status Write(std::string_view record);
  // Appends `count` records framed already (AppendFramedRecord), as one write.
  Status WriteFramed(std::string_view framed, uint64_t count);

  uint64_t records_written() const { return records_; }
  // Framed bytes written (payloads + 16 bytes per record).
  uint64_t bytes_written() const { return bytes_; }

 private:
  OutputStream* out_;
  uint64_t records_ = 0;
  uint64_t bytes_ = 0;
};

// Frames one record onto *out (appending): for callers that assemble buffers themselves.
void AppendFramedRecord(std::string_view record, std::string* out);

}  // namespace tfq::tfrecord

#endif  // TFQ_TFRECORD_RECORD_WRITER_H_
