#include "io/shared_sequential_stream.h"

#include <doctest/doctest.h>

#include <random>
#include <thread>
#include <vector>

#include "io/compression.h"
#include "io/file_streams.h"
#include "io_test_util.h"

namespace tfq {
namespace {

using testing::TestBytes;
using testing::TrickleInputStream;
using testing::ZlibCompress;

// Reads [offset, offset + n) of `reader` with peeks of `peek` bytes at most (the last may run past).
Status ReadRange(InputStream& reader, uint64_t offset, size_t n, size_t peek, std::string* out) {
  uint64_t skipped = 0;
  TFQ_RETURN_IF_ERROR(reader.Skip(offset, &skipped));
  if (skipped != offset) return Status::IoError("short skip");
  out->clear();
  while (out->size() < n) {
    std::string_view view;
    TFQ_RETURN_IF_ERROR(reader.Peek(std::min(peek, n - out->size()), &view));
    if (view.empty()) break;
    const size_t take = std::min(view.size(), n - out->size());
    out->append(view.substr(0, take));
    reader.Consume(take);
  }
  return Status::OK();
}

std::unique_ptr<InputStream> Gunzip(const std::string& gz) {
  return NewDecompressingStream(NewMemoryInputStream("data.gz", gz), Compression::kGzip);
}

TEST_CASE("readers on several threads read the source's bytes at their own offsets") {
  const std::string data = TestBytes(3 << 20, 7);
  const std::string gz = ZlibCompress(data, /*gzip=*/true);
  // Blocks of 100 KiB (some of the reads span two or more); sources that pin their buffers (the
  // inflater) and that cannot (a trickle, copied).
  for (bool trickle : {false, true}) {
    CAPTURE(trickle);
    SharedSequentialStream shared(trickle ? std::make_unique<testing::TrickleInputStream>(data) : Gunzip(gz),
                                  100 << 10);
    constexpr int kThreads = 4;
    constexpr size_t kStretch = 300 << 10;
    const size_t stretches = data.size() / kStretch;
    std::vector<std::string> got(stretches);
    std::vector<Status> status(stretches);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (size_t s = t; s < stretches; s += kThreads) {
          std::unique_ptr<InputStream> reader = shared.NewReader();
          // Peeks of odd sizes, some larger than a block.
          status[s] = ReadRange(*reader, s * kStretch, kStretch + 5000, 1000 + 97 * s * (s % 3 == 0 ? 300 : 1),
                                &got[s]);
        }
      });
    }
    for (std::thread& t : threads) t.join();
    for (size_t s = 0; s < stretches; ++s) {
      CAPTURE(s);
      REQUIRE(status[s].ok());
      CHECK(got[s] == data.substr(s * kStretch, kStretch + 5000));
    }
    uint64_t length = 0;
    REQUIRE(shared.Finish(&length).ok());
    CHECK(length == data.size());
  }
}

TEST_CASE("the source's error comes after the bytes before it, to every reader, and from Finish") {
  const std::string data = TestBytes(1 << 20, 3);
  std::string gz = ZlibCompress(data, /*gzip=*/true);
  gz[gz.size() - 6] ^= 1;  // the trailer's CRC
  // What the inflating stream hands out before its error (it keeps back its last output).
  std::string before;
  REQUIRE(testing::ReadAll(*Gunzip(gz), &before, 1).code() == StatusCode::kCorruption);
  REQUIRE(before.size() > (500 << 10));
  SharedSequentialStream shared(Gunzip(gz), 64 << 10);
  std::unique_ptr<InputStream> a = shared.NewReader();
  std::string all;
  CHECK(testing::ReadAll(*a, &all, 1).code() == StatusCode::kCorruption);
  CHECK(all == before);
  std::unique_ptr<InputStream> b = shared.NewReader();
  std::string tail;
  CHECK(ReadRange(*b, before.size() - 10, 10, 100, &tail).ok());
  CHECK(tail == before.substr(before.size() - 10));
  std::string_view view;
  CHECK(b->Peek(1, &view).code() == StatusCode::kCorruption);
  // A peek of more than is left before the error is the error, as the contract has it.
  std::unique_ptr<InputStream> c = shared.NewReader();
  CHECK(ReadRange(*c, before.size() - 10, 20, 100, &tail).code() == StatusCode::kCorruption);
  uint64_t length = 0;
  CHECK(shared.Finish(&length).code() == StatusCode::kCorruption);
}

TEST_CASE("released bytes are gone: reading them is an error, skipping past them is not") {
  const std::string data = TestBytes(600 << 10, 5);
  SharedSequentialStream shared(Gunzip(ZlibCompress(data, true)), 64 << 10);
  std::unique_ptr<InputStream> first = shared.NewReader();
  std::string got;
  REQUIRE(ReadRange(*first, 0, 300 << 10, 4096, &got).ok());
  shared.Release(200 << 10);
  std::unique_ptr<InputStream> late = shared.NewReader();
  // Skipping to a released offset moves on; peeking there is the caller's bug, kInternal.
  uint64_t skipped = 0;
  REQUIRE(late->Skip(100 << 10, &skipped).ok());
  std::string_view view;
  CHECK(late->Peek(1, &view).code() == StatusCode::kInternal);
  std::unique_ptr<InputStream> after = shared.NewReader();
  REQUIRE(ReadRange(*after, 250 << 10, 100 << 10, 4096, &got).ok());
  CHECK(got == data.substr(250 << 10, 100 << 10));
  uint64_t length = 0;
  REQUIRE(shared.Finish(&length).ok());
  CHECK(length == data.size());
  // Past the end: an empty peek, a short skip.
  std::unique_ptr<InputStream> end = shared.NewReader();
  REQUIRE(end->Skip(data.size() + 5, &skipped).ok());
  CHECK(skipped == data.size());
}

}  // namespace
}  // namespace tfq
