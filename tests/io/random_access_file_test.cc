// RandomAccessFile's local fast paths behind the seam: exact reads, the size now, a stream over
// the same open file, and range copies into a local output (in the kernel, or through a buffer
// where the kernel cannot or the source is not a local file).
#include "io/random_access_file.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/test_env.h"
#include "io/file_streams.h"
#include "io/io_test_util.h"

namespace tfq {
namespace {

using testing::MakeTempDir;
using testing::TestBytes;
using testing::WriteFileOrDie;

std::string ReadBack(const std::string& path) {
  return RandomAccessFile::ReadAll(path).value();
}

int CreateForWriting(const std::string& path) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  REQUIRE(fd >= 0);
  return fd;
}

// A source that is not a local file (as an object would be): only Read.
class MemoryFile final : public RandomAccessFile {
 public:
  explicit MemoryFile(std::string bytes) : RandomAccessFile("mem://x", bytes.size()), bytes_(std::move(bytes)) {}
  Status Read(uint64_t offset, size_t n, char* dst, size_t* got) const override {
    *got = offset >= bytes_.size() ? 0 : std::min<size_t>(n, bytes_.size() - offset);
    if (*got) std::memcpy(dst, bytes_.data() + offset, *got);
    return Status::OK();
  }

 private:
  const std::string bytes_;
};

TEST_CASE("RandomAccessFile::ReadExactly: the bytes, or an error naming where the file ends") {
  const std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/f", "0123456789");
  auto file = RandomAccessFile::Open(dir + "/f");
  REQUIRE(file.ok());
  char buf[8];
  REQUIRE((*file)->ReadExactly(2, 4, buf).ok());
  CHECK(std::string(buf, 4) == "2345");
  Status s = (*file)->ReadExactly(8, 4, buf);
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(s.message() == dir + "/f: ends before byte 12 (was it truncated by someone else?)");
}

TEST_CASE("RandomAccessFile::CurrentSize: a local file's size now, not when opened") {
  const std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/f", "0123456789");
  auto file = RandomAccessFile::Open(dir + "/f", {.no_access_time = true, .random_order = true});
  REQUIRE(file.ok());
  REQUIRE(truncate((dir + "/f").c_str(), 4) == 0);
  CHECK((*file)->size() == 10);
  CHECK((*file)->CurrentSize().value() == 4);
  MemoryFile mem("abc");
  CHECK(mem.CurrentSize().value() == 3);
}

TEST_CASE("RandomAccessFile::OpenStream: the same open file, read sequentially, after the handle is gone") {
  const std::string dir = MakeTempDir();
  const std::string bytes = TestBytes(3 << 20);
  WriteFileOrDie(dir + "/f", bytes);
  for (ReadPattern pattern : {ReadPattern::kSequential, ReadPattern::kReadAhead}) {
    auto file = RandomAccessFile::Open(dir + "/f");
    REQUIRE(file.ok());
    auto stream = (*file)->OpenStream(pattern);
    REQUIRE(stream.ok());
    file->reset();
    // Replacing the path changes nothing for the stream: it reads the file that was opened.
    WriteFileOrDie(dir + "/other", "other");
    REQUIRE(rename((dir + "/other").c_str(), (dir + "/f").c_str()) == 0);
    std::string got;
    REQUIRE(testing::ReadAll(**stream, &got).ok());
    CHECK(got == bytes);
    CHECK((*stream)->name() == dir + "/f");
    WriteFileOrDie(dir + "/f", bytes);
  }
}

TEST_CASE("RandomAccessFile::AppendRangeTo: ranges of a local file appended in order") {
  const std::string dir = MakeTempDir();
  const std::string bytes = TestBytes(5 << 20);
  WriteFileOrDie(dir + "/in", bytes);
  auto file = RandomAccessFile::Open(dir + "/in");
  REQUIRE(file.ok());
  const int out = CreateForWriting(dir + "/out");
  RangeCopyScratch scratch;
  CHECK((*file)->AppendRangeTo(out, 100, 3 << 20, &scratch) == 0);
  CHECK((*file)->AppendRangeTo(out, 7, 10, &scratch) == 0);
  CHECK((*file)->AppendRangeTo(out, 0, 0, &scratch) == 0);
  close(out);
  CHECK(ReadBack(dir + "/out") == bytes.substr(100, 3 << 20) + bytes.substr(7, 10));
}

TEST_CASE("RandomAccessFile::AppendRangeTo: through the buffer where the kernel cannot copy") {
  const std::string dir = MakeTempDir();
  const std::string bytes = TestBytes(3 << 20);
  WriteFileOrDie(dir + "/in", bytes);
  auto file = RandomAccessFile::Open(dir + "/in");
  REQUIRE(file.ok());
  SUBCASE("the kernel refused once: the scratch remembers") {
    const int out = CreateForWriting(dir + "/out");
    RangeCopyScratch scratch;
    scratch.kernel_copy_refused = true;
    CHECK((*file)->AppendRangeTo(out, 5, (2 << 20) + 3, &scratch) == 0);
    CHECK(scratch.buffer);
    close(out);
    CHECK(ReadBack(dir + "/out") == bytes.substr(5, (2 << 20) + 3));
  }
  SUBCASE("a source that is not a local file") {
    MemoryFile mem(bytes);
    const int out = CreateForWriting(dir + "/out");
    RangeCopyScratch scratch;
    CHECK(mem.AppendRangeTo(out, 1, (1 << 20) + 9, &scratch) == 0);
    close(out);
    CHECK(ReadBack(dir + "/out") == bytes.substr(1, (1 << 20) + 9));
  }
}

TEST_CASE("RandomAccessFile::AppendRangeTo: a source that ends early is EIO, in both ways") {
  const std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/in", TestBytes(1000));
  auto file = RandomAccessFile::Open(dir + "/in");
  REQUIRE(file.ok());
  for (bool refused : {false, true}) {
    const int out = CreateForWriting(dir + "/out");
    RangeCopyScratch scratch;
    scratch.kernel_copy_refused = refused;
    CHECK((*file)->AppendRangeTo(out, 900, 200, &scratch) == EIO);
    close(out);
  }
  MemoryFile mem("abc");
  const int out = CreateForWriting(dir + "/out");
  RangeCopyScratch scratch;
  CHECK(mem.AppendRangeTo(out, 1, 5, &scratch) == EIO);
  close(out);
}

}  // namespace
}  // namespace tfq

