// Opening inputs through the I/O seam: one open regular file serves both the record stream and
// the copies (RandomAccessFile), and the shuffles' second open says what failed.
#include "reshard/record_source.h"

#include <doctest/doctest.h>

#include <cstdio>

#include "io/random_access_file.h"
#include "reshard_test_util.h"

namespace tfq::reshard {
namespace {

using testing::Recs;
using testing::WriteRecords;

TEST_CASE("OpenRecordFile: a regular uncompressed file is one open file for the stream and the copies") {
  const std::string dir = testing::MakeTempDir();
  WriteRecords(dir + "/in", Recs(0, 5));
  const std::string bytes = RandomAccessFile::ReadAll(dir + "/in").value();
  Result<OpenedRecordFile> opened = OpenRecordFile(dir + "/in", {});
  REQUIRE(opened.ok());
  CHECK(opened->regular);
  CHECK(opened->file_bytes == bytes.size());
  REQUIRE(opened->source);
  CHECK(opened->source->name() == dir + "/in");
  // Another file put under the name afterwards changes nothing: both read the file opened.
  WriteRecords(dir + "/other", Recs(7, 8));
  REQUIRE(std::rename((dir + "/other").c_str(), (dir + "/in").c_str()) == 0);
  std::string copied(bytes.size(), '\0');
  REQUIRE(opened->source->ReadExactly(0, bytes.size(), copied.data()).ok());
  CHECK(copied == bytes);
  std::string_view streamed;
  REQUIRE(opened->stream->Peek(bytes.size(), &streamed).ok());
  CHECK(streamed == bytes);
}

TEST_CASE("OpenRecordFile: a compressed file has no source to copy from; a missing one is kNotFound") {
  const std::string dir = testing::MakeTempDir();
  const std::string gz = testing::WriteGzipShard(dir + "/z", Recs(0, 3));
  Result<OpenedRecordFile> opened = OpenRecordFile(gz, {});
  REQUIRE(opened.ok());
  CHECK(opened->regular);
  CHECK(opened->compression == Compression::kGzip);
  CHECK_FALSE(opened->source);
  Result<OpenedRecordFile> missing = OpenRecordFile(dir + "/nope", {});
  CHECK(missing.status().code() == StatusCode::kNotFound);
  CHECK(missing.status().message().rfind(dir + "/nope: ", 0) == 0);
}

TEST_CASE("OpenInputAgain: the file, or an error saying it could not be opened again") {
  const std::string dir = testing::MakeTempDir();
  WriteRecords(dir + "/in", Recs(0, 2));
  Result<std::unique_ptr<RandomAccessFile>> again = OpenInputAgain(dir + "/in", /*random_order=*/true);
  REQUIRE(again.ok());
  CHECK((*again)->size() == RandomAccessFile::ReadAll(dir + "/in").value().size());
  Result<std::unique_ptr<RandomAccessFile>> gone = OpenInputAgain(dir + "/gone");
  CHECK(gone.status().code() == StatusCode::kNotFound);
  CHECK(gone.status().message() == dir + "/gone: cannot open it again: No such file or directory");
}

}  // namespace
}  // namespace tfq::reshard
