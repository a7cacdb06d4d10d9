// csv-to-tfrecord: CSV text -> framed TFRecord records of tf.Examples, all in memory, through the
// library call behind `tfq convert x.csv` (CsvToRecords with one thread per bench thread): chunking,
// parsing, schema inference from the first 1000 rows, typed conversion and Example encoding (fused,
// csv::RowExampleWriter), framing with the CRCs; the framed records are dropped as /dev/null
// would take them. MB/s of CSV input, and rows (records) per second.
//
// Always on CSV generated here (the named inputs are TFRecord files): a table of ids, prices,
// counts, categories, zip codes with leading zeros (which stay text), timestamps and free-text
// comments, some quoted with commas and doubled quotes inside.
#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "bench/generate.h"
#include "bench/view_stream.h"
#include "bench/workload.h"
#include "convert/csv_to_records.h"

namespace tfq::bench {
namespace {

constexpr std::array<const char*, 8> kCategories = {"books", "garden", "toys", "music",
                                                    "kitchen", "sports", "office", "health"};
constexpr std::array<const char*, 8> kReviewWords = {"great", "value", "arrived", "late", "works",
                                               "as", "described", "broken"};

std::string GenerateCsv(size_t bytes, uint64_t seed) {
  SplitMix64 rng(seed);
  std::string csv = "id,price,quantity,category,zip,rating,timestamp,comment\n";
  char line[256];
  for (uint64_t id = 1; csv.size() < bytes; ++id) {
    std::string comment;
    for (uint64_t w = rng.Between(2, 12); w > 0; --w) comment += std::string(comment.empty() ? "" : " ") + kReviewWords[rng.Next() % 8];
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
    Work check;
    return RunPass(0, 1, &check);  // the data converts cleanly before anything is timed
  }

  Status RunPass(size_t, size_t, Work* work) override {
    CsvOpener open = [this](const std::string& name) -> Result<std::unique_ptr<InputStream>> {
      return std::unique_ptr<InputStream>(std::make_unique<ViewInputStream>(name, csv_));
    };
    CsvToRecordsOptions options;  // tfq convert's defaults, one thread
    uint64_t framed_bytes = 0;
    CsvCallbacks callbacks;
    callbacks.sink = [&](std::string_view framed, std::span<const size_t>) {
      framed_bytes += framed.size();
      return Status::OK();
    };
    CsvProgress progress;
    TFQ_RETURN_IF_ERROR(CsvToRecords({"generated.csv"}, open, options, callbacks, &progress));
    if (framed_bytes == 0) return Status::Internal("csv-to-tfrecord wrote nothing");
    work->records += progress.records;
    work->bytes += csv_.size();
    return Status::OK();
  }

 private:
  std::string csv_;
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
