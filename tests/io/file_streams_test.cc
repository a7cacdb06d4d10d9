// Input streams: regular files, pipes, FIFOs, standard input and memory must hand out the
// same bytes at the same positions for the same Peek/Consume/Skip calls.
#include "io/file_streams.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <random>
#include <thread>
#include <vector>

#include "common/test_env.h"
#include "io/compression.h"
#include "io_test_util.h"

namespace tfq {
namespace {

using testing::MakeTempDir;
using testing::PipeFeeder;
using testing::ReadAll;
using testing::TestBytes;
using testing::WriteFileOrDie;

std::unique_ptr<InputStream> OpenOrDie(const std::string& path) {
  auto r = OpenInputFile(path);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return std::move(r).value();
}

// Runs a seeded sequence of Peek/Consume/Skip calls, checking every view against `data`, and
// returns the positions seen. The calls depend only on the seed and on what the contract
// guarantees (never on how much more than asked a stream happens to return), so every correct
// stream over the same bytes yields the same trace.
std::vector<uint64_t> RunScript(InputStream& s, const std::string& data, uint32_t seed) {
  std::mt19937 rng(seed);
  const size_t kPeekSizes[] = {0, 1, 7, 4096, 65536, (size_t{1} << 20) + 3, size_t{3} << 20};
  const uint64_t kSkipSizes[] = {0, 1, 100, 70000, (uint64_t{1} << 20) + 5, uint64_t{1} << 40};
  std::vector<uint64_t> trace;
  uint64_t pos = 0;
  for (int step = 0; step < 400 && pos < data.size(); ++step) {
    REQUIRE(s.position() == pos);
    size_t remaining = data.size() - pos;
    if (rng() % 4 != 0) {
      size_t min_bytes = kPeekSizes[rng() % std::size(kPeekSizes)];
      std::string_view v;
      REQUIRE(s.Peek(min_bytes, &v).ok());
      REQUIRE(v.size() >= std::min(min_bytes, remaining));
      REQUIRE(v.size() <= remaining);
      REQUIRE(v == std::string_view(data).substr(pos, v.size()));
      size_t guaranteed = std::min(min_bytes, remaining);
      size_t n = rng() % (guaranteed + 1);
      s.Consume(n);
      pos += n;
    } else {
      uint64_t n = kSkipSizes[rng() % std::size(kSkipSizes)];
      uint64_t skipped = 0;
      REQUIRE(s.Skip(n, &skipped).ok());
      REQUIRE(skipped == std::min<uint64_t>(n, remaining));
      pos += skipped;
    }
    trace.push_back(pos);
  }
  std::string rest;
  REQUIRE(ReadAll(s, &rest).ok());
  CHECK(rest == data.substr(pos));
  CHECK(s.position() == data.size());
  trace.push_back(s.position());
  return trace;
}

TEST_CASE("file, pipe, memory and gzip sources give the same bytes for the same calls") {
  const std::string data = TestBytes((size_t{5} << 20) + 17);
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/data", data);
  std::string gz = testing::ZlibCompress(data, /*gzip=*/true);
  for (uint32_t seed : {1u, 2u, 3u, 4u}) {
    CAPTURE(seed);
    auto mapped = OpenOrDie(dir + "/data");
    auto mapped_trace = RunScript(*mapped, data, seed);

    auto skipping = OpenInputFile(dir + "/data", ReadPattern::kSkipping);  // pread, small reads after long skips
    REQUIRE(skipping.ok());
    CHECK(RunScript(*skipping.value(), data, seed) == mapped_trace);

    auto read_ahead = OpenInputFile(dir + "/data", ReadPattern::kReadAhead);  // a reading thread
    REQUIRE(read_ahead.ok());
    CHECK(RunScript(*read_ahead.value(), data, seed) == mapped_trace);

    PipeFeeder feeder(data, /*write_chunk=*/4000 + seed * 1000);
    auto piped = OpenOrDie(feeder.path());
    CHECK(RunScript(*piped, data, seed) == mapped_trace);
    piped.reset();

    auto memory = NewMemoryInputStream("mem", data);
    CHECK(RunScript(*memory, data, seed) == mapped_trace);

    auto inflated = NewDecompressingStream(NewMemoryInputStream("x.gz", gz), Compression::kGzip);
    CHECK(RunScript(*inflated, data, seed) == mapped_trace);
  }
}

TEST_CASE("a regular file is handed out from one buffer without copying between peeks") {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/f", "hello world");
  auto s = OpenOrDie(dir + "/f");
  CHECK(s->name() == dir + "/f");
  std::string_view a, b;
  REQUIRE(s->Peek(1, &a).ok());
  CHECK(a == "hello world");
  s->Consume(6);
  REQUIRE(s->Peek(1, &b).ok());
  CHECK(b == "world");
  CHECK(b.data() == a.data() + 6);  // a view of the same buffer
  CHECK(s->position() == 6);
  CHECK(s->source_bytes_read() == 6);
}

TEST_CASE("skipping a regular file stops at its end without reading what it skips") {
  std::string dir = MakeTempDir();
  std::string path = dir + "/sparse";
  int fd = open(path.c_str(), O_CREAT | O_WRONLY, 0644);
  REQUIRE(fd >= 0);
  const uint64_t kSize = uint64_t{64} << 20;  // a hole: skipping it must not need its pages read
  REQUIRE(ftruncate(fd, static_cast<off_t>(kSize)) == 0);
  close(fd);
  auto s = OpenOrDie(path);
  uint64_t skipped = 0;
  REQUIRE(s->Skip(kSize - 10, &skipped).ok());
  CHECK(skipped == kSize - 10);
  REQUIRE(s->Skip(1000, &skipped).ok());
  CHECK(skipped == 10);
  CHECK(s->position() == kSize);
  std::string_view v;
  REQUIRE(s->Peek(1, &v).ok());
  CHECK(v.empty());
}

TEST_CASE("an empty file is an empty stream") {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/empty", "");
  auto s = OpenOrDie(dir + "/empty");
  std::string_view v;
  REQUIRE(s->Peek(100, &v).ok());
  CHECK(v.empty());
  uint64_t skipped = 1;
  REQUIRE(s->Skip(5, &skipped).ok());
  CHECK(skipped == 0);
  CHECK(s->position() == 0);
}

TEST_CASE("a missing file is kNotFound naming the path") {
  auto r = OpenInputFile("/nonexistent-dir/x.tfrecord");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kNotFound);
  CHECK(r.status().message() == "/nonexistent-dir/x.tfrecord: No such file or directory");
}

TEST_CASE("a directory is kInvalidArgument naming the path") {
  std::string dir = MakeTempDir();
  auto r = OpenInputFile(dir);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message() == dir + ": is a directory");
}

