// Fuzz target: the CSV reader (src/csv: chunker, parser, values, schema inference, row
// conversion; src/csv/example_rows.cc: encoding) through the library call behind `tfq convert
// x.csv` (src/convert/csv_to_records.h): on one thread reading a stream, and on two threads that
// cut the file themselves (src/csv/range_cutter.h).
//
// Input: two option bytes, then the table. Byte 0 picks the delimiter, quoting, header (or three
// given column names), the ragged-row policy, inference over all rows or the first few, and NA
// strings; byte 1 the chunk size (1..256 bytes, so that records straddle chunk ends).
// Checked: no crash or leak, and the output does not depend on where chunks were cut: the run
// with tiny chunks and the run with one big chunk end the same way (the same error message)
// with the same records; and
// the workers' cut of tiny ranges gives the tiny chunks' records, or their error word for word.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "convert/csv_to_records.h"
#include "fuzz_check.h"
#include "io/file_streams.h"
#include "io/random_access_file.h"

namespace {

struct Run {
  tfq::Status status;
  std::string framed;
};

Run Convert(const std::string& csv, const tfq::CsvToRecordsOptions& options, bool ranges = false) {
  const tfq::CsvOpener open = [&](const std::string& name)
      -> tfq::Result<std::unique_ptr<tfq::InputStream>> { return tfq::NewMemoryInputStream(name, csv); };
  Run run;
  tfq::CsvCallbacks callbacks;
  callbacks.on_schema = [](const tfq::csv::Schema&) { return tfq::Status::OK(); };
  callbacks.sink = [&](std::string_view framed, std::span<const size_t> ends) {
    FUZZ_CHECK(!ends.empty() && ends.back() == framed.size());
    run.framed.append(framed);
    return tfq::Status::OK();
  };
  if (ranges) {
    callbacks.open_ranges = [&](const std::string& name)
        -> tfq::Result<std::unique_ptr<tfq::RandomAccessFile>> { return tfq::NewMemoryRandomAccessFile(name, csv); };
  }
  run.status = tfq::CsvToRecords({"fuzz.csv"}, open, options, callbacks, nullptr);
  return run;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint8_t mode = data[0];
  constexpr char kDelimiters[] = {',', '\t', ';', '|'};
  constexpr tfq::csv::RaggedPolicy kRagged[] = {
      tfq::csv::RaggedPolicy::kError, tfq::csv::RaggedPolicy::kPad, tfq::csv::RaggedPolicy::kSkip,
      tfq::csv::RaggedPolicy::kPad};

  tfq::CsvToRecordsOptions options;
  options.parse.delimiter = kDelimiters[mode & 3];
  options.parse.quoting = !((mode >> 2) & 1);
  options.parse.header = !((mode >> 3) & 1);
  if (!options.parse.header) options.column_names = {"a", "b", "c"};
  options.parse.ragged = kRagged[(mode >> 4) & 3];
  options.infer_rows = (mode >> 6) & 1 ? tfq::CsvToRecordsOptions::kInferAll : 3;
  if ((mode >> 7) & 1) options.na_values = {"NA", "null"};
  options.threads = 1;

  const std::string csv(reinterpret_cast<const char*>(data) + 2, size - 2);
  options.chunk_bytes = 1 + data[1];
  const Run tiny = Convert(csv, options);
  options.threads = 2;
  const Run cut = Convert(csv, options, /*ranges=*/true);
  options.threads = 1;
  options.chunk_bytes = size_t{1} << 20;
  const Run whole = Convert(csv, options);

  FUZZ_CHECK(tiny.status.code() == whole.status.code());
  // The same first failure, word for word, except a record over the limit: the limit is never
  // below a chunk, so its number follows the chunk size.
  if (tiny.status.code() != tfq::StatusCode::kResourceExhausted) {
    if (tiny.status.message() != whole.status.message()) {
      std::fprintf(stderr, "tiny:  %s\nwhole: %s\n", tiny.status.ToString().c_str(), whole.status.ToString().c_str());
    }
    FUZZ_CHECK(tiny.status.message() == whole.status.message());
  }
  if (tiny.status.ok()) FUZZ_CHECK(tiny.framed == whole.framed);
  if (cut.status.message() != tiny.status.message()) {
    std::fprintf(stderr, "serial: %s\ncut:    %s\n", tiny.status.ToString().c_str(), cut.status.ToString().c_str());
  }
  FUZZ_CHECK(cut.status.code() == tiny.status.code());
  FUZZ_CHECK(cut.status.message() == tiny.status.message());
  if (tiny.status.ok()) FUZZ_CHECK(cut.framed == tiny.framed);
  return 0;
}
