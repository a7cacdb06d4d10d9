#include "inspect/parallel_scan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>

#include "common/test_env.h"
#include "io/compression.h"
#include "io/deflate_pool.h"
#include "io/file_streams.h"
#include "tfrecord/record_file.h"
#include "../tfrecord/record_test_util.h"
#include "io/random_access_file.h"
#include "../io/io_test_util.h"

namespace tfq::inspect {
namespace {

std::string WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// Random payloads; every fifth one is itself a framed TFRecord file, so that stretches find
// plausible headers that are not record boundaries.
std::vector<std::string> TrickyRecords(size_t n, size_t max_size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> records;
  for (size_t i = 0; i < n; ++i) {
    std::string r(rng() % (max_size + 1), '\0');
    for (char& c : r) c = static_cast<char>(rng());
    if (i % 5 == 0) r = tfrecord::testing::Frame({r, r.substr(0, r.size() / 2)});
    records.push_back(std::move(r));
  }
  return records;
}

// The offset of the first record header at or after `at`, walking the framing from byte 0.
size_t RecordAtOrAfter(const std::string& framed, size_t at) {
  size_t offset = 0;
  while (offset < at) offset += tfrecord::DecodeFixed64(framed.data() + offset) + tfrecord::kFramingOverhead;
  return offset;
}

// `framed` gzip-compressed into `path`, with its indexes beside it (access points every 4 KiB
// of output, so that 4 KiB stretches start near one).
// Writes the indexes beside a compressed record file, with an access point every 4 KiB.
void WriteIndexesBeside(const std::string& path) {
  tfrecord::RecordFileOptions options;
  options.write_index = true;
  options.read_index = false;
  options.access_point_span = 4096;
  REQUIRE(tfrecord::RecordFile::Open(path, options).ok());
}

std::string WriteIndexedGzip(const std::string& path, const std::string& framed,
                             Compression compression = Compression::kGzip) {
  std::string gz;
  auto out = NewCompressingStream(NewStringOutputStream(path, &gz), compression);
  REQUIRE(out->Write(framed).ok());
  REQUIRE(out->Close().ok());
  WriteBytes(path, gz);
  WriteIndexesBeside(path);
  return path;
}

// The problems of a scan, in the order they were reported.
struct Scanned {
  std::vector<FileReport> reports;
  std::vector<std::string> problems;
};

Scanned Serial(const std::vector<std::string>& paths, const ScanOptions& options) {
  Scanned s;
  for (const auto& path : paths) {
    s.reports.push_back(ScanFile(path, options, nullptr, [&](const Status& p) {
      s.problems.push_back(p.message());
    }));
  }
  return s;
}

// The problems of a parallel scan, and how many gzip files it read in checked stretches.
struct ParallelScanned : Scanned {
  size_t compressed_files_cut = 0;
  size_t stretches_read_from_start = 0;
};

// Stretches of `unit_bytes`: small, for many stretches in small test files.
ParallelScanned Parallel(const std::vector<std::string>& paths, const ScanOptions& options, int threads,
                         bool cut_for_one_thread = true, size_t unit_bytes = 4096) {
  ParallelScanned s;
  ParallelScanOptions parallel;
  parallel.threads = threads;
  parallel.cut_for_one_thread = cut_for_one_thread;
  parallel.unit_bytes = unit_bytes;
  ScanResult result = ScanFiles(paths, options, parallel, nullptr, [&](const Status& p) {
    s.problems.push_back(p.message());
  });
  s.reports = std::move(result.reports);
  s.compressed_files_cut = result.compressed_files_cut;
  s.stretches_read_from_start = result.stretches_read_from_start;
  return s;
}

// Keeps every record it is given, in order; notes its first record that starts with 'N' (as the
// real sinks note a SequenceExample) and says the note (into `log`) when it is appended to a sink
// that noted nothing yet, as the real sinks print theirs.
class KeepingSink : public RecordSink {
 public:
  explicit KeepingSink(std::vector<std::string>* log) : log_(log) {}
  Status Add(std::string_view record, const tfrecord::RecordReader&) override {
    records.emplace_back(record);
    if (note_.empty() && !record.empty() && record[0] == 'N') note_ = std::string(record.substr(0, 8));
    return Status::OK();
  }
  bool NamesRecordAfter(const RecordSink& earlier) const override {
    return !note_.empty() && static_cast<const KeepingSink&>(earlier).note_.empty();
  }
  void Append(RecordSink& next_sink) override {
    auto& next = static_cast<KeepingSink&>(next_sink);
    if (note_.empty() && !next.note_.empty()) {
      note_ = next.note_;
      log_->push_back(note_);
    }
    records.insert(records.end(), next.records.begin(), next.records.end());
  }
  std::vector<std::string> records;

