// ScanShuffle and its range plan: ranges that fit, key order whatever the copier count, the
// same bytes as the other methods, changed inputs caught, and the memory bound.
#include "reshard/scan_shuffle.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <span>
#include <thread>

#include "reshard/shuffle.h"
#include "reshard_test_util.h"
#include "tfrecord/format.h"
#include "tfrecord/open.h"

namespace tfq::reshard {
namespace {

using testing::ReadRecords;
using testing::Recs;
using testing::WriteRecords;
using testing::PeakGrowthInChild;
using testing::kSanitized;
using testing::WriteGzipShard;

using u128 = unsigned __int128;

// Checks that `ranges` are ascending, disjoint, each within budget, and hold every record once.
void CheckPlan(const std::vector<ScanRange>& ranges, uint64_t n, const ShuffleKeys& keys,
               const std::function<uint64_t(uint64_t)>& framed, uint64_t budget) {
  uint64_t records = 0, bytes = 0, over_budget = 0, empty = 0, overlapping = 0;
  u128 previous_end = 0;
  for (const ScanRange& r : ranges) {
    if (r.records == 0) ++empty;
    if (static_cast<u128>(r.lo) < previous_end) ++overlapping;
    previous_end = static_cast<u128>(r.lo) + r.width;
    if (r.framed_bytes + r.records * kScanRecordOverhead > budget) ++over_budget;
    records += r.records;
    bytes += r.framed_bytes;
  }
  CHECK(empty == 0);
  CHECK(overlapping == 0);
  CHECK(previous_end <= static_cast<u128>(1) << 64);
  CHECK(over_budget == 0);
  CHECK(records == n);
  // The one range that may hold a key is the last starting at or below it.
  uint64_t outside = 0, total = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t k = keys(i);
    auto it = std::upper_bound(ranges.begin(), ranges.end(), k,
                               [](uint64_t key, const ScanRange& r) { return key < r.lo; });
    if (it == ranges.begin() || static_cast<u128>(k - std::prev(it)->lo) >= std::prev(it)->width) ++outside;
    total += framed(i);
  }
  CHECK(outside == 0);
  CHECK(bytes == total);
}

TEST_CASE("the range plan: every record in exactly one range, each range within budget") {
  const ShuffleKeys keys(11);
  SUBCASE("bins merged") {
    const auto size = [](uint64_t) -> uint64_t { return 100; };
    auto plan = PlanScanRanges(5000, keys, size, 100000);
    REQUIRE(plan.ok());
    CHECK(plan->size() >= 7);  // 5000 * 148 bytes in ranges of at most 100000
    CHECK(plan->size() <= 9);
    CheckPlan(plan.value(), 5000, keys, size, 100000);
  }
  SUBCASE("bins that do not fit are cut again") {
    // 200000 records over 65536 bins, about 3 to a bin; a bin holding one of the 10 large
    // records and any small one exceeds the budget.
    const auto size = [](uint64_t i) -> uint64_t { return i % 20000 == 0 ? 99000 : 100; };
    auto plan = PlanScanRanges(200000, keys, size, 99100);
    REQUIRE(plan.ok());
    CHECK(plan->size() >= 300);
    CheckPlan(plan.value(), 200000, keys, size, 99100);
  }
  SUBCASE("a record larger than the budget") {
    const auto size = [](uint64_t) -> uint64_t { return 100; };
    CHECK(PlanScanRanges(10, keys, size, 100).status().code() == StatusCode::kResourceExhausted);
  }
  SUBCASE("no records, no ranges") {
    auto plan = PlanScanRanges(0, keys, [](uint64_t) -> uint64_t { return 1; }, 1000);
    REQUIRE(plan.ok());
    CHECK(plan->empty());
  }
}

struct Inputs {
  std::string dir = testing::MakeTempDir();
  std::vector<std::string> paths = {dir + "/a", dir + "/b", dir + "/empty", dir + "/c"};
  std::vector<std::string> records;
  Inputs() {
    // Sizes vary so that records straddle the read spans and gaps.
    for (int i = 0; i < 3000; ++i) records.push_back(testing::Rec(i, 10 + (i * 7919) % 3000));
    WriteRecords(paths[0], {records.begin(), records.begin() + 1000});
    WriteRecords(paths[1], {records.begin() + 1000, records.begin() + 1001});
    WriteRecords(paths[2], {});
    WriteRecords(paths[3], {records.begin() + 1001, records.end()});
  }
  // Feeds ScanShuffle the records of the files, as RunShuffle's first pass does.
  void AddAll(ScanShuffle& shuffle) const {
    uint64_t i = 0;
    for (uint32_t f = 0; f < paths.size(); ++f) {
      uint64_t offset = 0;
      const uint64_t count = f == 0 ? 1000 : f == 1 ? 1 : f == 2 ? 0 : 1999;
      for (uint64_t k = 0; k < count; ++k, ++i) {
        REQUIRE(shuffle.Add(f, offset, records[i].size()).ok());
        offset += records[i].size() + tfrecord::kFramingOverhead;
      }
    }
  }
};

// The records in key order, as every method must hand them out.
std::vector<std::string> KeyOrder(const std::vector<std::string>& records, const ShuffleKeys& keys) {
  std::vector<uint64_t> order(records.size());
  for (uint64_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return keys(a) < keys(b); });
  std::vector<std::string> out;
  for (uint64_t i : order) out.push_back(records[i]);
  return out;
}

