// The read-ahead stream with tiny blocks, so that every Peek crosses block boundaries: the
// stitching of straddling bytes, the end, errors, and stopping the reading thread midway.
#include "io/read_ahead_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <random>
#include <string>

#include "common/page_buffer.h"
#include "common/test_env.h"
#include "io_test_util.h"

namespace tfq {
namespace {

using testing::MakeTempDir;
using testing::TestBytes;
using testing::WriteFileOrDie;

std::unique_ptr<InputStream> OpenReadAhead(const std::string& path, size_t block, size_t blocks) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  return NewReadAheadFileStream(path, fd, block, blocks);
}

TEST_CASE("random Peek/Consume/Skip calls see the file's bytes, whatever the block size") {
  const std::string dir = MakeTempDir();
  for (size_t size : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{1000},
                      size_t{64} * 37}) {
    const std::string data = TestBytes(size, static_cast<uint32_t>(size) + 1);
    WriteFileOrDie(dir + "/f", data);
    for (size_t block : {size_t{1}, size_t{7}, size_t{64}, size_t{4096}}) {
      for (size_t blocks : {size_t{1}, size_t{2}, size_t{5}}) {
        CAPTURE(size);
        CAPTURE(block);
        CAPTURE(blocks);
        auto s = OpenReadAhead(dir + "/f", block, blocks);
        std::mt19937 rng(static_cast<uint32_t>(size * 31 + block * 7 + blocks));
        uint64_t pos = 0;
        while (pos < size) {
          REQUIRE(s->position() == pos);
          const size_t remaining = size - pos;
          if (rng() % 5 == 0) {
            const uint64_t n = rng() % 300;
            uint64_t skipped = 0;
            REQUIRE(s->Skip(n, &skipped).ok());
            REQUIRE(skipped == std::min<uint64_t>(n, remaining));
            pos += skipped;
            continue;
          }
          const size_t min_bytes = rng() % 200;
          std::string_view v;
          REQUIRE(s->Peek(min_bytes, &v).ok());
          REQUIRE(v.size() >= std::min(min_bytes, remaining));
          REQUIRE(v.size() <= remaining);
          REQUIRE(v == std::string_view(data).substr(pos, v.size()));
          const size_t n = std::min(v.size(), static_cast<size_t>(rng() % (min_bytes + 2)));
          s->Consume(n);
          pos += n;
        }
        std::string_view v;
        REQUIRE(s->Peek(10, &v).ok());
        CHECK(v.empty());
        CHECK(s->position() == size);
      }
    }
  }
}

TEST_CASE("a Peek larger than every block is handed out contiguous") {
  const std::string dir = MakeTempDir();
  const std::string data = TestBytes(10000, 5);
  WriteFileOrDie(dir + "/f", data);
  auto s = OpenReadAhead(dir + "/f", 16, 2);
  std::string_view v;
  REQUIRE(s->Peek(3, &v).ok());
  s->Consume(3);
  REQUIRE(s->Peek(9000, &v).ok());
  REQUIRE(v.size() >= 9000);
  CHECK(v == std::string_view(data).substr(3, v.size()));
  s->Consume(8999);
  REQUIRE(s->Peek(5000, &v).ok());  // more than is left: what is left, and no error
  CHECK(v == std::string_view(data).substr(9002));
}

TEST_CASE("a read error comes after the bytes read before it, naming the file") {
  // pread on a directory fails with EISDIR: an error from the first block on.
  const std::string dir = MakeTempDir();
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  auto s = NewReadAheadFileStream("some/dir", fd, 64, 2);
  std::string_view v;
  Status st = s->Peek(1, &v);
  CHECK_FALSE(st.ok());
  CHECK(v.empty());
  CHECK(st.ToString().find("some/dir") != std::string::npos);
  CHECK_FALSE(s->Peek(1, &v).ok());  // and it stays
}

TEST_CASE("destroying the stream midway stops its reading thread") {
  const std::string dir = MakeTempDir();
  const std::string data = TestBytes(size_t{4} << 20, 9);
  WriteFileOrDie(dir + "/f", data);
  for (int i = 0; i < 50; ++i) {
    auto s = OpenReadAhead(dir + "/f", 4096, 3);
    std::string_view v;
    if (i % 2 == 0) {
      REQUIRE(s->Peek(static_cast<size_t>(i) * 1000 + 100, &v).ok());
      CHECK(v.substr(0, 100) == std::string_view(data).substr(0, 100));
    }
  }  // each destructor joins the thread (a hang here fails the test by its timeout)
}

TEST_CASE("blocks start on a page boundary, where the kernel's copy into them is fast") {
  // Each block is filled from a file offset that is a multiple of its size; a block 16 bytes past
  // a page (malloc's place for large blocks) made these reads 3-4x slower on AMD Zen 3
  // (common/page_buffer.h). The first view starts at the first block's start.
  const std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/f", TestBytes(size_t{3} << 20, 5));
  auto s = OpenReadAhead(dir + "/f", kReadAheadBlockBytes, kReadAheadBlocks);
  for (int block = 0; block < 6; ++block) {
    std::string_view v;
    REQUIRE(s->Peek(1, &v).ok());
    REQUIRE(v.size() == kReadAheadBlockBytes);
    CHECK(reinterpret_cast<uintptr_t>(v.data()) % kPageBytes == 0);
    s->Consume(v.size());
  }
}

}  // namespace
}  // namespace tfq
