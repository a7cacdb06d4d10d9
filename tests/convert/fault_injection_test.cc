// Injected read and write failures in the converters: a bad sector under the input (EIO) and a
// full disk under the output (ENOSPC). The error must reach the caller unchanged, naming the file
// and what happened, whatever the thread count, and stop the conversion.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/test_env.h"
#include "common/fault_streams.h"
#include "convert/csv_to_records.h"
#include "convert/jsonl.h"
#include "convert/records_to_csv.h"
#include "example/example.h"
#include "io/file_streams.h"
#include "tfrecord/record_writer.h"

namespace tfq {
namespace {

using testing::FailingInputStream;
using testing::FailingOutputStream;

using ::tfq::testing::Contains;

std::string JsonLines(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "{\"id\": [" + std::to_string(i) + "], \"t\": [\"row " + std::to_string(i) + "\"]}\n";
  return s;
}

std::string CsvRows(int n) {
  std::string s = "id,name,score\n";
  for (int i = 0; i < n; ++i) s += std::to_string(i) + ",name" + std::to_string(i) + "," + std::to_string(i * 0.5) + "\n";
  return s;
}

TEST_CASE("JSON lines: a read error part-way names the input and stops") {
  const std::string text = JsonLines(1000);
  FailingInputStream in("rows.jsonl", text, text.size() / 2);
  uint64_t records = 0;
  Status s = JsonLinesToRecords(&in, {}, [](std::string_view, std::span<const size_t>) { return Status::OK(); }, &records);
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(Contains(s.message(), "rows.jsonl: read error at byte " + std::to_string(text.size() / 2)));
  CHECK(records < 1000);
}

TEST_CASE("JSON lines: a full disk behind the sink stops at once and is returned as it is") {
  const std::string text = JsonLines(1000);
  auto in = NewMemoryInputStream("rows.jsonl", text);
  FailingOutputStream out("out.tfrecord", 4096);
  tfrecord::RecordWriter writer(&out);
  uint64_t records = 0;
  int calls_after_error = 0;
  Status s = JsonLinesToRecords(in.get(), {}, [&](std::string_view framed, std::span<const size_t> ends) {
    if (out.failures() > 0) ++calls_after_error;
    return writer.WriteFramed(framed, ends.size());
  }, &records);
  CHECK(s.message() == "out.tfrecord: disk full (No space left on device); free some space or write elsewhere");
  CHECK(calls_after_error == 0);
}

// CSV -> records with `threads` workers; the input fails after `read_budget` bytes and the
// output after `write_budget`.
Status ConvertCsv(int threads, uint64_t read_budget, uint64_t write_budget, int* sink_calls_after_error) {
  const std::string text = CsvRows(20000);
  CsvOpener open = [&](const std::string& name) -> Result<std::unique_ptr<InputStream>> {
    return std::unique_ptr<InputStream>(std::make_unique<FailingInputStream>(name, text, read_budget));
  };
  CsvToRecordsOptions options;
  options.threads = threads;
  options.chunk_bytes = 16 << 10;  // many chunks in flight
  FailingOutputStream out("out.tfrecord", write_budget);
  CsvCallbacks cb;
  cb.sink = [&](std::string_view framed, std::span<const size_t>) {
    if (out.failures() > 0) ++*sink_calls_after_error;
    return out.Write(framed);
  };
  return CsvToRecords({"table.csv"}, open, options, cb, nullptr);
}

TEST_CASE("CSV: a read error part-way names the input, with any number of threads") {
  for (int threads : {1, 2, 4}) {
    CAPTURE(threads);
    int after = 0;
    Status s = ConvertCsv(threads, 100000, UINT64_MAX, &after);
    CHECK(s.code() == StatusCode::kIoError);
    CHECK(Contains(s.message(), "table.csv: read error at byte 100000: Input/output error"));
  }
}

TEST_CASE("CSV: a full disk stops the parallel pipeline and is the error reported") {
  for (int threads : {1, 2, 4}) {
    CAPTURE(threads);
    int after = 0;
    Status s = ConvertCsv(threads, UINT64_MAX, 50000, &after);
    CHECK(s.message() == "out.tfrecord: disk full (No space left on device); free some space or write elsewhere");
    CHECK(after == 0);  // the sink is not called again after its error
  }
}

TEST_CASE("TFRecord -> CSV: a full disk and a bad input sector are reported as such") {
  std::string framed;
  for (int i = 0; i < 2000; ++i) {
    Example e;
    e.features = {{"id", Feature::Int64s({i})}, {"name", Feature::Bytes({"n" + std::to_string(i)})}};
    std::string record;
    SerializeExample(e, &record);
    tfrecord::AppendFramedRecord(record, &framed);
  }
  RecordsToCsvOptions options;
  options.columns = {"id", "name"};  // one pass
  uint64_t read_budget = UINT64_MAX;
  RecordOpener open = [&](const std::string& name) -> Result<std::unique_ptr<tfrecord::RecordReader>> {
    return std::make_unique<tfrecord::RecordReader>(
        std::make_unique<FailingInputStream>(name, framed, read_budget), tfrecord::RecordReaderOptions{});
  };
  SUBCASE("disk full") {
    FailingOutputStream out("out.csv", 1000);
    uint64_t rows = 0;
    Status s = RecordsToCsv({"in.tfrecord"}, open, options, [&](std::string_view t, uint64_t) { return out.Write(t); }, &rows);
    // Written in blocks: the error shows in a Write or, for the last block, only in Close.
    if (s.ok()) s = out.Close();
    CHECK(s.message() == "out.csv: disk full (No space left on device); free some space or write elsewhere");
  }
  SUBCASE("read error") {
    read_budget = framed.size() / 3;
    FailingOutputStream out("out.csv", UINT64_MAX);
    uint64_t rows = 0;
    Status s = RecordsToCsv({"in.tfrecord"}, open, options, [&](std::string_view t, uint64_t) { return out.Write(t); }, &rows);
    CHECK(s.code() == StatusCode::kIoError);
    CHECK(Contains(s.message(), "in.tfrecord"));
    CHECK(Contains(s.message(), "Input/output error"));
    CHECK(rows < 2000);
  }
}

}  // namespace
}  // namespace tfq
