#include "tfrecord/record_writer.h"

#include <string>

#include "tfrecord/format.h"

namespace tfq::tfrecord {

Status RecordWriter::Write(std::string_view record) {
  char header[kHeaderSize];
  EncodeHeader(record.size(), header);
  char footer[kFooterSize];
  EncodeFixed32(footer, MaskedCrc(record.data(), record.size()));
  TFQ_RETURN_IF_ERROR(out_->Write(std::string_view(header, kHeaderSize)));
  TFQ_RETURN_IF_ERROR(out_->Write(record));
  TFQ_RETURN_IF_ERROR(out_->Write(std::string_view(footer, kFooterSize)));
  ++records_;
  bytes_ += record.size() + kFramingOverhead;
  return Status::OK();
}

Status RecordWriter::WriteFramed(std::string_view framed, uint64_t count) {
  TFQ_RETURN_IF_ERROR(out_->Write(framed));
  records_ += count;
  bytes_ += framed.size();
  return Status::OK();
}

void AppendFramedRecord(std::string_view record, std::string* out) {
  char header[kHeaderSize];
  EncodeHeader(record.size(), header);
  char footer[kFooterSize];
  EncodeFixed32(footer, MaskedCrc(record.data(), record.size()));
  out->append(header, kHeaderSize);
  out->append(record);
  out->append(footer, kFooterSize);
}

}  // namespace tfq::tfrecord
