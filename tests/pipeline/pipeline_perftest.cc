// Throughput of the pipeline reading + verifying (CRCs) + parsing 8 shards of Examples, with 1
// and 2 threads per pool, next to `cat` over the same bytes. Not run by ctest.
//
//   tfq_pipeline_perftest [MB per shard, default 32] [seconds per measurement, default 3] [filter]
//
// A filter runs only the pipeline rows whose label contains it, and not cat (for profiling).
//
// The shards are written once into a temporary directory (removed at the end) and read from the
// page cache, so the numbers are CPU cost, not disk speed. Each measurement repeats whole passes
// until the time is up, after one warm-up pass. MB/CPU-s divides by the CPU time used (all threads;
// cat's own for cat) rather than the wall time: it does not depend on other load on the machine.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "example/example.h"
#include "io/file_streams.h"
#include "pipeline/pipeline.h"
#include "tfrecord/record_writer.h"

#ifndef TFQ_BUILD_TYPE
#define TFQ_BUILD_TYPE "unknown"
#endif

namespace {

using Clock = std::chrono::steady_clock;
using tfq::pipeline::Batch;
using tfq::pipeline::Pipeline;
using tfq::pipeline::PipelineOptions;

constexpr int kShards = 8;
constexpr size_t kEmbedding = 128;

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "tfq_pipeline_perftest: error: %s\n", what.c_str());
  std::exit(1);
}

// A typical training Example: ids and a label, a float embedding, a variable token list and a
// short text; about 700 bytes.
std::string MakeRecord(uint64_t i, tfq::ExampleEncoder* encoder) {
  encoder->Clear();
  encoder->AddInt64("id", static_cast<int64_t>(i));
  encoder->AddInt64("label", static_cast<int64_t>(i % 10));
  float embedding[kEmbedding];
  for (size_t k = 0; k < kEmbedding; ++k) embedding[k] = static_cast<float>((i * 31 + k) % 997) / 997;
  encoder->AddFloats("embedding", embedding, kEmbedding);
  int64_t tokens[40];
  const size_t n = 5 + i % 36;
  for (size_t k = 0; k < n; ++k) tokens[k] = static_cast<int64_t>((i * 7919 + k * 104729) % 50000);
  encoder->AddInt64s("tokens", tokens, n);
  encoder->AddBytes("text", std::string(40 + i % 80, static_cast<char>('a' + i % 26)));
  std::string out;
  encoder->Finish(&out);
  return out;
}

std::vector<std::string> WriteShards(const std::string& dir, uint64_t bytes_per_shard,
                                     uint64_t* total_bytes, uint64_t* total_records) {
  std::vector<std::string> paths;
  tfq::ExampleEncoder encoder;
  uint64_t id = 0;
  for (int s = 0; s < kShards; ++s) {
    paths.push_back(dir + "/shard-" + std::to_string(s) + ".tfrecord");
    auto out = tfq::CreateOutputFile(paths.back());
    if (!out.ok()) Die(out.status().ToString());
    tfq::tfrecord::RecordWriter writer(out->get());
    while (writer.bytes_written() < bytes_per_shard) {
      tfq::Status st = writer.Write(MakeRecord(id++, &encoder));
      if (!st.ok()) Die(st.ToString());
    }
    if (tfq::Status st = (*out)->Close(); !st.ok()) Die(st.ToString());
    *total_bytes += writer.bytes_written();
    *total_records += writer.records_written();
  }
  return paths;
}