TEST_CASE("a pipe grows its buffer to a Peek larger than one read") {
  const std::string data = TestBytes(size_t{3} << 20, 7);
  PipeFeeder feeder(data, 1000);  // many small writes
  auto s = OpenOrDie(feeder.path());
  CHECK(s->name() == feeder.path());
  std::string_view v;
  REQUIRE(s->Peek(data.size() - 1, &v).ok());
  REQUIRE(v.size() >= data.size() - 1);
  CHECK(v == std::string_view(data).substr(0, v.size()));
  s->Consume(v.size());
  REQUIRE(s->Peek(10, &v).ok());
  CHECK(v.size() == data.size() - s->position());
  s->Consume(v.size());
  REQUIRE(s->Peek(10, &v).ok());
  CHECK(v.empty());
  CHECK(s->position() == data.size());
}

TEST_CASE("a pipe skips by reading and discarding") {
  const std::string data = TestBytes(size_t{2} << 20, 8);
  PipeFeeder feeder(data);
  auto s = OpenOrDie(feeder.path());
  std::string_view v;
  REQUIRE(s->Peek(10, &v).ok());
  uint64_t skipped = 0;
  REQUIRE(s->Skip(1500000, &skipped).ok());  // past what was buffered
  CHECK(skipped == 1500000);
  REQUIRE(s->Peek(4, &v).ok());
  CHECK(v.substr(0, 4) == std::string_view(data).substr(1500000, 4));
  REQUIRE(s->Skip(uint64_t{1} << 40, &skipped).ok());
  CHECK(skipped == data.size() - 1500000);
  CHECK(s->position() == data.size());
}