// Drains `shuffle`, checking each range's framing and hashes; the payloads in the order handed out.
Result<std::vector<std::string>> DrainAll(ScanShuffle& shuffle, const ShuffleKeys& keys,
                                          const std::function<void()>& after_first_range = {}) {
  std::vector<std::string> out;
  uint64_t ranges = 0;
  const auto check = [&](std::string_view framed, std::span<const uint64_t> hashes) -> Status {
    size_t pos = 0;
    for (uint64_t hash : hashes) {
      REQUIRE(framed.size() - pos >= tfrecord::kFramingOverhead);
      const uint64_t size = tfrecord::DecodeFixed64(framed.data() + pos);
      REQUIRE(framed.size() - pos >= size + tfrecord::kFramingOverhead);
      const std::string_view payload = framed.substr(pos + tfrecord::kHeaderSize, size);
      CHECK(tfrecord::HeaderCrcValid(framed.data() + pos));
      CHECK(tfrecord::DecodeFixed32(payload.data() + size) == tfrecord::MaskedCrc(payload.data(), size));
      CHECK(hash == RecordHash(payload));
      out.emplace_back(payload);
      pos += size + tfrecord::kFramingOverhead;
    }
    CHECK(pos == framed.size());  // one range: its records and nothing else
    if (++ranges == 1 && after_first_range) after_first_range();
    return Status::OK();
  };
  const Status s = shuffle.Drain(keys, check);
  if (!s.ok()) return s;
  return out;
}

TEST_CASE("ScanShuffle hands out every record in key order, framed, with its hash") {
  Inputs in;
  const ShuffleKeys keys(5);
  const auto expected = KeyOrder(in.records, keys);
  for (size_t copiers : {1, 2, 3}) {
    CAPTURE(copiers);
    // About 4.6 MB of records in 1 MiB: several passes (the copiers' buffers take some).
    ScanShuffle shuffle(in.paths, (4 << 20) + copiers * kScanReadBuffer, 3000, copiers);
    in.AddAll(shuffle);
    auto out = DrainAll(shuffle, keys);
    REQUIRE(out.ok());
    CHECK(shuffle.passes() >= 2);
    CHECK(out.value() == expected);
  }
}

// Flips one byte of `path` at `offset`.
void FlipByte(const std::string& path, uint64_t offset) {
  std::string bytes = testing::ReadFileOrDie(path);
  bytes[offset] ^= 1;
  testing::WriteFileOrDie(path, bytes);
}

TEST_CASE("ScanShuffle: an input changed after the first pass is an error") {
  Inputs in;
  // Record 1001 opens file c; its framing: 8 bytes of length, 4 of length CRC, payload, 4 of CRC.
  const uint64_t size = in.records[1001].size();
  std::string expected = in.paths[3] + ": the record at byte 0 changed since it was first read";
  SUBCASE("the length") { FlipByte(in.paths[3], 0); }
  SUBCASE("the length's CRC") { FlipByte(in.paths[3], 9); }
  SUBCASE("the payload") {
    FlipByte(in.paths[3], tfrecord::kHeaderSize + size / 2);
    expected = in.paths[3] + ": record 0 (byte 0): data CRC mismatch (stored 0x";
  }
  SUBCASE("the payload's CRC (the payload intact: its hash alone would not tell)") {
    FlipByte(in.paths[3], tfrecord::kHeaderSize + size + 1);
    expected = in.paths[3] + ": record 0 (byte 0): data CRC mismatch (stored 0x";
  }
  for (size_t copiers : {1, 2}) {
    CAPTURE(copiers);
    ScanShuffle shuffle(in.paths, 64 << 20, 3000, copiers);
    in.AddAll(shuffle);
    const Status s = DrainAll(shuffle, ShuffleKeys(1)).status();
    CHECK(s.code() == StatusCode::kCorruption);
    CHECK(s.message().find(expected) == 0);
  }
}

