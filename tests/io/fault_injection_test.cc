// Real and injected write/read failures at the io level: what the message says, and that a file
// output that fails leaves nothing behind (neither its final name nor its temporary).
#include <fcntl.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <filesystem>

#include "common/test_env.h"
#include "common/fault_streams.h"
#include "io/compression.h"
#include "io/file_streams.h"
#include "io_test_util.h"

namespace tfq {
namespace {

using testing::FailingInputStream;
using testing::FailingOutputStream;
using testing::FileSizeLimit;
using testing::MakeTempDir;

using ::tfq::testing::Contains;

TEST_CASE("/dev/full: a real ENOSPC says disk full and names the output") {
  auto out = CreateOutputFile("/dev/full");
  REQUIRE(out.ok());
  Status s = (*out)->Write(std::string(3 << 20, 'x'));  // larger than the buffer: written at once
  if (s.ok()) s = (*out)->Close();
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(Contains(s.message(), "/dev/full: disk full"));
}

TEST_CASE("a file that cannot grow (RLIMIT_FSIZE) fails, names itself and leaves nothing") {
  for (size_t size : {size_t{2000}, size_t{5} << 20}) {  // 80 KB buffered: fails in Close; 5 MB: in Write
    CAPTURE(size);
    const std::string dir = MakeTempDir();
    Status s;
    {
      FileSizeLimit limit(64 << 10);
      auto out = CreateOutputFile(dir + "/out.tfrecord");
      REQUIRE(out.ok());
      for (int i = 0; i < 40 && s.ok(); ++i) s = (*out)->Write(std::string(size, 'x'));
      if (s.ok()) s = (*out)->Close();
    }
    CHECK(s.code() == StatusCode::kIoError);
    CHECK(Contains(s.message(), dir + "/out.tfrecord: "));
    CHECK(Contains(s.message(), dir + "/out.tfrecord: file too large for this process's file-size limit (ulimit -f)"));
    CHECK(std::filesystem::is_empty(dir));
  }
}

TEST_CASE("a compressing stream passes its sink's disk-full error up and abandons the file") {
  const std::string dir = MakeTempDir();
  auto file = CreateOutputFile(dir + "/x.gz");
  REQUIRE(file.ok());
  auto sink = std::make_unique<FailingOutputStream>(dir + "/x.gz", 1000, std::move(file).value());
  auto gz = NewCompressingStream(std::move(sink), Compression::kGzip);
  Status s;
  const std::string noise = testing::TestBytes(1 << 20);
  for (int i = 0; i < 4 && s.ok(); ++i) s = gz->Write(noise);
  if (s.ok()) s = gz->Close();
  CHECK(s.message() == dir + "/x.gz: disk full (No space left on device); free some space or write elsewhere");
  gz.reset();
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("the fakes: budgets, sticky errors, offsets") {
  FailingOutputStream out("o", 5);
  CHECK(out.Write("abc").ok());
  CHECK(out.Write("de").ok());
  CHECK(out.Write("f").code() == StatusCode::kIoError);
  CHECK(out.Write("").code() == StatusCode::kIoError);  // sticky
  CHECK(out.Close().code() == StatusCode::kIoError);

  FailingInputStream in("in.bin", "0123456789", 4);
  std::string_view v;
  CHECK(in.Peek(2, &v).ok());
  CHECK(v == "0123");
  in.Consume(4);
  Status s = in.Peek(1, &v);
  CHECK(s.message() == "in.bin: read error at byte 4: Input/output error");
  FailingInputStream whole("w", "01", 10);
  CHECK(whole.Peek(5, &v).ok());  // the budget is past the end: a clean end of stream
  CHECK(v == "01");
}

TEST_CASE("a decompressing stream reports its source's read error, not corruption") {
  const std::string compressed = testing::ZlibCompress(testing::TestBytes(200000), /*gzip=*/true);
  auto in = NewDecompressingStream(
      std::make_unique<FailingInputStream>("in.gz", compressed, compressed.size() / 2), Compression::kGzip);
  std::string all;
  Status s = testing::ReadAll(*in, &all);
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(Contains(s.message(), "in.gz: read error at byte"));
}

}  // namespace
}  // namespace tfq