TEST_CASE("a FIFO is read with read() calls") {
  std::string dir = MakeTempDir();
  std::string fifo = dir + "/fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::string data = TestBytes(300000, 9);
  std::thread writer([&] {
    int fd = open(fifo.c_str(), O_WRONLY);
    if (fd < 0) return;
    std::string_view rest = data;
    while (!rest.empty()) {
      ssize_t n = write(fd, rest.data(), rest.size());
      if (n <= 0) break;
      rest.remove_prefix(static_cast<size_t>(n));
    }
    close(fd);
  });
  auto s = OpenOrDie(fifo);  // blocks until the writer opens its end
  std::string got;
  Status st = ReadAll(*s, &got, 100);
  writer.join();
  REQUIRE(st.ok());
  CHECK(got == data);
}

TEST_CASE("\"-\" reads standard input") {
  const std::string data = TestBytes(200000, 10);
  PipeFeeder feeder(data);
  int saved_stdin = dup(STDIN_FILENO);
  REQUIRE(dup2(feeder.read_fd(), STDIN_FILENO) == STDIN_FILENO);
  std::string got;
  std::string name;
  Status st;
  {
    auto r = OpenInputFile("-");
    if (r.ok()) {
      name = r.value()->name();
      st = ReadAll(*r.value(), &got);
    } else {
      st = r.status();
    }
  }
  dup2(saved_stdin, STDIN_FILENO);
  close(saved_stdin);
  REQUIRE(st.ok());
  CHECK(name == "<stdin>");
  CHECK(got == data);
}

TEST_CASE("a memory input stream serves its bytes") {
  auto s = NewMemoryInputStream("mem", "abcdef");
  CHECK(s->name() == "mem");
  std::string_view v;
  REQUIRE(s->Peek(2, &v).ok());
  CHECK(v == "abcdef");
  s->Consume(2);
  uint64_t skipped = 0;
  REQUIRE(s->Skip(3, &skipped).ok());
  CHECK(skipped == 3);
  REQUIRE(s->Peek(2, &v).ok());
  CHECK(v == "f");
  CHECK(s->position() == 5);
}

TEST_CASE("a string output stream appends and counts") {
  std::string out = "x";
  auto s = NewStringOutputStream("out", &out);
  REQUIRE(s->Write("abc").ok());
  REQUIRE(s->Write("").ok());
  REQUIRE(s->Write("de").ok());
  CHECK(s->bytes_written() == 5);
  REQUIRE(s->Close().ok());
  CHECK(out == "xabcde");
  CHECK(s->Write("z").code() == StatusCode::kInternal);
}

