#include "tfrecord/parallel_count.h"

#include <doctest/doctest.h>

#include <fstream>
#include <random>

#include "common/test_env.h"
#include "record_test_util.h"

namespace tfq::tfrecord {
namespace {

std::string WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// What one RecordReader stepping over every header finds: the answer the parallel count must give.
HeaderTally SerialTally(const std::string& bytes) {
  RecordReader reader = testing::ReaderOver(bytes);
  HeaderTally tally;
  while (reader.Skip()) {
    tally.Add(reader.record_framed_size() - kFramingOverhead);
    tally.end_offset = reader.record_offset() + reader.record_framed_size();
  }
  REQUIRE(reader.status().ok());
  return tally;
}

void CheckSameTally(const HeaderTally& got, const HeaderTally& want) {
  CHECK(got.records == want.records);
  CHECK(got.payload_bytes == want.payload_bytes);
  CHECK(got.min_payload_bytes == want.min_payload_bytes);
  CHECK(got.max_payload_bytes == want.max_payload_bytes);
  CHECK(got.end_offset == want.end_offset);
}

std::vector<std::string> RandomRecords(size_t n, size_t max_size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> records;
  for (size_t i = 0; i < n; ++i) {
    std::string r(rng() % (max_size + 1), '\0');
    for (char& c : r) c = static_cast<char>(rng());
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace

TEST_CASE("the parallel count equals one reader's walk for any number of threads") {
  const std::string dir = tfq::testing::MakeTempDir();
  const std::string bytes = testing::Frame(RandomRecords(3000, 700, 7));
  const std::string path = WriteBytes(dir + "/f.tfrecord", bytes);
  const HeaderTally want = SerialTally(bytes);
  for (int threads : {2, 3, 5, 8, 64}) {
    CAPTURE(threads);
    for (Compression c : {Compression::kAuto, Compression::kNone}) {
      const auto got = CountRecordsInParallel(path, c, {}, threads, /*min_bytes_per_thread=*/4096);
      REQUIRE(got.has_value());
      CheckSameTally(*got, want);
    }
  }
}

TEST_CASE("payloads that look like records (a TFRecord file stored in a record) do not fool it") {
  // Every payload is itself a TFRecord file of many records, and segments are shorter than one
  // payload, so most segments find an inner header first and walk inner records cleanly to their
  // end: only the walk from the confirmed boundary may be believed.
  const std::string dir = tfq::testing::MakeTempDir();
  std::vector<std::string> outer;
  for (uint32_t i = 0; i < 40; ++i) outer.push_back(testing::Frame(RandomRecords(300, 40, i)));
  const std::string bytes = testing::Frame(outer);
  const std::string path = WriteBytes(dir + "/nested.tfrecord", bytes);
  for (int threads : {2, 4, 16, 100}) {
    CAPTURE(threads);
    const auto got = CountRecordsInParallel(path, Compression::kAuto, {}, threads, 1024);
    REQUIRE(got.has_value());
    CheckSameTally(*got, SerialTally(bytes));
    CHECK(got->records == 40);
  }
}

TEST_CASE("records larger than a segment are counted once") {
  const std::string dir = tfq::testing::MakeTempDir();
  const std::string bytes =
      testing::Frame({std::string(50000, 'a'), "b", std::string(30000, 'c'), "", "d"});
  const std::string path = WriteBytes(dir + "/big.tfrecord", bytes);
  const auto got = CountRecordsInParallel(path, Compression::kAuto, {}, 8, 1024);
  REQUIRE(got.has_value());
  CheckSameTally(*got, SerialTally(bytes));
  CHECK(got->records == 5);
  CHECK(got->min_payload_bytes == 0);
  CHECK(got->max_payload_bytes == 50000);
}

TEST_CASE("any framing problem hands the file back to the serial reader") {
  const std::string dir = tfq::testing::MakeTempDir();
  const std::string good = testing::Frame(RandomRecords(2000, 500, 3));
  const RecordReaderOptions defaults;

  SUBCASE("a truncated file") {
    const std::string path = WriteBytes(dir + "/cut.tfrecord", good.substr(0, good.size() - 9));
    CHECK_FALSE(CountRecordsInParallel(path, Compression::kAuto, defaults, 4, 4096).has_value());
  }
  SUBCASE("a bad length CRC in the middle, in each segment in turn") {
    RecordReader reader = testing::ReaderOver(good);
    std::vector<uint64_t> offsets;
    while (reader.Skip()) offsets.push_back(reader.record_offset());
    for (size_t k : {size_t{1}, offsets.size() / 3, offsets.size() / 2, offsets.size() - 1}) {
      CAPTURE(k);
      std::string bad = good;
      bad[offsets[k] + kLengthSize] ^= 1;
      const std::string path = WriteBytes(dir + "/bad.tfrecord", bad);
      CHECK_FALSE(CountRecordsInParallel(path, Compression::kAuto, defaults, 4, 4096).has_value());
    }
  }
  SUBCASE("a length over the cap") {
    const std::string path = WriteBytes(dir + "/f.tfrecord", good);
    RecordReaderOptions small_cap;
    small_cap.max_record_bytes = 100;
    CHECK_FALSE(CountRecordsInParallel(path, Compression::kAuto, small_cap, 4, 4096).has_value());
  }
  SUBCASE("trailing garbage") {
    const std::string path = WriteBytes(dir + "/tail.tfrecord", good + "garbage!");
    CHECK_FALSE(CountRecordsInParallel(path, Compression::kAuto, defaults, 4, 4096).has_value());
  }
}

TEST_CASE("inputs the parallel count does not take") {
  const std::string dir = tfq::testing::MakeTempDir();
  const std::vector<std::string> records = RandomRecords(2000, 500, 5);
  const std::string path = WriteBytes(dir + "/f.tfrecord", testing::Frame(records));
  const RecordReaderOptions defaults;
  CHECK_FALSE(CountRecordsInParallel(path, Compression::kAuto, defaults, 1, 4096).has_value());
  CHECK_FALSE(CountRecordsInParallel(path, Compression::kGzip, defaults, 4, 4096).has_value());
  CHECK_FALSE(CountRecordsInParallel("-", Compression::kAuto, defaults, 4, 4096).has_value());
  CHECK_FALSE(CountRecordsInParallel(dir + "/missing", Compression::kAuto, defaults, 4, 4096)
                  .has_value());
  CHECK_FALSE(CountRecordsInParallel(dir, Compression::kAuto, defaults, 4, 4096).has_value());
  // Too small to split at the default threshold.
  CHECK_FALSE(CountRecordsInParallel(path, Compression::kAuto, defaults, 4).has_value());
  RecordReaderOptions resync;
  resync.on_corruption = CorruptionPolicy::kResync;
  CHECK_FALSE(CountRecordsInParallel(path, Compression::kAuto, resync, 4, 4096).has_value());
  // kAuto on a file whose first bytes are not a header: the serial path sniffs and reports.
  const std::string junk = WriteBytes(dir + "/junk", std::string(100000, 'x'));
  CHECK_FALSE(CountRecordsInParallel(junk, Compression::kAuto, defaults, 4, 4096).has_value());
}

}  // namespace tfq::tfrecord
