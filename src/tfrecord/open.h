// Opening TFRecord inputs and outputs by path, with compression chosen or sniffed.
#ifndef TFQ_TFRECORD_OPEN_H_
#define TFQ_TFRECORD_OPEN_H_

#include <memory>
#include <string>

#include "common/status.h"
#include "io/compression.h"
#include "io/file_streams.h"
#include "io/input_stream.h"
#include "io/output_stream.h"

namespace tfq::tfrecord {

struct OpenedInput {
  std::unique_ptr<InputStream> stream;  // decompressed record stream
  Compression compression;              // what was used (never kAuto)
};

// Opens `path` ("-" = stdin) as a record stream. With kAuto the first bytes decide: a header whose
// length CRC verifies (or an empty stream) means uncompressed, else the gzip/zlib magic; anything
// else is read as uncompressed and the reader reports the corruption.
// `limit` guards against decompression bombs (io/decompression_limit.h; the default is the
// ratio policy of --max-decompressed, a plain number a total, 0 none). `pattern` says how the
// file will be read (io/file_streams.h): kSkipping for a reader that only steps over records.
Result<OpenedInput> OpenRecordInput(const std::string& path, Compression compression,
                                    const DecompressionLimit& limit = DecompressionLimit::Default(),
                                    ReadPattern pattern = ReadPattern::kSequential);

// What OpenRecordStream takes `stream` to be with kAuto, from its first bytes (peeked, not
// consumed): kNone for an empty stream or one starting with a verifying header, else the
// gzip/zlib magic, else kNone (the reader then reports the corruption).
Result<Compression> SniffRecordCompression(InputStream& stream);

// OpenRecordInput for a stream already open (in-memory inputs, the fuzzers): the same sniffing
// and decompression, applied to `raw`.
Result<OpenedInput> OpenRecordStream(std::unique_ptr<InputStream> raw, Compression compression,
                                     const DecompressionLimit& limit = DecompressionLimit::Default());

// Creates `path` ("-" = stdout) for records; kAuto picks from the extension. A compressed output
// is compressed on `pool`'s threads (outliving the stream), or by the writing thread without one.
Result<std::unique_ptr<OutputStream>> CreateRecordOutput(const std::string& path,
                                                         Compression compression,
                                                         DeflatePool* pool = nullptr);

// "<prefix>-00003-of-00010<suffix>": the shard names of tensorflow/models and Apache Beam.
std::string ShardName(const std::string& prefix, uint64_t index, uint64_t count,
                      const std::string& suffix = "");

}  // namespace tfq::tfrecord

#endif  // TFQ_TFRECORD_OPEN_H_