// A header walker's calls (12 bytes read, then a short or a long jump): the bytes at every
// position must be the file's, whether pread filled a buffer or read one header after a jump.
TEST_CASE("a file read for skipping hands out the file's bytes after short and long jumps") {
  const std::string data = TestBytes((size_t{8} << 20) + 123);
  const std::string path = MakeTempDir() + "/walk";
  WriteFileOrDie(path, data);
  auto opened = OpenInputFile(path, ReadPattern::kSkipping);
  REQUIRE(opened.ok());
  InputStream& s = *opened.value();
  std::mt19937 rng(7);
  uint64_t pos = 0;
  size_t steps = 0;
  while (pos < data.size()) {
    std::string_view v;
    REQUIRE(s.Peek(12, &v).ok());
    REQUIRE(v.size() >= std::min<uint64_t>(12, data.size() - pos));
    REQUIRE(v == std::string_view(data).substr(pos, v.size()));
    s.Consume(std::min<size_t>(12, v.size()));
    pos += std::min<size_t>(12, v.size());
    const uint64_t jump = rng() % 2 ? rng() % 2000 : 60000 + rng() % 200000;
    uint64_t skipped = 0;
    REQUIRE(s.Skip(jump, &skipped).ok());
    REQUIRE(skipped == std::min<uint64_t>(jump, data.size() - pos));
    pos += skipped;
    REQUIRE(s.position() == pos);
    ++steps;
  }
  CHECK(steps > 60);
  std::string_view end;
  REQUIRE(s.Peek(1, &end).ok());
  CHECK(end.empty());
}

// Another process truncating a file while it is read: the reader must get an error naming the
// file (a mapped file would have killed the process with SIGBUS), never a clean early end.
TEST_CASE("a regular file that shrinks while it is read is an I/O error naming it") {
  const std::string data = TestBytes(size_t{1} << 20);
  const std::string path = MakeTempDir() + "/shrinking";
  for (ReadPattern pattern : {ReadPattern::kSkipping, ReadPattern::kSequential}) {
    CAPTURE(static_cast<int>(pattern));
    WriteFileOrDie(path, data);
    auto opened = OpenInputFile(path, pattern);
    REQUIRE(opened.ok());
    InputStream& s = *opened.value();
    std::string_view v;
    REQUIRE(s.Peek(12, &v).ok());
    s.Consume(12);
    REQUIRE(truncate(path.c_str(), 4096) == 0);
    // A header walker jumps past the new end (the size it knows is the old one), then peeks.
    uint64_t skipped = 0;
    REQUIRE(s.Skip(500000, &skipped).ok());
    CHECK(skipped == 500000);
    Status st = s.Peek(12, &v);
    CHECK(st.code() == StatusCode::kIoError);
    CHECK(st.message().find(path + ": the file shrank while it was read (1048576 bytes when opened, "
                            "4096 now)") != std::string::npos);
    CHECK(v.empty());
  }
}

}  // namespace
TEST_CASE("views of a pinned buffer stay valid while reading on, through compaction and growth") {
  // Regular files, pipes and gzip all buffer through BufferedInputStream; each can pin.
  const std::string dir = MakeTempDir();
  const std::string bytes = TestBytes(3 << 20, 11);
  WriteFileOrDie(dir + "/f", bytes);
  std::mt19937_64 rng(5);
  auto s = OpenOrDie(dir + "/f");
  struct Kept {
    std::shared_ptr<const void> pin;
    std::string_view view;
    uint64_t at;
  };
  std::vector<Kept> kept;
  uint64_t at = 0;
  while (at < bytes.size()) {
    // Peeks up to 1.5 MiB force growth past the 256 KiB chunk now and then.
    const size_t want = rng() % 8 == 0 ? 1 + rng() % (1536 << 10) : 1 + rng() % 9000;
    std::string_view v;
    REQUIRE(s->Peek(want, &v).ok());
    if (v.empty()) break;
    const size_t n = std::min(v.size(), want);
    if (rng() % 3 == 0) {
      std::shared_ptr<const void> pin = s->PinBuffer();
      REQUIRE(pin != nullptr);
      kept.push_back(Kept{std::move(pin), v.substr(0, n), at});
    }
    s->Consume(n);
    at += n;
    if (kept.size() > 40) kept.erase(kept.begin());  // some pins released, their buffers reused
    for (const Kept& k : kept) REQUIRE(k.view == std::string_view(bytes).substr(k.at, k.view.size()));
  }
  CHECK(at == bytes.size());
  for (const Kept& k : kept) CHECK(k.view == std::string_view(bytes).substr(k.at, k.view.size()));
}

}  // namespace tfq
