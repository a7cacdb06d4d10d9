// Fuzz target: the TFRecord reader (src/tfrecord) over the decompressing streams (src/io).
//
// Input: one mode byte, then the stream. The mode picks the compression (none, gzip, zlib, or
// sniffed as OpenRecordInput sniffs a file), the corruption policy (fail, skip data-CRC errors,
// resync) and whether records are read or only skipped (the `--count` path). Caps are small so
// that a hostile length or a decompression bomb is refused quickly instead of exhausting memory.
// Checked: no crash or leak, reading always ends, and a clean end leaves an OK status while a
// failed read leaves an error.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "fuzz_check.h"
#include "io/file_streams.h"
#include "tfrecord/open.h"
#include "tfrecord/record_reader.h"

namespace {

constexpr tfq::Compression kCompressions[] = {tfq::Compression::kNone, tfq::Compression::kGzip,
                                              tfq::Compression::kZlib, tfq::Compression::kAuto};
constexpr tfq::tfrecord::CorruptionPolicy kPolicies[] = {
    tfq::tfrecord::CorruptionPolicy::kFail, tfq::tfrecord::CorruptionPolicy::kSkipDataCrc,
    tfq::tfrecord::CorruptionPolicy::kResync};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);

  tfq::Result<tfq::tfrecord::OpenedInput> opened = tfq::tfrecord::OpenRecordStream(
      tfq::NewMemoryInputStream("fuzz.tfrecord", std::string(bytes)), kCompressions[mode & 3],
      /*max_decompressed_bytes=*/16 << 20);
  if (!opened.ok()) return 0;

  tfq::tfrecord::RecordReaderOptions options;
  options.max_record_bytes = 1 << 20;
  options.on_corruption = kPolicies[((mode >> 2) & 3) % 3];
  tfq::tfrecord::RecordReader reader(std::move(opened->stream), options);
  const bool skip_only = (mode >> 4) & 1;
  std::string_view record;
  uint64_t returned = 0;
  while (skip_only ? reader.Skip() : reader.Read(&record)) {
    if (!skip_only) FUZZ_CHECK(record.size() <= options.max_record_bytes);
    ++returned;
  }
  FUZZ_CHECK(returned <= reader.records_framed());
  FUZZ_CHECK(reader.status().ok() == (reader.error() == tfq::tfrecord::ReadError::kNone));
  // Once finished, the reader stays finished.
  FUZZ_CHECK(!reader.Read(&record));
  return 0;
}
