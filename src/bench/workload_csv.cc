// csv-to-tfrecord: CSV text -> framed TFRecord records of tf.Examples, all in memory: chunking,
// parsing, typed conversion (schema inferred once, as `tfq convert` infers it), Example encoding
// and framing with the data CRC. MB/s of CSV input, and rows (records) per second.
//
// Always on CSV generated here (the named inputs are TFRecord files): a table of ids, prices,
// counts, categories, zip codes with leading zeros (which stay text), timestamps and free-text
// comments, some quoted with commas and doubled quotes inside.
#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <vector>

#include "bench/generate.h"
#include "bench/view_stream.h"
#include "bench/workload.h"
#include "csv/chunker.h"
#include "csv/converter.h"
#include "csv/example_rows.h"
#include "csv/infer.h"
#include "csv/parser.h"
#include "tfrecord/record_writer.h"

namespace tfq::bench {
namespace {

constexpr std::array<const char*, 8> kCategories = {"books", "garden", "toys", "music",
                                                    "kitchen", "sports", "office", "health"};
constexpr std::array<const char*, 8> kWords = {"great", "value", "arrived", "late", "works",
                                               "as", "described", "broken"};

std::string GenerateCsv(size_t bytes, uint64_t seed) {
  SplitMix64 rng(seed);
  std::string csv = "id,price,quantity,category,zip,rating,timestamp,comment\n";
  char line[256];
  for (uint64_t id = 1; csv.size() < bytes; ++id) {
    std::string comment;
    for (uint64_t w = rng.Between(2, 12); w > 0; --w) comment += std::string(comment.empty() ? "" : " ") + kWords[rng.Next() % 8];
    const uint64_t style = rng.Next() % 4;
    if (style == 0) comment = "\"" + comment + ", really\"";           // a comma inside quotes
    if (style == 1) comment = "\"said \"\"" + comment + "\"\" twice\"";  // doubled quotes
    std::snprintf(line, sizeof line, "%llu,%.2f,%llu,%s,%05llu,%.1f,2024-%02llu-%02lluT%02llu:%02llu:00,",
                  static_cast<unsigned long long>(id), rng.Unit() * 500,
                  static_cast<unsigned long long>(rng.Between(1, 20)), kCategories[rng.Next() % 8],
                  static_cast<unsigned long long>(rng.Between(0, 99999)), 1 + rng.Unit() * 4,
                  static_cast<unsigned long long>(rng.Between(1, 12)),
                  static_cast<unsigned long long>(rng.Between(1, 28)),
                  static_cast<unsigned long long>(rng.Between(0, 23)),
                  static_cast<unsigned long long>(rng.Between(0, 59)));
    csv += line;
    csv += comment;
    csv += '\n';
  }
  return csv;
}

class CsvWorkload : public Workload {
 public:
  Status Prepare(Dataset& data, size_t max_threads) override {
    // A quarter of the TFRecord data, within bounds that keep a pass between ~1 and ~50 ms.
    csv_ = GenerateCsv(std::clamp<size_t>(data.framed().size() / 4, 256 << 10, 8 << 20), data.seed() + 1);
    ViewInputStream stream("generated.csv", csv_);
    csv::Chunker chunker(&stream, options_);
    csv::ChunkParser parser(options_);
    csv::Chunk chunk;
    csv::RowBatch batch;
    bool done = false;
    TFQ_RETURN_IF_ERROR(chunker.Next(&chunk, &done));
    if (done) return Status::Internal("generated CSV is empty");
    TFQ_RETURN_IF_ERROR(parser.Parse(chunk, &batch));
    names_ = parser.column_names();
    csv::SchemaInferrer inferrer(names_, csv::Schema{}, csv::NaMatcher());
    inferrer.AddBatch(batch, 0, 1000);
    Result<csv::Schema> schema = inferrer.Finish();
    if (!schema.ok()) return schema.status();
    Result<csv::RowConverter> converter = csv::RowConverter::Make(*schema, names_, csv::NaMatcher());
    if (!converter.ok()) return converter.status();
    threads_.clear();
    for (size_t i = 0; i < max_threads; ++i) threads_.push_back({converter.value(), {}, {}, {}, {}, {}});
    Work check;
    return RunPass(0, 1, &check);  // the data converts cleanly before anything is timed
  }

  Status RunPass(size_t thread, size_t, Work* work) override {
    PerThread& t = threads_[thread];
    ViewInputStream stream("generated.csv", csv_);
    csv::Chunker chunker(&stream, options_);
    csv::ChunkParser parser(options_);
    parser.SetColumnNames(names_);
    for (;;) {
      bool done = false;
      TFQ_RETURN_IF_ERROR(chunker.Next(&t.chunk, &done));
      if (done) break;
      TFQ_RETURN_IF_ERROR(parser.Parse(t.chunk, &t.batch));
      t.framed.clear();
      for (size_t row = 0; row < t.batch.num_rows(); ++row) {
        TFQ_RETURN_IF_ERROR(t.converter.Convert(t.batch, row));
        t.example.clear();
        t.encoder.Encode(t.converter, &t.example);
        tfrecord::AppendFramedRecord(t.example, &t.framed);
      }
      work->records += t.batch.num_rows();
    }
    work->bytes += csv_.size();
    return Status::OK();
  }

 private:
  struct PerThread {
    csv::RowConverter converter;
    csv::RowExampleEncoder encoder;
    csv::Chunk chunk;
    csv::RowBatch batch;
    std::string example;
    std::string framed;  // one chunk's records, as a writer would buffer them
  };

  csv::ParseOptions options_;
  std::string csv_;
  std::vector<std::string> names_;
  std::vector<PerThread> threads_;
};

}  // namespace
}  // namespace tfq::bench

TFQ_BENCH_WORKLOADS(csv) {
  using namespace tfq::bench;
  registry.Add(Describe<CsvWorkload>(
      "csv-to-tfrecord",
      "CSV -> tf.Example -> framed TFRecord in memory, generated table (MB/s of CSV, records/s)",
      60, Metric::kBytes));
}