// Writes `bytes` over the start of `path` without truncating it first.
void OverwriteInPlace(const std::string& path, const std::string& bytes) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  REQUIRE(pwrite(fd, bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size()));
  close(fd);
}

TEST_CASE("ScanShuffle: a record changed while later ranges are still to be read") {
  Inputs in;
  // Several ranges; once the first is handed out, every record of file a gets a new payload CRC
  // (written in place), which a later range meets.
  ScanShuffle shuffle(in.paths, (2 << 20) + 3 * kScanReadBuffer, 3000, 2);
  in.AddAll(shuffle);
  const std::string original = testing::ReadFileOrDie(in.paths[0]);
  const Status s = DrainAll(shuffle, ShuffleKeys(3), [&] {
    std::string bytes = original;
    uint64_t offset = 0;
    for (int i = 0; i < 1000; ++i) {
      offset += tfrecord::kHeaderSize + in.records[i].size();
      bytes[offset] ^= 1;
      offset += tfrecord::kFooterSize;
    }
    OverwriteInPlace(in.paths[0], bytes);
  }).status();
  CHECK(shuffle.passes() >= 2);  // the pass that met it came after the first
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(s.message().find(in.paths[0] + ": record ") == 0);
  CHECK(s.message().find("): data CRC mismatch (stored 0x") != std::string::npos);
  CHECK(s.message().find("; corrupt, or changed since it was first read)") != std::string::npos);
}

TEST_CASE("ScanShuffle: an error handing out a range is returned, and stops the next gathering") {
  Inputs in;
  const uint64_t memory = (2 << 20) + 3 * kScanReadBuffer;  // several ranges
  // A clean run tells which record opens the second range.
  std::string second_first;
  {
    ScanShuffle shuffle(in.paths, memory, 3000, 2);
    in.AddAll(shuffle);
    int calls = 0;
    REQUIRE(shuffle.Drain(ShuffleKeys(3), [&](std::string_view framed, std::span<const uint64_t>) {
      if (++calls == 2) {
        second_first = std::string(framed.substr(tfrecord::kHeaderSize, tfrecord::DecodeFixed64(framed.data())));
      }
      return Status::OK();
    }).ok());
    REQUIRE(calls >= 3);
  }
  const auto at = std::find(in.records.begin(), in.records.end(), second_first);
  REQUIRE(at != in.records.end());
  // Its file and offset (files a, b, c, d hold records 0-999, 1000, none, 1001-2999).
  const uint64_t index = at - in.records.begin();
  const uint64_t file_first = index < 1000 ? 0 : index == 1000 ? 1000 : 1001;
  const std::string& path = in.paths[index < 1000 ? 0 : index == 1000 ? 1 : 3];
  uint64_t offset = 0;
  for (uint64_t i = file_first; i < index; ++i) offset += in.records[i].size() + tfrecord::kFramingOverhead;
  for (bool damaged : {false, true}) {
    CAPTURE(damaged);
    // Damaged: the second range meets a failing data CRC while the first is handed out; the
    // write's error is the one returned all the same, since it concerns the earlier range.
    if (damaged) FlipByte(path, offset + tfrecord::kHeaderSize);
    ScanShuffle shuffle(in.paths, memory, 3000, 2);
    in.AddAll(shuffle);
    int calls = 0;
    const Status s = shuffle.Drain(ShuffleKeys(3), [&](std::string_view, std::span<const uint64_t>) {
      ++calls;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the gathering ends meanwhile
      return Status::IoError("out: disk full");
    });
    CHECK(calls == 1);
    CHECK(s.code() == StatusCode::kIoError);
    CHECK(s.message() == "out: disk full");
  }
}

