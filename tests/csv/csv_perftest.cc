// Single-thread throughput of the CSV core on a real file: chunking alone, parsing (chunker +
// parser), parse + convert (schema inferred from the first 1000 rows, typed values), parse +
// convert + tf.Example serialization (RowConverter + RowExampleEncoder), and parse + the fused
// RowExampleWriter (what `tfq convert` runs, without the TFRecord framing).
// Not run by ctest.
//
//   tfq_csv_perftest FILE.csv [--repeat-to MB] [--seconds S] [--only chunk|parse|convert|example|write]
//
// The file is read into memory first (no I/O in the measurement), as a memory-mapped input would
// be. --repeat-to repeats the body (the rows after the header) until the input reaches MB
// megabytes, as shared/csv/PROVENANCE.md builds tweets-x40.csv.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "csv/chunker.h"
#include "csv/converter.h"
#include "csv/example_rows.h"
#include "row_example_encoder.h"
#include "csv/infer.h"
#include "csv/parser.h"
#include "csv/schema.h"
#include "csv_test_util.h"

#ifndef TFQ_BUILD_TYPE
#define TFQ_BUILD_TYPE "unknown"
#endif

namespace {

using Clock = std::chrono::steady_clock;

struct PassStats {
  size_t rows = 0;
  size_t fields = 0;
  std::string note;
  std::string error;
};

// Parses the whole input once; returns rows and fields seen (so nothing is optimised away).
PassStats ParseOnce(const std::string& input) {
  auto stream = tfq::csv::testing::MemoryStream::View(input, "input");
  tfq::csv::ParseOptions options;
  tfq::csv::Chunker chunker(&stream, options);
  tfq::csv::ChunkParser parser(options);
  tfq::csv::Chunk chunk;
  tfq::csv::RowBatch batch;
  PassStats stats;
  for (;;) {
    bool done = false;
    tfq::Status s = chunker.Next(&chunk, &done);
    if (s.ok() && !done) s = parser.Parse(chunk, &batch);
    if (!s.ok()) {
      stats.error = s.ToString();
      return stats;
    }
    if (done) return stats;
    stats.rows += batch.num_rows();
    for (size_t i = 0; i < batch.num_rows(); ++i) stats.fields += batch.row(i).size();
  }
}

PassStats ChunkOnce(const std::string& input) {
  auto stream = tfq::csv::testing::MemoryStream::View(input, "input");
  tfq::csv::ParseOptions options;
  tfq::csv::Chunker chunker(&stream, options);
  tfq::csv::Chunk chunk;
  PassStats stats;
  for (;;) {
    bool done = false;
    tfq::Status s = chunker.Next(&chunk, &done);
    if (!s.ok()) {
      stats.error = s.ToString();
      return stats;
    }
    if (done) return stats;
    stats.rows = chunk.first_record;
  }
}

enum class Output { kValues, kExample, kWriter };

// Parses, infers the schema from the first 1000 rows, converts every row and, unless kValues,
// serializes it as a tf.Example: converted first (kExample), or fused (kWriter: what `tfq
// convert` does before the TFRecord framing).
PassStats ConvertOnce(const std::string& input, Output output) {
  const bool encode = output != Output::kValues;
  using namespace tfq::csv;
  auto stream = testing::MemoryStream::View(input, "input");
  ParseOptions options;
  Chunker chunker(&stream, options);
  ChunkParser parser(options);
  Chunk chunk;
  RowBatch batch;
  std::optional<RowConverter> converter;
  std::optional<RowExampleWriter> writer;
  RowExampleEncoder encoder;
  std::string records;
  tfq::ByteBuffer written;
  size_t example_bytes = 0;
  PassStats stats;
  for (;;) {
    bool done = false;
    tfq::Status s = chunker.Next(&chunk, &done);
    if (s.ok() && !done) s = parser.Parse(chunk, &batch);
    if (s.ok() && !done && !converter) {  // the first chunk: infer from its first 1000 rows
      SchemaInferrer inferrer(parser.column_names(), Schema{}, NaMatcher());
      inferrer.AddBatch(batch, 0, 1000);
      tfq::Result<Schema> schema = inferrer.Finish();
      tfq::Result<RowConverter> c =
          schema.ok() ? RowConverter::Make(*schema, parser.column_names(), NaMatcher())
                      : tfq::Result<RowConverter>(schema.status());
      if (!c.ok()) {
        stats.error = c.status().ToString();
        return stats;
      }
      converter.emplace(std::move(*c));
      writer.emplace(*converter);
      int kinds[3] = {0, 0, 0};
      for (const ColumnSpec& col : schema->columns) ++kinds[static_cast<int>(col.kind)];
      stats.note = "; int64 x" + std::to_string(kinds[0]) + ", float x" + std::to_string(kinds[1]) +
                   ", bytes x" + std::to_string(kinds[2]);
    }
    records.clear();
    written.clear();
    for (size_t i = 0; s.ok() && !done && i < batch.num_rows(); ++i) {
      if (output == Output::kWriter) {
        s = writer->Append(batch, i, &written);
        continue;
      }
      s = converter->Convert(batch, i);
      if (encode) encoder.Encode(*converter, &records);
    }
    if (!s.ok()) {
      stats.error = s.ToString();
      return stats;
    }
    if (done) {
      if (encode) stats.note += "; " + std::to_string(example_bytes / 1000000) + " MB of Examples";
      return stats;
    }
    example_bytes += records.size() + written.size();
    stats.rows += batch.num_rows();
    stats.fields += batch.num_rows() * converter->num_columns();
  }
}

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Runs `pass` for about `seconds` after one warm-up pass and reports the median pass. Speeds are
// per second of this thread's CPU time: the machine is shared (2 cores, other builds running), and
// CPU time is what a busy neighbour does not inflate; the wall-clock figure follows for honesty.
template <typename Pass>
void Measure(const char* label, const std::string& input, double seconds, Pass pass) {
  PassStats stats = pass(input);  // warm-up: page faults, caches, branch predictors
  if (!stats.error.empty()) {
    std::printf("%-14s error: %s\n", label, stats.error.c_str());
    return;
  }
  std::vector<double> cpu;
  std::vector<double> wall;
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  do {
    const auto start = Clock::now();
    const double cpu_start = ThreadCpuSeconds();
    stats = pass(input);
    cpu.push_back(ThreadCpuSeconds() - cpu_start);
    wall.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  } while (Clock::now() < deadline || cpu.size() < 3);
  std::sort(cpu.begin(), cpu.end());
  std::sort(wall.begin(), wall.end());
  const double t = cpu[cpu.size() / 2];
  const double mb = static_cast<double>(input.size()) / 1e6;
  std::printf("%-14s %7.0f MB/s %6.2f M rows/s  (wall %4.0f MB/s; %zu rows, %zu fields%s; median of %zu)\n",
              label, mb / t, static_cast<double>(stats.rows) / t / 1e6, mb / wall[wall.size() / 2],
              stats.rows, stats.fields, stats.note.c_str(), cpu.size());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  double repeat_to_mb = 0;
  double seconds = 3;
  std::string only;  // run one pass (for profiling): chunk, parse or example
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeat-to" && i + 1 < argc) {
      repeat_to_mb = std::atof(argv[++i]);
    } else if (arg == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (arg == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (path.empty() && arg[0] != '-') {
      path = arg;
    } else {
      std::fprintf(stderr, "usage: tfq_csv_perftest FILE.csv [--repeat-to MB] [--seconds S] [--only chunk|parse|convert|example|write]\n");
      return 2;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr, "usage: tfq_csv_perftest FILE.csv [--repeat-to MB] [--seconds S] [--only chunk|parse|convert|example|write]\n");
    return 2;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "tfq_csv_perftest: error: cannot read %s\n", path.c_str());
    return 1;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string input = ss.str();
  if (repeat_to_mb > 0) {
    const size_t header_end = input.find('\n') + 1;
    std::string body = input.substr(header_end);
    if (!body.empty() && body.back() != '\n') body += '\n';
    input.resize(header_end);
    while (!body.empty() && input.size() < repeat_to_mb * 1e6) input += body;
  }
  std::printf("csv throughput, 1 thread, %s build: %s, %.1f MB in memory\n", TFQ_BUILD_TYPE,
              path.c_str(), static_cast<double>(input.size()) / 1e6);
  if (only.empty() || only == "chunk") Measure("chunk", input, seconds, ChunkOnce);
  if (only.empty() || only == "parse") Measure("parse", input, seconds, ParseOnce);
  if (only.empty() || only == "convert") {
    Measure("parse+convert", input, seconds,
            [](const std::string& in) { return ConvertOnce(in, Output::kValues); });
  }
  if (only.empty() || only == "example") {
    Measure("parse+example", input, seconds,
            [](const std::string& in) { return ConvertOnce(in, Output::kExample); });
  }
  if (only.empty() || only == "write") {
    Measure("parse+write", input, seconds,
            [](const std::string& in) { return ConvertOnce(in, Output::kWriter); });
  }
  return 0;
}
