// RecordFramer: frames records as TFRecords in place, in a worker's output buffer, so that the
// CRCs of a conversion are computed on the worker threads and the writer only copies bytes.
//
// Usage: start = Open(&buffer); append the record's bytes; Close(&buffer, start). No allocation
// once the buffer has grown. Thread safety: one per worker.
#ifndef TFQ_CONVERT_RECORD_FRAMER_H_
#define TFQ_CONVERT_RECORD_FRAMER_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/byte_buffer.h"
#include "tfrecord/format.h"

namespace tfq {

class RecordFramer {
 public:
  // Leaves room for the header; returns where the record starts.
  size_t Open(ByteBuffer* out) {
    const size_t start = out->size();
    out->CommitTo(out->Reserve(tfrecord::kHeaderSize) + tfrecord::kHeaderSize);
    return start;
  }

  // Fills in the header of the record opened at `start` and appends its footer. The record is
  // still in the cache: the CPU overlaps the CRC's dependency chain with encoding the next one,
  // so batching CRCs across records gained nothing.
  void Close(ByteBuffer* out, size_t start) {
    const size_t length = out->size() - start - tfrecord::kHeaderSize;
    char* footer = out->Reserve(tfrecord::kFooterSize);
    char* record = out->data() + start;
    tfrecord::EncodeFixed64(record, length);
    tfrecord::EncodeFixed32(record + tfrecord::kLengthSize, HeaderCrc(length));
    tfrecord::EncodeFixed32(footer, tfrecord::MaskedCrc(record + tfrecord::kHeaderSize, length));
    out->CommitTo(footer + tfrecord::kFooterSize);
  }

  // Appends `record`, framed.
  void Append(std::string_view record, ByteBuffer* out) {
    const size_t start = Open(out);
    out->Append(record.data(), record.size());
    Close(out, start);
  }

 private:
  // The masked CRCs of record headers by record length, filled as lengths occur: the rows of a
  // table make records of a few dozen distinct lengths, and a CRC call per header costs as much
  // as a short record's own. 0 = not known yet (a CRC that is 0 is just recomputed).
  uint32_t HeaderCrc(size_t length) {
    char bytes[tfrecord::kLengthSize];
    if (length >= kLengths) {
      tfrecord::EncodeFixed64(bytes, length);
      return tfrecord::MaskedCrc(bytes, sizeof bytes);
    }
    uint32_t& crc = crcs_[length];
    if (crc == 0) {
      tfrecord::EncodeFixed64(bytes, length);
      crc = tfrecord::MaskedCrc(bytes, sizeof bytes);
    }
    return crc;
  }

  static constexpr size_t kLengths = 4096;
  std::vector<uint32_t> crcs_ = std::vector<uint32_t>(kLengths, 0);
};

}  // namespace tfq

#endif  // TFQ_CONVERT_RECORD_FRAMER_H_
