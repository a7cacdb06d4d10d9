// Property: seeded random record streams (0 .. 300 KiB records, empty ones included) written with
// each compression read back equal and in the same number, whether the compression is given or
// sniffed, whether records are read (failing on corruption, or resyncing) or only skipped.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/random.h"
#include "io/compression.h"
#include "io/file_streams.h"
#include "tfrecord/open.h"
#include "tfrecord/record_reader.h"
#include "tfrecord/record_writer.h"

namespace tfq::tfrecord {
namespace {

// Mostly small records (the framing's corner cases are near 0 and 12 bytes), 1 in 200 up to
// 300 KiB (bigger than the decompressors' and file readers' buffers); text-like or random bytes.
std::string RandomRecord(Xoshiro256& rng) {
  const size_t size = rng.Below(200) == 0 ? rng.Below(300 << 10) : rng.Below(size_t{1} << rng.Below(12));
  const uint64_t alphabet = rng.Below(2) == 0 ? 256 : 1 + rng.Below(8);
  std::string record(size, '\0');
  for (char& c : record) c = static_cast<char>('a' + rng.Below(alphabet));
  return record;
}

std::string Write(const std::vector<std::string>& records, Compression compression) {
  std::string bytes;
  std::unique_ptr<OutputStream> out = NewStringOutputStream("mem", &bytes);
  if (compression != Compression::kNone) out = NewCompressingStream(std::move(out), compression);
  RecordWriter writer(out.get());
  for (const std::string& r : records) REQUIRE(writer.Write(r).ok());
  REQUIRE(out->Close().ok());
  return bytes;
}

std::unique_ptr<RecordReader> Open(const std::string& bytes, Compression given, Compression expected,
                                   CorruptionPolicy policy) {
  Result<OpenedInput> opened = OpenRecordStream(NewMemoryInputStream("mem", bytes), given);
  REQUIRE(opened.ok());
  REQUIRE(opened->compression == expected);
  RecordReaderOptions options;
  options.on_corruption = policy;
  return std::make_unique<RecordReader>(std::move(opened->stream), options);
}

TEST_CASE("property: records written with each compression read back equal") {
  Xoshiro256 rng(0x7f7ec0de);
  const Compression kCompressions[] = {Compression::kNone, Compression::kGzip, Compression::kZlib};
  for (int i = 0; i < 3000; ++i) {
    const Compression compression = kCompressions[i % 3];
    std::vector<std::string> records(rng.Below(6));
    for (std::string& r : records) r = RandomRecord(rng);
    const std::string bytes = Write(records, compression);
    CAPTURE(i);
    CAPTURE(records.size());

    const Compression given = rng.Below(2) == 0 ? Compression::kAuto : compression;
    const CorruptionPolicy policy = rng.Below(2) == 0 ? CorruptionPolicy::kFail : CorruptionPolicy::kResync;
    std::unique_ptr<RecordReader> reader = Open(bytes, given, compression, policy);
    std::string_view record;
    size_t n = 0;
    while (reader->Read(&record)) {
      REQUIRE(n < records.size());
      REQUIRE(record == records[n]);
      ++n;
    }
    REQUIRE_MESSAGE(reader->status().ok(), reader->status().ToString());
    REQUIRE(n == records.size());
    REQUIRE(reader->skipped().empty());

    std::unique_ptr<RecordReader> counter = Open(bytes, compression, compression, CorruptionPolicy::kFail);
    size_t counted = 0;
    while (counter->Skip()) ++counted;
    REQUIRE(counter->status().ok());
    REQUIRE(counted == records.size());
  }
}

}  // namespace
}  // namespace tfq::tfrecord