namespace tfq {
namespace {

TEST_CASE("OutputStream::AppendRange: a local output copies in the kernel, others through Write") {
  const std::string dir = testing::MakeTempDir();
  const std::string bytes = testing::TestBytes(3 << 20);
  testing::WriteFileOrDie(dir + "/in", bytes);
  std::shared_ptr<const RandomAccessFile> in = RandomAccessFile::Open(dir + "/in").value();
  const std::string expected = "head" + bytes.substr(10, (2 << 20) + 5) + "mid" + bytes.substr(0, 7) + "tail";
  SUBCASE("a local file (CreateOutputFile)") {
    auto out = CreateOutputFile(dir + "/out");
    REQUIRE(out.ok());
    REQUIRE((*out)->Write("head").ok());
    REQUIRE((*out)->AppendRange(in, 10, (2 << 20) + 5).ok());
    REQUIRE((*out)->Write("mid").ok());
    REQUIRE((*out)->AppendRange(in, 0, 7).ok());
    REQUIRE((*out)->Write("tail").ok());
    CHECK((*out)->bytes_written() == expected.size());
    REQUIRE((*out)->Close().ok());
    CHECK(RandomAccessFile::ReadAll(dir + "/out").value() == expected);
  }
  SUBCASE("any other output (the default: read, then Write)") {
    std::string got;
    auto out = NewStringOutputStream("mem", &got);
    REQUIRE(out->Write("head").ok());
    REQUIRE(out->AppendRange(in, 10, (2 << 20) + 5).ok());
    REQUIRE(out->Write("mid").ok());
    REQUIRE(out->AppendRange(in, 0, 7).ok());
    REQUIRE(out->Write("tail").ok());
    REQUIRE(out->Close().ok());
    CHECK(got == expected);
  }
  SUBCASE("a source that ends early: an error naming it") {
    std::string got;
    auto out = NewStringOutputStream("mem", &got);
    Status s = out->AppendRange(in, bytes.size() - 3, 10);
    CHECK(s.code() == StatusCode::kIoError);
    CHECK(s.message().find(dir + "/in: ends before byte") == 0);
    auto file = CreateOutputFile(dir + "/out2");
    REQUIRE(file.ok());
    CHECK_FALSE((*file)->AppendRange(in, bytes.size() - 3, 10).ok());
  }
}

}  // namespace
}  // namespace tfq
