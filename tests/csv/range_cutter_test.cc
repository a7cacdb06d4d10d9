// RangeCutter: the chunks tile the bytes after `start`, chunk k starts at the first cut at or
// after range k's first byte (a cut as a byte-at-a-time reference finds them: after a CR or LF
// outside quotes, never inside a CRLF), whatever the range size and whichever threads cut;
// a record longer than the read-ahead, and a file shorter than its size, fail that range and
// every later one.
#include "csv/range_cutter.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "common/random.h"

namespace tfq::csv {
namespace {

ReadAt ReaderOf(const std::string& bytes) {
  return [&bytes](uint64_t offset, size_t n, char* dst, size_t* got) {
    *got = offset >= bytes.size() ? 0 : std::min<size_t>(n, bytes.size() - offset);
    if (*got > 0) std::memcpy(dst, bytes.data() + offset, *got);
    return Status::OK();
  };
}

// Every offset p in (0, size] where a chunk may end, byte by byte.
std::vector<bool> ReferenceCuts(const std::string& s, bool quoting) {
  std::vector<bool> cut(s.size() + 1, false);
  bool inside = false;
  for (size_t p = 1; p <= s.size(); ++p) {
    if (quoting && s[p - 1] == '"') inside = !inside;
    const char prev = s[p - 1];
    const bool term = prev == '\n' || (prev == '\r' && (p == s.size() || s[p] != '\n'));
    cut[p] = !inside && term;
  }
  return cut;
}

std::string RandomCsv(Xoshiro256& rng) {
  static constexpr const char* kPieces[] = {"a", "bc", ",", "\"", "\"\"", "\n", "\r\n", "\r", "\n\n", "x,y\n", "\"q\nq\""};
  std::string s;
  for (size_t n = rng.Below(120); n > 0; --n) s += kPieces[rng.Below(std::size(kPieces))];
  return s;
}

struct Cut {
  Status status;
  uint64_t first_byte = 0;
  std::string data;
};

// Cuts every range of `bytes` from `start` on `threads` threads, each taking the next range in
// order (as the ordered map's queue hands them out).
std::vector<Cut> CutAll(const std::string& bytes, uint64_t start, size_t range_bytes, bool quoting,
                        int threads, uint64_t size, size_t max_record_bytes = size_t{64} << 20) {
  ParseOptions options;
  options.quoting = quoting;
  const RangeCutter cutter(ReaderOf(bytes), size, start, ChunkPosition{"t.csv", 3, 2, start}, options,
                           ChunkerOptions{.target_bytes = range_bytes, .max_record_bytes = max_record_bytes});
  std::vector<Cut> cuts(cutter.num_ranges());
  std::atomic<size_t> next{0};
  auto work = [&] {
    Chunk chunk;
    for (size_t k; (k = next.fetch_add(1)) < cuts.size();) {
      cuts[k].status = cutter.Cut(k, &chunk);
      if (!cuts[k].status.ok()) continue;
      CHECK(chunk.index == k);
      CHECK(chunk.first_line == 3);  // the numbers at the start, not the chunk's own
      CHECK(chunk.first_record == 2);
      cuts[k].first_byte = chunk.first_byte;
      cuts[k].data = std::string(chunk.data());
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(work);
  for (std::thread& t : pool) t.join();
  return cuts;
}

}  // namespace

TEST_CASE("chunks tile the input and start at the first cut of their range") {
  Xoshiro256 rng(20261127);
  for (int iter = 0; iter < 3000; ++iter) {
    const std::string s = RandomCsv(rng);
    const bool quoting = rng.Below(4) != 0;
    const std::vector<bool> cuts = ReferenceCuts(s, quoting);
    // Start at 0 or at a cut, as after the prologue.
    uint64_t start = 0;
    if (rng.Below(2) == 0) {
      for (size_t p = 1 + rng.Below(s.size() + 1); p <= s.size(); ++p) {
        if (cuts[p]) {
          start = p;
          break;
        }
      }
    }
    const size_t range_bytes = 1 + rng.Below(40);
    const int threads = 1 + static_cast<int>(rng.Below(3));
    CAPTURE(s);
    CAPTURE(start);
    CAPTURE(range_bytes);
    const std::vector<Cut> got = CutAll(s, start, range_bytes, quoting, threads, s.size());
    REQUIRE(got.size() == (s.size() - start + range_bytes - 1) / range_bytes);
    uint64_t at = start;
    for (size_t k = 0; k < got.size(); ++k) {
      CAPTURE(k);
      REQUIRE(got[k].status.ok());
      const uint64_t a = start + k * range_bytes;
      const uint64_t b = std::min<uint64_t>(a + range_bytes, s.size());
      uint64_t first_cut = a;  // the first cut >= a
      if (k > 0) {
        while (first_cut < s.size() && !cuts[first_cut]) ++first_cut;
      }
      CHECK(got[k].first_byte == at);  // contiguous
      if (first_cut < b) {
        CHECK(got[k].first_byte == first_cut);
        CHECK(!got[k].data.empty());
      } else {
        CHECK(got[k].data.empty());  // no record starts in the range
      }
      CHECK(got[k].data == s.substr(at, got[k].data.size()));
      at += got[k].data.size();
      CHECK((at == s.size() || cuts[at]));  // a chunk ends at a cut, or with the input
    }
    CHECK(at == s.size());
  }
}

TEST_CASE("a record longer than the read-ahead fails the range it starts in") {
  // Ranges of 16 bytes, and a quoted field of 200 KiB of line ends: the read-ahead is 64 KiB.
  std::string s = "a,b\n1,\"" + std::string(200 << 10, '\n') + "\"\n2,x\n";
  for (int i = 0; i < 100; ++i) s += "3,y\n";
  const std::vector<Cut> got = CutAll(s, 4, 16, /*quoting=*/true, 2, s.size());
  REQUIRE(got.size() > 3);
  CHECK(got[0].status.code() == StatusCode::kResourceExhausted);
  CHECK(got[0].status.message().find("t.csv: a record at byte") == 0);
  // The ranges after the field still know their quote state and cut as ever.
  const Cut& last = got.back();
  REQUIRE(last.status.ok());
  CHECK(!last.data.empty());
  CHECK(last.data.size() % 4 == 0);
  CHECK(last.data.substr(0, 4) == "3,y\n");
}

TEST_CASE("a record longer than the limit is left to the serial reader, within a range or across") {
  // Ranges of 64 bytes, a limit of 100 (the Chunker's: never below a range): the 300-byte record
  // crosses ranges 1 to 5; the short records around it cut as ever.
  std::string s;
  for (int i = 0; i < 10; ++i) s += "1,short\n";   // 80 bytes
  s += "2," + std::string(297, 'x') + "\n";        // bytes 80-379
  for (int i = 0; i < 40; ++i) s += "3,short\n";
  const std::vector<Cut> got = CutAll(s, 0, 64, true, 1, s.size(), /*max_record_bytes=*/100);
  REQUIRE(got.size() > 6);
  CHECK(got[0].status.ok());
  CHECK(got[0].data == s.substr(0, 64));  // to the first cut at or after byte 64
  CHECK(got[1].status.code() == StatusCode::kResourceExhausted);
  CHECK(got[1].status.message() == "t.csv: a record at byte 80 is longer than the limit of 100 bytes");
  CHECK(got.back().status.ok());
  // With the limit above it, the record is cut like any other.
  const std::vector<Cut> roomy = CutAll(s, 0, 64, true, 1, s.size(), 400);
  CHECK(roomy[1].status.ok());
  CHECK(roomy[1].data == s.substr(64, 316));
}

TEST_CASE("a file shorter than its size is a read error, and no later range is cut") {
  const std::string s = "a,b\n1,2\n3,4\n5,6\n7,8\n";
  // The cutter believes the file has 100 more bytes than it has.
  const std::vector<Cut> got = CutAll(s, 4, 4, true, 1, s.size() + 100);
  bool failed = false;
  for (const Cut& c : got) {
    if (!c.status.ok()) {
      if (!failed) {
        CHECK(c.status.code() == StatusCode::kIoError);
        CHECK(c.status.message().find("t.csv: ends before byte") == 0);
      }
      failed = true;
    }
    CHECK((failed ? !c.status.ok() : c.status.ok()));
  }
  CHECK(failed);
}

}  // namespace tfq::csv
