#include "tfrecord/record_writer.h"

#include <doctest/doctest.h>

#include "io/file_streams.h"
#include "tfrecord/format.h"
#include "tfrecord/open.h"

namespace tfq::tfrecord {

TEST_CASE("a record is framed as length, masked length CRC, data, masked data CRC") {
  std::string out;
  auto sink = NewStringOutputStream("mem", &out);
  RecordWriter writer(sink.get());
  REQUIRE(writer.Write("hello").ok());
  REQUIRE(sink->Close().ok());
  REQUIRE(out.size() == 5 + kFramingOverhead);
  CHECK(DecodeFixed64(out.data()) == 5);
  CHECK(DecodeFixed32(out.data() + 8) == crc32c::Mask(crc32c::Value(out.data(), 8)));
  CHECK(out.substr(12, 5) == "hello");
  CHECK(DecodeFixed32(out.data() + 17) == crc32c::Mask(crc32c::Value("hello", 5)));
  CHECK(writer.records_written() == 1);
  CHECK(writer.bytes_written() == 21);
}

TEST_CASE("an empty record is 16 bytes of framing") {
  std::string out;
  AppendFramedRecord("", &out);
  CHECK(out.size() == 16);
  CHECK(DecodeFixed64(out.data()) == 0);
  CHECK(DecodeFixed32(out.data() + 12) == crc32c::Mask(0));
}

TEST_CASE("the writer's bytes equal AppendFramedRecord's") {
  std::string a, b;
  auto sink = NewStringOutputStream("mem", &a);
  RecordWriter writer(sink.get());
  for (const char* r : {"x", "", "a longer record"}) {
    REQUIRE(writer.Write(r).ok());
    AppendFramedRecord(r, &b);
  }
  REQUIRE(sink->Close().ok());
  CHECK(a == b);
}

TEST_CASE("shard names follow the -00000-of-00004 convention") {
  CHECK(ShardName("out/train", 0, 4) == "out/train-00000-of-00004");
  CHECK(ShardName("t", 12, 100, ".tfrecord") == "t-00012-of-00100.tfrecord");
  CHECK(ShardName("t", 3, 123456) == "t-00003-of-123456");
}

}  // namespace tfq::tfrecord
