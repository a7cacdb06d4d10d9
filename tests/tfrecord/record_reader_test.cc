// One test per reading outcome of docs/tfrecord-format.md, each made by editing the bytes of a
// good stream (LevelDB's log_test idea).
#include "common/test_env.h"
#include "tfrecord/record_reader.h"

#include <doctest/doctest.h>

#include <zlib.h>

#include "io/compression.h"
#include "record_test_util.h"
#include "tfrecord/format.h"
#include "tfrecord/open.h"

namespace tfq::tfrecord {
namespace {

using testing::Frame;
using testing::ReadAll;
using testing::ReaderOver;

const std::vector<std::string> kRecords = {"first", "", std::string(1000, 'x'), "last"};

using ::tfq::testing::Contains;

}  // namespace

TEST_CASE("good records read back in order, then a clean end") {
  auto reader = ReaderOver(Frame(kRecords));
  CHECK(ReadAll(reader) == kRecords);
  CHECK(reader.status().ok());
  CHECK(reader.error() == ReadError::kNone);
  CHECK(reader.records_framed() == 4);
}

TEST_CASE("an empty stream is a valid stream with no records") {
  auto reader = ReaderOver("");
  CHECK(ReadAll(reader).empty());
  CHECK(reader.status().ok());
}

TEST_CASE("offsets and framed sizes describe each record") {
  auto reader = ReaderOver(Frame(kRecords));
  std::string_view rec;
  uint64_t expected_offset = 0;
  for (const auto& r : kRecords) {
    REQUIRE(reader.Read(&rec));
    CHECK(reader.record_offset() == expected_offset);
    CHECK(reader.record_framed_size() == r.size() + kFramingOverhead);
    expected_offset += r.size() + kFramingOverhead;
  }
}

TEST_CASE("framed_record is the last read record with its framing, empty after a skip or the end") {
  const std::string stream = Frame(kRecords);
  auto reader = ReaderOver(stream);
  CHECK(reader.framed_record().empty());
  std::string_view rec;
  REQUIRE(reader.Read(&rec));
  CHECK(reader.framed_record() == std::string_view(stream).substr(0, kRecords[0].size() + kFramingOverhead));
  REQUIRE(reader.Read(&rec));  // the empty record: framing alone
  CHECK(reader.framed_record() == Frame({""}));
  REQUIRE(reader.Skip());
  CHECK(reader.framed_record().empty());
  REQUIRE(reader.Read(&rec));
  CHECK(reader.framed_record() == Frame({"last"}));
  CHECK_FALSE(reader.Read(&rec));
  CHECK(reader.framed_record().empty());
}

TEST_CASE("a stream cut inside a header is a truncated header, not a clean end") {
  std::string bytes = Frame(kRecords);
  bytes += Frame({"extra"}).substr(0, 7);
  auto reader = ReaderOver(bytes);
  CHECK(ReadAll(reader) == kRecords);
  CHECK(reader.error() == ReadError::kTruncatedHeader);
  CHECK(reader.status().code() == StatusCode::kCorruption);
  const std::string msg = reader.status().message();
  CHECK(Contains(msg, "mem.tfrecord: record 4 (byte " + std::to_string(bytes.size() - 7) + ")"));
  CHECK(Contains(msg, "truncated header"));
}

TEST_CASE("a stream cut inside the payload or footer is a truncated payload") {
  const std::string good = Frame(kRecords);
  for (size_t cut : {good.size() - 1, good.size() - 4, good.size() - 6}) {
    auto reader = ReaderOver(good.substr(0, cut));
    auto got = ReadAll(reader);
    CHECK(got.size() == 3);
    CHECK(reader.error() == ReadError::kTruncatedPayload);
    CHECK(Contains(reader.status().message(), "record 3 (byte "));
  }
}

TEST_CASE("a flipped length bit is a length CRC mismatch, and the length is not trusted") {
  std::string bytes = Frame(kRecords);
  const size_t third = Frame({kRecords[0], kRecords[1]}).size();
  bytes[third + 7] ^= 0x40;  // the length becomes enormous
  auto reader = ReaderOver(bytes);
  CHECK(ReadAll(reader).size() == 2);
  CHECK(reader.error() == ReadError::kLengthCrcMismatch);
  CHECK(Contains(reader.status().message(), "record 2 (byte " + std::to_string(third) + ")"));
  CHECK(Contains(reader.status().message(), "length CRC mismatch"));
}

TEST_CASE("a verifying length beyond the cap is refused before any allocation") {
  RecordReaderOptions options;
  options.max_record_bytes = 100;
  auto reader = ReaderOver(Frame(kRecords), options);
  CHECK(ReadAll(reader).size() == 2);
  CHECK(reader.error() == ReadError::kRecordTooLarge);
  CHECK(reader.status().code() == StatusCode::kCorruption);
  CHECK(Contains(reader.status().message(), "--max-record-size"));
}

TEST_CASE("hostile lengths with a verifying CRC: near 2^64 and just above the default cap") {
  for (const uint64_t length : {UINT64_MAX, UINT64_MAX - kFramingOverhead, kDefaultMaxRecordBytes + 1}) {
    CAPTURE(length);
    std::string bytes(kHeaderSize, '\0');
    EncodeHeader(length, bytes.data());
    bytes += "tiny";
    auto reader = ReaderOver(Frame({"ok"}) + bytes);
    CHECK(ReadAll(reader).size() == 1);
    CHECK(reader.error() == ReadError::kRecordTooLarge);
    CHECK(Contains(reader.status().message(), "record 1 (byte 18): record length " + std::to_string(length) +
                                                  " exceeds the cap of 1073741824 bytes"));
    CHECK(Contains(reader.status().message(), "--max-record-size"));
    auto skipper = ReaderOver(bytes);  // --count's path
    CHECK_FALSE(skipper.Skip());
    CHECK(skipper.error() == ReadError::kRecordTooLarge);
  }
}

TEST_CASE("a length just under the cap in a short stream is a truncated payload") {
  std::string bytes(kHeaderSize, '\0');
  EncodeHeader(kDefaultMaxRecordBytes - kFramingOverhead, bytes.data());
  bytes += std::string(100, 'x');
  auto reader = ReaderOver(bytes);
  CHECK(ReadAll(reader).empty());
  CHECK(reader.error() == ReadError::kTruncatedPayload);
  CHECK(Contains(reader.status().message(), "the stream ends 100 bytes into a"));
}

TEST_CASE("a flipped data bit is a data CRC mismatch") {
  std::string bytes = Frame(kRecords);
  bytes[kHeaderSize + 1] ^= 1;  // inside "first"
  auto reader = ReaderOver(bytes);
  CHECK(ReadAll(reader).empty());
  CHECK(reader.error() == ReadError::kDataCrcMismatch);
  CHECK(Contains(reader.status().message(), "mem.tfrecord: record 0 (byte 0): data CRC mismatch"));
}

TEST_CASE("a flipped footer bit is a data CRC mismatch too") {
  std::string bytes = Frame({"abc"});
  bytes[bytes.size() - 1] ^= 0x80;
  auto reader = ReaderOver(bytes);
  CHECK(ReadAll(reader).empty());
  CHECK(reader.error() == ReadError::kDataCrcMismatch);
}

TEST_CASE("skip-corrupt drops a data-CRC failure, counts it and reads on") {
  std::string bytes = Frame(kRecords);
  const size_t third = Frame({kRecords[0], kRecords[1]}).size();
  bytes[third + kHeaderSize + 10] ^= 1;
  RecordReaderOptions options;
  options.on_corruption = CorruptionPolicy::kSkipDataCrc;
  auto reader = ReaderOver(bytes, options);
  CHECK(ReadAll(reader) == std::vector<std::string>{"first", "", "last"});
  CHECK(reader.status().ok());
  CHECK(reader.skipped().corrupt_records == 1);
  REQUIRE(reader.skipped().messages.size() == 1);
  CHECK(Contains(reader.skipped().messages[0], "record 2 (byte " + std::to_string(third) + ")"));
  CHECK(reader.records_framed() == 4);
}

TEST_CASE("skip-corrupt does not skip a bad header") {
  std::string bytes = Frame(kRecords);
  bytes[3] ^= 1;
  RecordReaderOptions options;
  options.on_corruption = CorruptionPolicy::kSkipDataCrc;
  auto reader = ReaderOver(bytes, options);
  CHECK(ReadAll(reader).empty());
  CHECK(reader.error() == ReadError::kLengthCrcMismatch);
}

TEST_CASE("resync scans past a bad header to the next verifying record") {
  std::string bytes = Frame(kRecords);
  const size_t third = Frame({kRecords[0], kRecords[1]}).size();
  bytes[third + 2] ^= 0x10;  // header of the 1000-byte record
  RecordReaderOptions options;
  options.on_corruption = CorruptionPolicy::kResync;
  auto reader = ReaderOver(bytes, options);
  CHECK(ReadAll(reader) == std::vector<std::string>{"first", "", "last"});
  CHECK(reader.status().ok());
  CHECK(reader.skipped().resyncs == 1);
  CHECK(reader.skipped().resync_bytes == 1000 + kFramingOverhead);
}

TEST_CASE("resync passes over garbage inserted between records") {
  std::string garbage(5000, '\0');
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>(i * 131 + 7);
  std::string bytes = Frame({"a", "b"}) + garbage + Frame({"c"});
  RecordReaderOptions options;
  options.on_corruption = CorruptionPolicy::kResync;
  auto reader = ReaderOver(bytes, options);
  CHECK(ReadAll(reader) == std::vector<std::string>{"a", "b", "c"});
  CHECK(reader.skipped().resync_bytes == garbage.size());
}

TEST_CASE("resync over trailing garbage ends, reporting what it skipped") {
  std::string bytes = Frame({"a"}) + std::string(100, '\x55');
  RecordReaderOptions options;
  options.on_corruption = CorruptionPolicy::kResync;
  auto reader = ReaderOver(bytes, options);
  CHECK(ReadAll(reader) == std::vector<std::string>{"a"});
  CHECK(reader.status().ok());
  CHECK(reader.skipped().resyncs == 1);
  CHECK(reader.skipped().resync_bytes == 100);
}

// Fake headers whose claimed records span the genuine ones (their data CRCs checked through
// CrcCheckpoints, in time independent of their length): the first candidate whose record verifies
// is still the one the reader picks up, byte for byte as before.
TEST_CASE("resync past fake headers with long claimed lengths finds the first verifying record") {
  std::string payload(300000, '\0');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>(i * 7 + i / 1000);
  const std::string tail = Frame({payload, "after"});
  std::string fakes;
  for (int i = 0; i < 200; ++i) {
    char header[kHeaderSize];
    // Each fake record ends inside or at the end of the genuine ones, at varying places.
    const uint64_t claimed = (200 - i) * 12 + (i % 3 == 0 ? tail.size() - 16 : tail.size() / 2);
    EncodeHeader(claimed, header);
    fakes.append(header, kHeaderSize);
  }
  const std::string bytes = Frame({"a"}) + std::string(12, '\xff') + fakes + tail;
  RecordReaderOptions options;
  options.on_corruption = CorruptionPolicy::kResync;
  auto reader = ReaderOver(bytes, options);
  CHECK(ReadAll(reader) == std::vector<std::string>{"a", payload, "after"});
  CHECK(reader.status().ok());
  CHECK(reader.skipped().resyncs == 1);
  CHECK(reader.skipped().resync_bytes == 12 + fakes.size());
}

TEST_CASE("Skip counts records from headers alone and still detects truncation") {
  const std::string good = Frame(kRecords);
  auto reader = ReaderOver(good);
  int n = 0;
  while (reader.Skip()) ++n;
  CHECK(n == 4);
  CHECK(reader.status().ok());

  auto cut = ReaderOver(good.substr(0, good.size() - 2));
  n = 0;
  while (cut.Skip()) ++n;
  CHECK(n == 3);
  CHECK(cut.error() == ReadError::kTruncatedPayload);
}

TEST_CASE("a gzip file read as plain says it looks gzip-compressed") {
  const std::string plain = Frame(kRecords);
  std::string gz;
  auto sink = NewCompressingStream(NewStringOutputStream("mem", &gz), Compression::kGzip);
  REQUIRE(sink->Write(plain).ok());
  REQUIRE(sink->Close().ok());
  auto reader = ReaderOver(gz);
  CHECK(ReadAll(reader).empty());
  CHECK(Contains(reader.status().message(), "looks GZIP-compressed"));
  CHECK(Contains(reader.status().message(), "-c gzip"));

  auto decompressed = RecordReader(
      NewDecompressingStream(NewMemoryInputStream("mem.gz", gz), Compression::kGzip), {});
  CHECK(ReadAll(decompressed) == kRecords);
  CHECK(decompressed.status().ok());
}

TEST_CASE("a truncated gzip stream is an error, not a clean end") {
  const std::string plain = Frame(kRecords);
  std::string gz;
  auto sink = NewCompressingStream(NewStringOutputStream("mem", &gz), Compression::kGzip);
  REQUIRE(sink->Write(plain).ok());
  REQUIRE(sink->Close().ok());
  auto reader = RecordReader(
      NewDecompressingStream(NewMemoryInputStream("mem.gz", gz.substr(0, gz.size() - 6)),
                             Compression::kGzip),
      {});
  ReadAll(reader);
  CHECK_FALSE(reader.status().ok());
  CHECK(reader.status().code() == StatusCode::kCorruption);
}

}  // namespace tfq::tfrecord