 private:
  std::vector<std::string>* log_;
  std::string note_;
};

void CheckSame(const Scanned& got, const Scanned& want) {
  REQUIRE(got.reports.size() == want.reports.size());
  for (size_t i = 0; i < got.reports.size(); ++i) {
    CAPTURE(i);
    CHECK(got.reports[i].ToJson() == want.reports[i].ToJson());
  }
  CHECK(got.problems == want.problems);
}

}  // namespace

TEST_CASE("stretches: one for a small file, else unit-sized with the rest in the last") {
  using R = std::vector<std::pair<uint64_t, uint64_t>>;
  CHECK(ScanUnitRanges(0, 100) == R{{0, 0}});
  CHECK(ScanUnitRanges(199, 100) == R{{0, 199}});
  CHECK(ScanUnitRanges(200, 100) == R{{0, 100}, {100, 200}});
  CHECK(ScanUnitRanges(399, 100) == R{{0, 100}, {100, 200}, {200, 399}});
}

TEST_CASE("a parallel scan counts what one reader counts, for any number of threads") {
  const std::string dir = tfq::testing::MakeTempDir();
  const std::vector<std::string> paths = {
      WriteBytes(dir + "/a.tfrecord", tfrecord::testing::Frame(TrickyRecords(900, 700, 7))),
      WriteBytes(dir + "/small.tfrecord", tfrecord::testing::Frame(TrickyRecords(3, 50, 8))),
      WriteBytes(dir + "/b.tfrecord", tfrecord::testing::Frame(TrickyRecords(400, 3000, 9)))};
  for (bool headers_only : {false, true}) {
    ScanOptions options;
    options.headers_only = headers_only;
    const Scanned want = Serial(paths, options);
    for (int threads : {1, 2, 3, 8}) {
      CAPTURE(threads);
      CheckSame(Parallel(paths, options, threads), want);
    }
  }
}

TEST_CASE("damage in several stretches of several files: the problems of a serial scan, in order") {
  const std::string dir = tfq::testing::MakeTempDir();
  const std::string good = tfrecord::testing::Frame(TrickyRecords(900, 700, 11));
  std::string data_crc = good, header = good, cut = good.substr(0, good.size() * 2 / 3);
  // Payload bytes flipped in several places: data CRC mismatches, the framing intact.
  for (size_t at : {good.size() / 7, good.size() / 3, good.size() / 2, good.size() * 4 / 5}) {
    const size_t h = RecordAtOrAfter(good, at);
    data_crc[h + tfrecord::kHeaderSize] ^= 1;
  }
  header[RecordAtOrAfter(good, good.size() / 5) + tfrecord::kHeaderSize] ^= 1;
  header[RecordAtOrAfter(good, good.size() / 2) + 9] ^= 1;  // a length CRC: the end
  const std::vector<std::string> paths = {WriteBytes(dir + "/crc.tfrecord", data_crc),
                                          WriteBytes(dir + "/good.tfrecord", good),
                                          WriteBytes(dir + "/header.tfrecord", header),
                                          WriteBytes(dir + "/cut.tfrecord", cut),
                                          dir + "/missing.tfrecord"};
  for (auto policy : {tfrecord::CorruptionPolicy::kFail, tfrecord::CorruptionPolicy::kSkipDataCrc}) {
    ScanOptions options;
    options.reader.on_corruption = policy;
    const Scanned want = Serial(paths, options);
    REQUIRE(want.problems.size() >= 3);
    for (int threads : {1, 2, 4}) {
      CAPTURE(threads);
      CheckSame(Parallel(paths, options, threads), want);
    }
    CheckSame(Parallel(paths, options, 1, /*cut_for_one_thread=*/false), want);
  }
}

}  // namespace tfq::inspect

