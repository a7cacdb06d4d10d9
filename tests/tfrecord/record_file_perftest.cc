// Random access into a gzip TFRecord file: RecordFile::Get(i) through the access points, against
// reading from the start of the file to record i (what any reader without an index must do), and
// Get on the same records uncompressed. Not run by ctest.
//
//   tfq_record_file_perftest [uncompressed MiB, default 200] [seconds per measurement, default 3]
//
// Writes the files to $TMPDIR (or /tmp) and removes them at the end.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tfrecord/open.h"
#include "tfrecord/record_file.h"
#include "tfrecord/record_reader.h"
#include "tfrecord/record_writer.h"

#ifndef TFQ_BUILD_TYPE
#define TFQ_BUILD_TYPE "unknown"
#endif

namespace {

using Clock = std::chrono::steady_clock;
using tfq::tfrecord::RecordFile;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

void Die(const tfq::Status& s) {
  if (s.ok()) return;
  std::fprintf(stderr, "record_file_perftest: %s\n", s.ToString().c_str());
  std::exit(1);
}

// Records of 1-9 KiB that compress about 3:1, like serialized Examples with numbers and text.
std::string MakeFile(const std::string& path, uint64_t bytes) {
  auto out = tfq::tfrecord::CreateRecordOutput(path, tfq::Compression::kAuto);
  if (!out.ok()) Die(out.status());
  tfq::tfrecord::RecordWriter writer(out->get());
  std::mt19937_64 rng(1);
  static const char* kWords[] = {"image/encoded", "label", "feature", "bbox/xmin", "train-", "0.25"};
  uint64_t written = 0;
  std::string record;
  while (written < bytes) {
    record.clear();
    const size_t size = 1024 + rng() % 8192;
    while (record.size() < size) {
      if (rng() % 3 == 0) {
        for (int k = 0; k < 4; ++k) record.push_back(static_cast<char>(rng()));
      } else {
        record += kWords[rng() % 6];
      }
    }
    Die(writer.Write(record));
    written += record.size() + 16;
  }
  Die((*out)->Close());
  return path;
}

// Random Get(i) for `seconds` on `threads` threads; returns Gets per second.
double RandomGets(const RecordFile& file, double seconds, int threads) {
  std::vector<uint64_t> counts(static_cast<size_t>(threads), 0);
  std::vector<std::thread> pool;
  const auto start = Clock::now();
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::mt19937_64 rng(static_cast<uint64_t>(t) + 11);
      std::string record;
      while (Seconds(start) < seconds) {
        Die(file.Get(rng() % file.size(), &record));
        ++counts[static_cast<size_t>(t)];
      }
    });
  }
  for (auto& th : pool) th.join();
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  return static_cast<double>(total) / Seconds(start);
}

// Record i by reading the file from its start: Skip to i, Read it. Seconds per record.
double FromTheStart(const std::string& path, uint64_t records, double seconds) {
  std::mt19937_64 rng(5);
  int done = 0;
  const auto start = Clock::now();
  while (Seconds(start) < seconds || done < 3) {
    const uint64_t target = rng() % records;
    auto in = tfq::tfrecord::OpenRecordInput(path, tfq::Compression::kAuto);
    if (!in.ok()) Die(in.status());
    tfq::tfrecord::RecordReader reader(std::move(in->stream), {});
    for (uint64_t i = 0; i < target; ++i) reader.Skip();
    std::string_view record;
    if (!reader.Read(&record)) Die(reader.status());
    ++done;
  }
  return Seconds(start) / done;
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200;
  const double seconds = argc > 2 ? std::atof(argv[2]) : 3.0;
  const char* tmp = std::getenv("TMPDIR");
  const std::string base = std::string(tmp ? tmp : "/tmp") + "/tfq_record_file_perftest." + std::to_string(getpid());
  const std::string gz = MakeFile(base + ".tfrecord.gz", mib << 20);
  const std::string plain = MakeFile(base + ".tfrecord", mib << 20);

  tfq::tfrecord::RecordFileOptions build;
  build.read_index = false;
  build.write_index = true;
  auto start = Clock::now();
  auto gz_file = RecordFile::Open(gz, build);
  if (!gz_file.ok()) Die(gz_file.status());
  const double build_s = Seconds(start);
  start = Clock::now();
  auto gz_again = RecordFile::Open(gz);  // the indexes just written
  if (!gz_again.ok()) Die(gz_again.status());
  const double load_s = Seconds(start);
  auto plain_file = RecordFile::Open(plain, build);
  if (!plain_file.ok()) Die(plain_file.status());

  const RecordFile& f = **gz_file;
  const auto* points = f.access_points();
  std::printf("build %s; %d CPUs online\n", TFQ_BUILD_TYPE, static_cast<int>(std::thread::hardware_concurrency()));
  std::printf("gzip file: %llu records, %.1f MiB uncompressed, %.1f MiB compressed, %zu access points (%.1f MiB of windows)\n",
              static_cast<unsigned long long>(f.size()), static_cast<double>(points->uncompressed_size) / (1 << 20),
              static_cast<double>(points->file.size) / (1 << 20), points->points.size(),
              static_cast<double>(points->points.size()) * 32768 / (1 << 20));
  std::printf("  open, walking and writing the indexes: %.2f s; open with them: %.3f s\n", build_s, load_s);
  const double from_start = FromTheStart(gz, f.size(), seconds);
  const double gz1 = RandomGets(f, seconds, 1);
  std::printf("  record i by inflating from the start: %.1f ms per record (%.1f records/s)\n", from_start * 1e3, 1 / from_start);
  std::printf("  Get(i) through access points, 1 thread: %.2f ms per record (%.0f records/s), %.0fx faster\n",
              1e3 / gz1, gz1, gz1 * from_start);
  for (int threads : {2, 4}) {
    std::printf("  Get(i) through access points, %d threads: %.0f records/s\n", threads, RandomGets(f, seconds, threads));
  }
  std::printf("plain file, Get(i), 1 thread: %.0f records/s (page-cached)\n", RandomGets(**plain_file, seconds, 1));
  for (const std::string& p : {gz, plain}) {
    std::remove(p.c_str());
    std::remove((p + ".idx").c_str());
    std::remove((p + ".tfqgzidx").c_str());
  }
  return 0;
}
