#include "tfrecord/open.h"

#include <cstdio>
#include <utility>

#include "io/file_streams.h"
#include "tfrecord/format.h"

namespace tfq::tfrecord {

Result<OpenedInput> OpenRecordInput(const std::string& path, Compression compression,
                                    const DecompressionLimit& limit, ReadPattern pattern) {
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<InputStream> raw, OpenInputFile(path, pattern));
  return OpenRecordStream(std::move(raw), compression, limit);
}

Result<OpenedInput> OpenRecordStream(std::unique_ptr<InputStream> stream, Compression compression,
                                     const DecompressionLimit& limit) {
  if (compression == Compression::kAuto) {
    TFQ_ASSIGN_OR_RETURN(compression, SniffRecordCompression(*stream));
  }
  if (compression != Compression::kNone) {
    stream = NewDecompressingStream(std::move(stream), compression, limit);
  }
  return OpenedInput{std::move(stream), compression};
}

Result<Compression> SniffRecordCompression(InputStream& stream) {
  std::string_view first;
  TFQ_RETURN_IF_ERROR(stream.Peek(kHeaderSize, &first));
  if (first.empty() || (first.size() >= kHeaderSize && HeaderCrcValid(first.data()))) {
    return Compression::kNone;
  }
  return SniffCompression(first);
}

Result<std::unique_ptr<OutputStream>> CreateRecordOutput(const std::string& path,
                                                         Compression compression,
                                                         DeflatePool* pool) {
  if (compression == Compression::kAuto) compression = CompressionFromExtension(path);
  Result<std::unique_ptr<OutputStream>> file = CreateOutputFile(path);
  if (!file.ok() || compression == Compression::kNone) return file;
  return NewCompressingStream(std::move(file).value(), compression, -1, pool);
}

std::string ShardName(const std::string& prefix, uint64_t index, uint64_t count,
                      const std::string& suffix) {
  char digits[64];
  std::snprintf(digits, sizeof digits, "-%05llu-of-%05llu", static_cast<unsigned long long>(index),
                static_cast<unsigned long long>(count));
  return prefix + digits + suffix;
}

}  // namespace tfq::tfrecord