namespace tfq::inspect {

// A gzip file with access points is read in stretches, each from its own point. Inflating from a
// point skips the member trailer's CRC32, which a serial read checks, so the stretches sum their
// ranges and the trailer is checked against the combined sum: such a file must give the serial
// answer, damage only the trailer finds included (read again whole), and so must a file of
// two gzip members (read whole).
TEST_CASE("gzip files with access points beside them give a serial read's answer") {
  const std::string dir = tfq::testing::MakeTempDir();
  const std::string good = tfrecord::testing::Frame(TrickyRecords(700, 700, 13));
  std::string damaged = good;
  for (size_t at : {good.size() / 6, good.size() / 2}) {
    damaged[RecordAtOrAfter(good, at) + tfrecord::kHeaderSize + 1] ^= 1;
  }
  const std::string clean_path = WriteIndexedGzip(dir + "/clean.tfrecord.gz", good);
  const std::string damaged_path = WriteIndexedGzip(dir + "/damaged.tfrecord.gz", damaged);
  // Deflate data damaged after the index was written: the index still matches the file's ends.
  const std::string deflate_path = WriteIndexedGzip(dir + "/deflate.tfrecord.gz", good);
  {
    std::string bytes = RandomAccessFile::ReadAll(deflate_path).value();
    bytes[bytes.size() / 2] ^= 0x55;
    WriteBytes(deflate_path, bytes);
  }
  // Two members (`cat a.gz b.gz`), indexed as one file.
  std::string two_members;
  {
    auto out = NewCompressingStream(NewStringOutputStream("a", &two_members), Compression::kGzip);
    REQUIRE(out->Write(good.substr(0, RecordAtOrAfter(good, good.size() / 3))).ok());
    REQUIRE(out->Close().ok());
    std::string second;
    auto out2 = NewCompressingStream(NewStringOutputStream("b", &second), Compression::kGzip);
    REQUIRE(out2->Write(good.substr(RecordAtOrAfter(good, good.size() / 3))).ok());
    REQUIRE(out2->Close().ok());
    two_members += second;
  }
  const std::string members_path = dir + "/members.tfrecord.gz";
  WriteBytes(members_path, two_members);
  WriteIndexesBeside(members_path);
  // A larger file, cut into many stretches.
  const std::string big = tfrecord::testing::Frame(TrickyRecords(6000, 900, 17));
  const std::string big_path = WriteIndexedGzip(dir + "/big.tfrecord.gz", big);
  // zlib: its trailer is an Adler-32 of the whole stream, checked the same way.
  const std::string zlib_path = WriteIndexedGzip(dir + "/big.tfrecord.zz", big, Compression::kZlib);
  const std::string zlib_damaged_path = WriteIndexedGzip(dir + "/damaged.tfrecord.zz", big, Compression::kZlib);
  {
    std::string bytes = RandomAccessFile::ReadAll(zlib_damaged_path).value();
    bytes[bytes.size() / 2] ^= 0x55;
    WriteBytes(zlib_damaged_path, bytes);
  }
  const std::vector<std::string> paths = {clean_path, damaged_path, deflate_path, members_path, big_path,
                                          zlib_path, zlib_damaged_path};
  for (auto policy : {tfrecord::CorruptionPolicy::kSkipDataCrc, tfrecord::CorruptionPolicy::kFail}) {
    for (bool headers_only : {false, true}) {
      CAPTURE(headers_only);
      ScanOptions options;
      options.headers_only = headers_only;
      options.reader.on_corruption = policy;  // kFail: the damaged file ends at its first bad record
      const Scanned want = Serial(paths, options);
      REQUIRE(want.reports[0].records == 700);
      REQUIRE_FALSE(want.reports[2].clean());
      REQUIRE(want.reports[3].records == 700);
      for (int threads : {1, 3}) {
        CAPTURE(threads);
        const ParallelScanned got = Parallel(paths, options, threads);
        CheckSame(got, want);
        // clean, damaged (records only), big and its zlib twin were cut and checked; deflate,
        // members and the damaged zlib file were read again whole.
        CHECK(got.compressed_files_cut == 4);
      }
    }
  }
}

TEST_CASE("gzip files tfq wrote, without an index, are cut at the points their header announces") {
  const std::string dir = tfq::testing::MakeTempDir();
  // About 11 MB of incompressible records: points at 4 and 8 MiB (io/blocked_gzip.h).
  const std::string good = tfrecord::testing::Frame(TrickyRecords(24000, 900, 19));
  std::string damaged = good;
  for (size_t at : {good.size() / 5, good.size() / 2, good.size() - 1000}) {
    damaged[RecordAtOrAfter(good, at) + tfrecord::kHeaderSize + 1] ^= 1;
  }
  auto write_gzip = [&](const std::string& name, const std::string& framed, size_t flip_from_end = 0) {
    std::string gz;
    DeflatePool pool(2);
    auto out = NewCompressingStream(NewStringOutputStream(name, &gz), Compression::kGzip, -1, &pool);
    REQUIRE(out->Write(framed).ok());
    REQUIRE(out->Close().ok());
    if (flip_from_end > 0) gz[gz.size() - flip_from_end] ^= 1;
    WriteBytes(dir + "/" + name, gz);
    return dir + "/" + name;
  };
  std::string deflate_path = write_gzip("deflate.tfrecord.gz", good);
  {
    std::string bytes = RandomAccessFile::ReadAll(deflate_path).value();
    bytes[bytes.size() / 3] ^= 0x55;
    WriteBytes(deflate_path, bytes);
  }
  const std::vector<std::string> paths = {
      write_gzip("clean.tfrecord.gz", good), write_gzip("damaged.tfrecord.gz", damaged), deflate_path,
      // The trailer's size off by 2^16: points found, the stretches' sum disagrees; off by 2^24:
      // the markers do not add up, no points.
      write_gzip("size16.tfrecord.gz", good, 2), write_gzip("size24.tfrecord.gz", good, 1)};
  ScanOptions options;
  options.reader.on_corruption = tfrecord::CorruptionPolicy::kSkipDataCrc;
  const Scanned want = Serial(paths, options);
  REQUIRE(want.reports[0].records == 24000);
  REQUIRE_FALSE(want.reports[1].clean());
  REQUIRE_FALSE(want.reports[3].clean());
  for (int threads : {1, 3}) {
    CAPTURE(threads);
    const ParallelScanned got = Parallel(paths, options, threads);
    CheckSame(got, want);
    CHECK(got.compressed_files_cut == 2);  // clean and damaged; the rest read again, or whole
  }
}

}  // namespace tfq::inspect

