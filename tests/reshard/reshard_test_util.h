// Writing small TFRecord files and reading shards back, for the shard and shuffle tests.
#ifndef TFQ_TESTS_RESHARD_RESHARD_TEST_UTIL_H_
#define TFQ_TESTS_RESHARD_RESHARD_TEST_UTIL_H_

#include <dirent.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "common/test_env.h"
#include "io/file_streams.h"
#include "reshard/record_source.h"
#include "reshard/shard_set.h"
#include "tfrecord/record_reader.h"
#include "tfrecord/record_writer.h"

namespace tfq::reshard::testing {

using tfq::testing::MakeTempDir;
using tfq::testing::ReadFileOrDie;
using tfq::testing::WriteFileOrDie;

// "rec-<i>" padded with filler up to `size` bytes (when larger): distinct and checkable.
inline std::string Rec(int i, size_t size = 0) {
  std::string s = "rec-" + std::to_string(i);
  if (s.size() < size) s.append(size - s.size(), static_cast<char>('a' + i % 26));
  return s;
}

inline std::vector<std::string> Recs(int from, int to, size_t size = 0) {
  std::vector<std::string> out;
  for (int i = from; i < to; ++i) out.push_back(Rec(i, size));
  return out;
}

inline void WriteRecords(const std::string& path, const std::vector<std::string>& records) {
  std::string bytes;
  for (const auto& r : records) tfrecord::AppendFramedRecord(r, &bytes);
  WriteFileOrDie(path, bytes);
}

// Every record of one file (any compression), or a FAIL.
inline std::vector<std::string> ReadRecords(const std::string& path) {
  auto file = OpenRecordFile(path, InputOptions{});
  REQUIRE(file.ok());
  tfrecord::RecordReader reader(std::move(file->stream), {});
  std::vector<std::string> out;
  std::string_view r;
  while (reader.Read(&r)) out.emplace_back(r);
  REQUIRE(reader.status().ok());
  return out;
}

// Names in `dir`, hidden ones included, sorted.
inline std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A one-shard gzip file of `records` at "<prefix>-00000-of-00001" (an input that cannot be
// re-read at offsets); returns its path.
inline std::string WriteGzipShard(const std::string& prefix, const std::vector<std::string>& records) {
  ShardSetOptions gz;
  gz.prefix = prefix;
  gz.compression = Compression::kGzip;
  auto set = ShardSet::Create(gz);
  REQUIRE(set.ok());
  for (const auto& r : records) REQUIRE((*set)->Write(0, r).ok());
  REQUIRE((*set)->Commit(1).ok());
  return prefix + "-00000-of-00001";
}

// Resident memory now, from /proc (pages * page size).
inline uint64_t CurrentRss() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// How far `work` raised the peak resident memory above what it was before, measured in a child
// process so that the test binary's own allocations do not blur the peak; ~0 when `work`
// returned false (failed, or did not take the path under test).
inline uint64_t PeakGrowthInChild(const std::function<bool()>& work) {
  int pipefd[2];
  REQUIRE(pipe(pipefd) == 0);
  fflush(nullptr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const uint64_t before = CurrentRss();
    const bool ok = work();
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    const uint64_t peak = static_cast<uint64_t>(usage.ru_maxrss) * 1024;
    const uint64_t growth = !ok ? ~uint64_t{0} : peak > before ? peak - before : 0;
    const ssize_t w = write(pipefd[1], &growth, sizeof growth);
    _exit(w == sizeof growth ? 0 : 1);
  }
  close(pipefd[1]);
  uint64_t growth = 0;
  REQUIRE(read(pipefd[0], &growth, sizeof growth) == sizeof growth);
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return growth;
}

// Memory-bound tests skip under sanitizers: shadow memory and quarantine inflate the resident set.
#ifdef TFQ_SANITIZER_BUILD
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

}  // namespace tfq::reshard::testing

#endif  // TFQ_TESTS_RESHARD_RESHARD_TEST_UTIL_H_