TEST_CASE("ScanShuffle: an input shortened after the first pass is an error, not a short read") {
  Inputs in;
  ScanShuffle shuffle(in.paths, 64 << 20, 3000);
  in.AddAll(shuffle);
  const std::string bytes = testing::ReadFileOrDie(in.paths[3]);
  testing::WriteFileOrDie(in.paths[3], bytes.substr(0, bytes.size() - 1));
  const Status s = DrainAll(shuffle, ShuffleKeys(1)).status();
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(s.message().find(in.paths[3] + ": now " + std::to_string(bytes.size() - 1) +
                         " bytes, but its records were read up to byte " + std::to_string(bytes.size())) == 0);
}

TEST_CASE("ScanShuffle: a record too large for the budget leaves it unable to drain") {
  ScanShuffle shuffle({"x"}, 3 << 20, 10);  // 1 MiB for records beside two 1 MiB read buffers
  REQUIRE(shuffle.Add(0, 0, 100 << 10).ok());
  CHECK(shuffle.HoldsLargestRecord());
  REQUIRE(shuffle.Add(0, (100 << 10) + 16, 1 << 20).ok());  // noted: RunShuffle asks before Drain
  CHECK_FALSE(shuffle.HoldsLargestRecord());
  CHECK(shuffle.Drain(ShuffleKeys(1), [](std::string_view, std::span<const uint64_t>) { return Status::OK(); })
            .code() == StatusCode::kResourceExhausted);
  CHECK(shuffle.Add(0, 0, uint64_t{1} << 32).code() == StatusCode::kResourceExhausted);
}

TEST_CASE("ScanShuffle: a record larger than half the memory gets one block of all of it") {
  Inputs in;
  const std::string dir = testing::MakeTempDir();
  // The 3000 records, one of them 3 MiB: more than half of the 5 MiB left for records.
  std::vector<std::string> records = in.records;
  records[1234] = testing::Rec(1234, 3 << 20);
  const std::vector<std::string> paths = {dir + "/a", dir + "/b"};
  WriteRecords(paths[0], {records.begin(), records.begin() + 2000});
  WriteRecords(paths[1], {records.begin() + 2000, records.end()});
  const ShuffleKeys keys(3);
  ScanShuffle shuffle(paths, (5 << 20) + 2 * (kScanReadBuffer + kPageBytes) + (64 << 10), 3000, 2);
  for (uint32_t f = 0, i = 0; f < 2; ++f) {
    uint64_t offset = 0;
    for (uint32_t end = f == 0 ? 2000 : 3000; i < end; ++i) {
      REQUIRE(shuffle.Add(f, offset, records[i].size()).ok());
      offset += records[i].size() + tfrecord::kFramingOverhead;
    }
  }
  REQUIRE(shuffle.HoldsLargestRecord());
  auto out = DrainAll(shuffle, keys);
  REQUIRE(out.ok());
  CHECK(shuffle.passes() >= 2);
  CHECK(out.value() == KeyOrder(records, keys));
}

struct Files {
  std::string dir = testing::MakeTempDir();
  std::vector<std::string> inputs = {dir + "/in-a", dir + "/in-b"};
  Files() {
    // ~40 MB of ~400-byte records: over three times the records' share of the smallest --memory.
    WriteRecords(inputs[0], Recs(0, 60000, 400));
    WriteRecords(inputs[1], Recs(60000, 100000, 400));
  }
  ShuffleOptions Options(const std::string& name, ShuffleMethod method, uint64_t memory) const {
    ShuffleOptions o;
    o.seed = 9;
    o.shards = 3;
    o.memory = memory;
    o.method = method;
    o.tmp_dir = dir;
    o.output.prefix = dir + "/" + name;
    return o;
  }
  std::string Shard(const ShuffleOptions& o, uint64_t k) const {
    return testing::ReadFileOrDie(tfrecord::ShardName(o.output.prefix, k, o.shards));
  }
};