namespace tfq::inspect {

// A gzip file another writer made has no access points: with threads to spare it is inflated once,
// in order, by whichever worker needs the next bytes, and its stretches read from those bytes.
// Whatever the inflated stream ends with (a trailer that does not check, another member, a size
// other than the trailer's) means the serial read's answer, read again whole.
TEST_CASE("gzip files another writer made are inflated once for every thread, with a serial read's answer") {
  const std::string dir = tfq::testing::MakeTempDir();
  const std::string good = tfrecord::testing::Frame(TrickyRecords(2000, 900, 23));
  std::string damaged = good;
  for (size_t at : {good.size() / 5, good.size() / 2}) {
    damaged[RecordAtOrAfter(good, at) + tfrecord::kHeaderSize + 1] ^= 1;
  }
  // TensorFlow's zlib parameters, one member, no extra field.
  auto write = [&](const std::string& name, const std::string& gz) { return WriteBytes(dir + "/" + name, gz); };
  const std::string gz = tfq::testing::ZlibCompress(good, /*gzip=*/true);
  auto flipped = [&](size_t at) {
    std::string bytes = gz;
    bytes[at] ^= 0x21;
    return bytes;
  };
  const size_t third = RecordAtOrAfter(good, good.size() / 3);
  const std::string clean = write("clean.tfrecord.gz", gz);
  const std::string records = write("records.tfrecord.gz", tfq::testing::ZlibCompress(damaged, true));
  // `cat a.gz b.gz`: the trailer's size is the second member's, so the stretches cover only that
  // much, and the rest is read as one more stretch.
  const std::string members = write("members.tfrecord.gz", tfq::testing::ZlibCompress(good.substr(0, third), true) +
                                                               tfq::testing::ZlibCompress(good.substr(third), true));
  // zlib says nothing of its length: cut as if it expanded 16 times, so these random records
  // (about 1x) end long before the last stretches.
  const std::string zlib = write("clean.tfrecord.zz", tfq::testing::ZlibCompress(good, /*gzip=*/false));
  const std::vector<std::string> unusable = {
      write("deflate.tfrecord.gz", flipped(gz.size() / 2)),
      write("crc.tfrecord.gz", flipped(gz.size() - 6)),
      write("size.tfrecord.gz", flipped(gz.size() - 3)),  // the trailer's size off by 2^8
      write("truncated.tfrecord.gz", gz.substr(0, gz.size() - 100)),
  };
  for (auto policy : {tfrecord::CorruptionPolicy::kSkipDataCrc, tfrecord::CorruptionPolicy::kFail}) {
    for (bool headers_only : {false, true}) {
      ScanOptions options;
      options.reader.on_corruption = policy;
      options.headers_only = headers_only;
      std::map<std::string, Scanned> serial;
      for (const std::string& path : {clean, records, members, zlib}) serial[path] = Serial({path}, options);
      for (const std::string& path : unusable) serial[path] = Serial({path}, options);
      for (bool cut_for_one_thread : {true, false}) {
        for (int threads : {1, 3}) {
          CAPTURE(headers_only);
          CAPTURE(cut_for_one_thread);
          CAPTURE(threads);
          // Cut when there is more than inflating to do, and threads to spare (or, where results
          // depend on the cut, always for a lone file).
          const bool cut = !headers_only && (cut_for_one_thread || threads > 1);
          for (const std::string& path : {clean, records, members, zlib}) {
            CAPTURE(path);
            // Stretches of 64 KiB: about 80 in each file (inflated stretches are 4 MiB in use).
            const ParallelScanned got = Parallel({path}, options, threads, cut_for_one_thread, 64 << 10);
            CheckSame(got, serial[path]);
            // A file that a damaged record ends (kFail) is read again whole, for how far into
            // its compressed bytes a serial read got.
            const bool ends = path == records && policy == tfrecord::CorruptionPolicy::kFail;
            CHECK(got.compressed_files_cut == (cut && !ends ? 1 : 0));
            // The stream every stretch reads is the serial read's own: its messages need no
            // second read from the start, damaged or not.
            CHECK(got.stretches_read_from_start == 0);
          }
          for (const std::string& path : unusable) {
            CAPTURE(path);
            const ParallelScanned got = Parallel({path}, options, threads, cut_for_one_thread, 64 << 10);
            CheckSame(got, serial[path]);
            CHECK(got.compressed_files_cut == 0);
          }
        }
      }
    }
  }
  // The ratio limit is checked after each inflate step, and steps follow how the stream is read:
  // a file that a serial read refuses somewhere must not pass the cut read's larger steps. Here
  // 2 MiB of zeros between two 32 KiB random records: the ratio peaks (at about 60) where the
  // zeros end.
  {
    const std::string zeros(1 << 20, '\0');
    const std::string peaky =
        tfrecord::testing::Frame({good.substr(0, 32 << 10), zeros, zeros, good.substr(32 << 10, 32 << 10)});
    const std::string path = write("peaky.tfrecord.gz", tfq::testing::ZlibCompress(peaky, true));
    // As zlib it expands about 30 times, past the guess: the rest is one more stretch.
    const std::string zpath = write("peaky.tfrecord.zz", tfq::testing::ZlibCompress(peaky, false));
    {
      ScanOptions options;
      options.decompression = DecompressionLimit::None();
      const ParallelScanned got = Parallel({zpath}, options, 3, false);
      CheckSame(got, Serial({zpath}, options));
      CHECK(got.compressed_files_cut == 1);
    }
    // A peak inside one of the shared stream's 1 MiB blocks: 1.5 MiB of zeros, then 600 KiB of
    // random records that bring the ratio down before the block ends. Checked only where blocks
    // end, the limit would pass what a serial read refuses at the peak.
    const std::string inside = write(
        "inside.tfrecord.gz",
        tfq::testing::ZlibCompress(tfrecord::testing::Frame({good.substr(0, 16 << 10), std::string(1536 << 10, '\0'),
                                                             good.substr(16 << 10, 600 << 10)}),
                                   true));
    for (const std::string& file : {path, inside}) {
      int refused = 0, passed = 0;
      for (uint64_t ratio = 4; ratio <= 100; ratio += 4) {
        CAPTURE(file);
        CAPTURE(ratio);
        ScanOptions options;
        options.reader.on_corruption = tfrecord::CorruptionPolicy::kSkipDataCrc;
        options.decompression.max_ratio = ratio;
        options.decompression.ratio_floor = 64 << 10;
        const Scanned want = Serial({file}, options);
        (want.reports[0].status.ok() ? passed : refused) += 1;
        CheckSame(Parallel({file}, options, 3, false, 64 << 10), want);
      }
      CHECK(refused > 0);
      CHECK(passed > 0);
    }
  }
  // Records reach the sinks in input order, and a sink's note is said once, at the same place,
  // for any thread count, though the sinks of stretches that noted nothing are folded together
  // while they wait for the trailer check.
  {
    ScanOptions options;
    options.reader.on_corruption = tfrecord::CorruptionPolicy::kSkipDataCrc;
    std::vector<std::string> want;
    ScanFile(records, options, [&](std::string_view r, const tfrecord::RecordReader&) {
      want.emplace_back(r);
      return Status::OK();
    }, nullptr);
    const auto noted = std::find_if(want.begin(), want.end(), [](const std::string& r) { return !r.empty() && r[0] == 'N'; });
    REQUIRE(noted != want.end());
    REQUIRE(noted - want.begin() > 200);  // not in the first stretch
    for (int threads : {1, 3}) {
      CAPTURE(threads);
      std::vector<std::string> log;
      ParallelScanOptions parallel;
      parallel.threads = threads;
      parallel.unit_bytes = 4096;
      ScanResult result = ScanFiles({records}, options, parallel,
                                    [&] { return std::make_unique<KeepingSink>(&log); }, nullptr);
      CHECK(result.compressed_files_cut == 1);
      REQUIRE(result.sink != nullptr);
      CHECK(static_cast<KeepingSink&>(*result.sink).records == want);
      CHECK(log == std::vector<std::string>{noted->substr(0, 8)});
    }
  }
  // Several files: cut only while there are fewer files than threads, where the cut does not
  // change results; never where it does.
  ScanOptions options;
  options.reader.on_corruption = tfrecord::CorruptionPolicy::kSkipDataCrc;
  const std::vector<std::string> two = {clean, records};
  const Scanned want = Serial(two, options);
  CHECK(want.reports[0].records == 2000);
  for (auto [threads, cut_for_one_thread, cut] : {std::tuple{3, false, 2}, {2, false, 0}, {3, true, 0}}) {
    CAPTURE(threads);
    const ParallelScanned got = Parallel(two, options, threads, cut_for_one_thread);
    CheckSame(got, want);
    CHECK(got.compressed_files_cut == static_cast<size_t>(cut));
  }
}

}  // namespace tfq::inspect