// CPU seconds (user + system) used so far by this process's threads, or by its waited-for
// children (cat).
double CpuSeconds(int who) {
  rusage usage;
  getrusage(who, &usage);
  auto seconds = [](const timeval& tv) { return tv.tv_sec + tv.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

struct Rate {
  double passes_per_second = 0;      // wall clock
  double passes_per_cpu_second = 0;  // independent of other load on the machine
};

// Repeats `pass` (which returns false on failure) until `seconds` passed.
template <typename Pass>
Rate Measure(double seconds, int cpu_who, Pass pass) {
  if (!pass()) Die("warm-up pass failed");
  int passes = 0;
  const double cpu_start = CpuSeconds(cpu_who);
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration<double>(seconds);
  do {
    if (!pass()) Die("pass failed");
    ++passes;
  } while (Clock::now() < deadline);
  Rate rate;
  rate.passes_per_second = passes / std::chrono::duration<double>(Clock::now() - start).count();
  rate.passes_per_cpu_second = passes / (CpuSeconds(cpu_who) - cpu_start);
  return rate;
}

bool CatPass(const std::vector<std::string>& paths) {
  std::string command = "cat";
  for (const std::string& p : paths) command += " '" + p + "'";
  command += " > /dev/null";
  return std::system(command.c_str()) == 0;
}

bool PipelinePass(const std::vector<std::string>& paths, size_t threads, bool parse,
                  uint64_t expected_records) {
  PipelineOptions o;
  o.read.inputs = paths;
  o.read.cycle_length = kShards;
  o.read.reader_threads = threads;
  o.parse_threads = threads;
  o.batch_size = 256;
  if (parse) {
    o.features = {tfq::pipeline::FixedLenInt64("id"), tfq::pipeline::FixedLenInt64("label"),
                  tfq::pipeline::FixedLenFloat("embedding", kEmbedding),
                  tfq::pipeline::VarLenInt64("tokens"),
                  tfq::pipeline::VarLenBytes("text", tfq::pipeline::BytesLayout::kBlob)};
  }
  auto pipeline = Pipeline::Open(o);
  if (!pipeline.ok()) Die(pipeline.status().ToString());
  Batch batch;
  uint64_t rows = 0;
  while ((*pipeline)->Next(&batch)) rows += batch.rows;
  if (!(*pipeline)->status().ok()) Die((*pipeline)->status().ToString());
  return rows == expected_records;
}

}  // namespace

int main(int argc, char** argv) {
  const double mb_per_shard = argc > 1 ? std::atof(argv[1]) : 32;
  const double seconds = argc > 2 ? std::atof(argv[2]) : 3;
  const std::string filter = argc > 3 ? argv[3] : "";
  if (!(mb_per_shard > 0) || !(seconds > 0)) Die("usage: tfq_pipeline_perftest [MB per shard] [seconds]");

  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/tfq-pipeline-perf-XXXXXX";
  if (!mkdtemp(dir.data())) Die("mkdtemp failed");
  uint64_t total_bytes = 0, total_records = 0;
  const std::vector<std::string> paths =
      WriteShards(dir, static_cast<uint64_t>(mb_per_shard * 1e6), &total_bytes, &total_records);

  std::printf("pipeline throughput, %s build, %u hardware threads: %d shards, %.1f MB, %llu records "
              "(%.0f B each), page cache warm; %.1f s per row after a warm-up pass\n\n",
              TFQ_BUILD_TYPE, std::thread::hardware_concurrency(), kShards, total_bytes / 1e6,
              static_cast<unsigned long long>(total_records),
              static_cast<double>(total_bytes) / total_records, seconds);
  std::printf("%-42s %11s %9s %8s %11s\n", "what", "records/s", "MB/s", "x cat", "MB/CPU-s");

  const Rate cat_rate =
      filter.empty() ? Measure(seconds, RUSAGE_CHILDREN, [&] { return CatPass(paths); }) : Rate();
  auto row = [&](const char* what, const Rate& rate) {
    std::printf("%-42s %11.0f %9.1f %8.2f %11.1f\n", what, rate.passes_per_second * total_records,
                rate.passes_per_second * total_bytes / 1e6,
                cat_rate.passes_per_second > 0 ? rate.passes_per_second / cat_rate.passes_per_second : 0.0,
                rate.passes_per_cpu_second * total_bytes / 1e6);
    std::fflush(stdout);
  };
  if (filter.empty()) row("cat > /dev/null", cat_rate);
  for (size_t threads : {1, 2}) {
    for (bool parse : {false, true}) {
      const std::string what = std::string(parse ? "read+verify+parse" : "read+verify") +
                               ", " + std::to_string(threads) + " reader + " +
                               std::to_string(threads) + " parse thr";
      if (what.find(filter) == std::string::npos) continue;
      row(what.c_str(), Measure(seconds, RUSAGE_SELF, [&] {
            return PipelinePass(paths, threads, parse, total_records);
          }));
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return 0;
}