TEST_CASE("re-scanning writes the same bytes as in memory and through buckets") {
  Files f;
  const ShuffleOptions roomy = f.Options("mem", ShuffleMethod::kAuto, 512 << 20);
  const ShuffleOptions scan = f.Options("scan", ShuffleMethod::kScan, kMinShuffleMemory);
  const ShuffleOptions buckets = f.Options("bkt", ShuffleMethod::kBuckets, kMinShuffleMemory);
  const ShuffleOptions automatic = f.Options("auto", ShuffleMethod::kAuto, kMinShuffleMemory);
  RunSummary s_roomy, s_scan, s_buckets, s_auto;
  REQUIRE(RunShuffle(f.inputs, roomy, &s_roomy).ok());
  REQUIRE(RunShuffle(f.inputs, scan, &s_scan).ok());
  REQUIRE(RunShuffle(f.inputs, buckets, &s_buckets).ok());
  REQUIRE(RunShuffle(f.inputs, automatic, &s_auto).ok());
  CHECK(s_roomy.method == "in memory");
  CHECK(s_scan.method.find("re-scanned in ") == 0);
  CHECK(s_scan.method != "re-scanned in 1 pass");
  CHECK(s_scan.temporary_bytes == 0);
  CHECK(s_buckets.method.find("buckets") != std::string::npos);
  CHECK(s_auto.method.find("re-scanned in ") == 0);  // small records, the page cache holds them
  for (const RunSummary* s : {&s_scan, &s_buckets, &s_auto}) {
    CHECK(s->expected == s->written);
    CHECK(s->written == s_roomy.written);
  }
  for (uint64_t k = 0; k < 3; ++k) {
    const std::string bytes = f.Shard(roomy, k);
    CHECK(f.Shard(scan, k) == bytes);
    CHECK(f.Shard(buckets, k) == bytes);
    CHECK(f.Shard(automatic, k) == bytes);
  }
  // A compressed input cannot be re-scanned at offsets.
  const std::string gz = WriteGzipShard(f.dir + "/gz", Recs(0, 10));
  RunSummary summary;
  CHECK(RunShuffle({gz}, f.Options("from-gz", ShuffleMethod::kScan, 64 << 20),
                   &summary)
            .code() == StatusCode::kInvalidArgument);
}

TEST_CASE("re-scanning a corrupt input: strict runs fail naming it, --skip-corrupt drops it") {
  Files f;
  // One payload byte of a record in the middle of the second input: its data CRC fails. The
  // first pass of a strict run leaves data CRCs to the passes that read records again.
  std::string bytes = testing::ReadFileOrDie(f.inputs[1]);
  const uint64_t framed = bytes.size() / 40000;  // 40000 records of one size
  const uint64_t offset = framed * 20000;
  bytes[offset + tfrecord::kHeaderSize + 5] ^= 1;
  testing::WriteFileOrDie(f.inputs[1], bytes);
  RunSummary summary;
  const Status s =
      RunShuffle(f.inputs, f.Options("strict", ShuffleMethod::kScan, kMinShuffleMemory), &summary);
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(s.message().find(f.inputs[1] + ": record 20000 (byte " + std::to_string(offset) +
                         "): data CRC mismatch (stored 0x") == 0);
  CHECK(testing::ListDir(f.dir).size() == 2);  // nothing written but the inputs

  ShuffleOptions scan = f.Options("skip-scan", ShuffleMethod::kScan, kMinShuffleMemory);
  ShuffleOptions buckets = f.Options("skip-bkt", ShuffleMethod::kBuckets, kMinShuffleMemory);
  for (ShuffleOptions* o : {&scan, &buckets}) {
    o->input.reader.on_corruption = tfrecord::CorruptionPolicy::kSkipDataCrc;
  }
  RunSummary s_scan, s_buckets;
  REQUIRE(RunShuffle(f.inputs, scan, &s_scan).ok());
  REQUIRE(RunShuffle(f.inputs, buckets, &s_buckets).ok());
  CHECK(s_scan.skipped.corrupt_records == 1);
  CHECK(s_scan.records_read == 99999);
  CHECK(s_scan.written == s_buckets.written);
  for (uint64_t k = 0; k < 3; ++k) CHECK(f.Shard(scan, k) == f.Shard(buckets, k));
}

TEST_CASE("re-scanning stays within --memory on an input three times larger" * doctest::skip(kSanitized)) {
  Files f;
  const uint64_t growth = PeakGrowthInChild([&] {
    RunSummary summary;
    const Status s = RunShuffle(f.inputs, f.Options("rss", ShuffleMethod::kScan, kMinShuffleMemory), &summary);
    return s.ok() && summary.method.find("re-scanned") == 0;
  });
  CAPTURE(growth);
  CHECK(growth != ~uint64_t{0});
  // --memory covers records, table, read buffers, map window and output buffers; the rest is
  // thread stacks and allocator slack.
  CHECK(growth <= kMinShuffleMemory + (2 << 20));
}

}  // namespace
}  // namespace tfq::reshard
