// CSV -> framed records: determinism across thread counts and chunk sizes, read as a stream or
// cut by the workers (ranges of a file), the first error in input order with the message a
// serial run gives, schema handling (inference, label, select, infer-all), several inputs.
#include "convert/csv_to_records.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "example/example_view.h"
#include "common/random.h"
#include "common/test_env.h"
#include "io/file_streams.h"
#include "io/random_access_file.h"
#include "tfrecord/record_reader.h"

namespace tfq {
namespace {

struct Output {
  Status status;
  std::string framed;
  size_t records = 0;
  std::string schema;
  CsvProgress progress;
};

// How the inputs are read: as streams, or (with more than one thread) as files the workers cut.
enum class Reading { kStream, kRanges };

Output ConvertCsv(const std::map<std::string, std::string>& files, std::vector<std::string> inputs,
               CsvToRecordsOptions options, Reading reading = Reading::kStream) {
  CsvOpener open = [&](const std::string& name) -> Result<std::unique_ptr<InputStream>> {
    auto it = files.find(name);
    if (it == files.end()) return Status::NotFound(name);
    return NewMemoryInputStream(name, it->second);
  };
  Output out;
  CsvCallbacks cb;
  cb.on_schema = [&](const csv::Schema& s) {
    out.schema = csv::SchemaToJson(s);
    return Status::OK();
  };
  cb.sink = [&](std::string_view framed, std::span<const size_t> ends) {
    CHECK(ends.back() == framed.size());
    out.framed.append(framed);
    out.records += ends.size();
    return Status::OK();
  };
  if (reading == Reading::kRanges) {
    cb.open_ranges = [&](const std::string& name) -> Result<std::unique_ptr<RandomAccessFile>> {
      return NewMemoryRandomAccessFile(name, files.at(name));
    };
  }
  out.status = CsvToRecords(inputs, open, options, cb, &out.progress);
  return out;
}

Output ConvertCsv(const std::string& csv, CsvToRecordsOptions options, Reading reading = Reading::kStream) {
  return ConvertCsv({{"t.csv", csv}}, {"t.csv"}, std::move(options), reading);
}

std::vector<std::string> Records(const std::string& framed) {
  tfrecord::RecordReader reader(NewMemoryInputStream("out", framed), {});
  std::vector<std::string> records;
  std::string_view r;
  while (reader.Read(&r)) records.emplace_back(r);
  REQUIRE(reader.status().ok());
  return records;
}

std::string BigTable(int rows) {
  std::string csv = "id,name,score,note\n";
  for (int i = 0; i < rows; ++i) {
    csv += std::to_string(i) + ",n" + std::to_string(i % 7) + "," + std::to_string(i % 13) + ".5," +
           (i % 5 == 0 ? "\"multi\nline, \"\"quoted\"\"\"" : "") + "\n";
  }
  return csv;
}

}  // namespace

TEST_CASE("the bytes do not depend on thread count or chunk size") {
  const std::string csv = BigTable(3000);
  CsvToRecordsOptions o;
  o.threads = 1;
  const Output one = ConvertCsv(csv, o);
  REQUIRE(one.status.ok());
  CHECK(one.records == 3000);
  CHECK(one.progress.rows == 3000);
  for (Reading reading : {Reading::kStream, Reading::kRanges}) {
    for (int threads : {1, 2, 4}) {
      for (size_t chunk : {size_t{64}, size_t{1000}, size_t{1} << 20}) {
        o.threads = threads;
        o.chunk_bytes = chunk;
        const Output other = ConvertCsv(csv, o, reading);
        REQUIRE(other.status.ok());
        CHECK(other.framed == one.framed);
        CHECK(other.progress.rows == 3000);
      }
    }
  }
  const std::vector<std::string> records = Records(one.framed);
  REQUIRE(records.size() == 3000);
  ExampleView view;
  REQUIRE(view.Parse(records[5]).ok());
  std::vector<std::string_view> note;
  REQUIRE(view.features().Find("note")->AppendBytes(&note).ok());
  CHECK(note == std::vector<std::string_view>{"multi\nline, \"quoted\""});
  std::vector<float> score;
  REQUIRE(view.features().Find("score")->AppendFloats(&score).ok());
  CHECK(score == std::vector<float>{5.5f});
}

TEST_CASE("rows longer than a chunk: converted one at a time, the same bytes") {
  // Long rows (gathered by the chunker into chunks of their own, then converted and written
  // before the next is read) among short ones, in the rows held for inference and after.
  std::string csv = BigTable(3000);
  for (int at : {2, 900, 2500, 2501}) {
    const size_t row = csv.find("\n" + std::to_string(at) + ",") + 1;
    const size_t note = csv.find('\n', row);
    csv.insert(note, std::string(size_t{3} << 20, 'a' + at % 26));
  }
  CsvToRecordsOptions o;
  o.threads = 1;
  o.chunk_bytes = size_t{8} << 20;  // every row fits in a chunk
  const Output whole = ConvertCsv(csv, o);
  REQUIRE(whole.status.ok());
  CHECK(whole.records == 3000);
  // Cut by the workers, a long row is more than they read ahead: the serial reader takes over
  // from its chunk on.
  for (Reading reading : {Reading::kStream, Reading::kRanges}) {
    for (int threads : {1, 2, 4}) {
      for (size_t chunk : {size_t{1000}, size_t{1} << 20}) {
        o.threads = threads;
        o.chunk_bytes = chunk;
        const Output other = ConvertCsv(csv, o, reading);
        REQUIRE(other.status.ok());
        CHECK(other.framed == whole.framed);
        CHECK(other.progress.rows == 3000);
      }
    }
  }
}

TEST_CASE("the first error in input order is reported, whatever the threads") {
  std::string csv = BigTable(2000);
  // Row 1500 breaks its int64 column; row 1900 has a quote in an unquoted field.
  const size_t at1500 = csv.find("\n1500,") + 1;
  csv.replace(at1500, 4, "15x0");
  const size_t at1900 = csv.find("\n1900,") + 1;
  csv.replace(at1900, 4, "19\"0");
  for (Reading reading : {Reading::kStream, Reading::kRanges}) {
    for (int threads : {1, 3}) {
      CsvToRecordsOptions o;
      o.threads = threads;
      o.chunk_bytes = 200;
      const Output out = ConvertCsv(csv, o, reading);
      CHECK(out.status.code() == StatusCode::kInvalidData);
      // Line 1802: the header, then rows 0-1499 of which every fifth takes two lines.
      CHECK(out.status.message() == "t.csv: line 1802 (row 1501), column 1 \"id\": \"15x0\" is not an int64");
      CHECK(out.records <= 1500);
    }
  }
}

TEST_CASE("a bad value before a record the parser rejects is the error, however the chunks fall") {
  // Row 6 holds a value its int64 column cannot take; row 7 has a field too many. Whether or not
  // a chunk holds both, the first failure in input order is row 6's.
  const std::string csv = "a,b\n1,2\n3,4\n5,6\n7,8\n9,10\nx,12\n13,14,15\n16,17\n";
  for (Reading reading : {Reading::kStream, Reading::kRanges}) {
    for (size_t chunk = 1; chunk <= 80; ++chunk) {
      CsvToRecordsOptions o;
      o.threads = reading == Reading::kRanges ? 2 : 1;
      o.infer_rows = 3;
      o.chunk_bytes = chunk;
      CAPTURE(chunk);
      const Output out = ConvertCsv(csv, o, reading);
      CHECK(out.status.message() == "t.csv: line 7 (row 6), column 1 \"a\": \"x\" is not an int64");
    }
  }
}

// Random tables with random faults: cut by the workers, the same records and the same first
// error, word for word, as one thread reading a stream.
TEST_CASE("cut by the workers: the records and the error of a serial run") {
  Xoshiro256 rng(1127);
  static constexpr const char* kFaults[] = {"x", "\"", "1,2,3,4,5", "\"open", "\r", "\r\n", "\n\n", ""};
  for (int iter = 0; iter < 300; ++iter) {
    std::string csv = BigTable(50 + static_cast<int>(rng.Below(400)));
    for (size_t n = rng.Below(3); n > 0; --n) {
      csv.insert(rng.Below(csv.size() + 1), kFaults[rng.Below(std::size(kFaults))]);
    }
    CsvToRecordsOptions o;
    o.threads = 1;
    o.chunk_bytes = 16 + rng.Below(300);
    o.infer_rows = 1 + rng.Below(20);
    if (rng.Below(4) == 0) o.parse.ragged = csv::RaggedPolicy::kSkip;
    if (rng.Below(4) == 0) o.max_row_bytes = 60 + rng.Below(400);
    CAPTURE(csv);
    CAPTURE(o.chunk_bytes);
    const Output serial = ConvertCsv(csv, o);
    o.threads = 2 + static_cast<int>(rng.Below(3));
    const Output cut = ConvertCsv(csv, o, Reading::kRanges);
    CHECK(cut.status.code() == serial.status.code());
    CHECK(cut.status.message() == serial.status.message());
    if (serial.status.ok()) {
      CHECK(cut.framed == serial.framed);
      CHECK(cut.progress.rows == serial.progress.rows);
      CHECK(cut.progress.skipped_rows == serial.progress.skipped_rows);
    }
  }
}

TEST_CASE("schema: inference, label column, select") {
  CsvToRecordsOptions o;
  o.label_column = "y";
  o.select = {"a"};
  const Output out = ConvertCsv("a,b,y\n1,x,0\n2,,1\n", o);
  REQUIRE(out.status.ok());
  CHECK(out.schema ==
        "{\"columns\": [\n  {\"name\":\"a\",\"kind\":\"int64\"},\n"
        "  {\"name\":\"y\",\"kind\":\"int64\",\"required\":true}\n]}\n");
  const Output missing = ConvertCsv("a,y\n1,0\n2,\n", o);
  CHECK(missing.status.code() == StatusCode::kInvalidData);
  CHECK(missing.status.message() == "t.csv: line 3 (row 2), column 2 \"y\": empty in a required column");
  o.label_column = "nope";
  CHECK(ConvertCsv("a,y\n1,0\n", o).status.code() == StatusCode::kInvalidArgument);
}

TEST_CASE("--infer-rows: N rows, or all (a second pass)") {
  const std::string csv = "v\n1\n2\n2.5\n";
  CsvToRecordsOptions o;
  o.infer_rows = 2;
  const Output two = ConvertCsv(csv, o);
  CHECK(two.status.code() == StatusCode::kInvalidData);
  CHECK(two.status.message() == "t.csv: line 4 (row 3), column 1 \"v\": \"2.5\" is not an int64");
  o.infer_rows = CsvToRecordsOptions::kInferAll;
  const Output all = ConvertCsv(csv, o);
  REQUIRE(all.status.ok());
  CHECK(all.schema.find("\"kind\":\"float\"") != std::string::npos);
  CHECK(all.records == 3);
}

TEST_CASE("several inputs: one stream of records; the columns must agree") {
  CsvToRecordsOptions o;
  o.threads = 2;
  const Output out = ConvertCsv({{"a.csv", "x,y\n1,2\n"}, {"b.csv", "x,y\n3,4\n5,6\n"}},
                             {"a.csv", "b.csv"}, o);
  REQUIRE(out.status.ok());
  CHECK(out.records == 3);
  const Output bad = ConvertCsv({{"a.csv", "x,y\n1,2\n"}, {"b.csv", "x,z\n3,4\n"}}, {"a.csv", "b.csv"}, o);
  CHECK(bad.status.code() == StatusCode::kInvalidData);
  CHECK(bad.status.message().find("b.csv: line 1 (header): the columns differ") == 0);
}

TEST_CASE("no header: given names or column_N; empty input: no records") {
  CsvToRecordsOptions o;
  o.parse.header = false;
  const Output out = ConvertCsv("1,a\n2,b\n", o);
  REQUIRE(out.status.ok());
  CHECK(out.schema.find("\"column_2\"") != std::string::npos);
  CHECK(out.records == 2);
  o.column_names = {"n", "s"};
  CHECK(ConvertCsv("1,a\n", o).schema.find("\"n\"") != std::string::npos);
  const Output empty = ConvertCsv("", {});
  CHECK(empty.status.ok());
  CHECK(empty.records == 0);
  CHECK(empty.schema == "{\"columns\": [\n]}\n");
}

TEST_CASE("ragged rows: skip counts them") {
  CsvToRecordsOptions o;
  o.parse.ragged = csv::RaggedPolicy::kSkip;
  const Output out = ConvertCsv("a,b\n1,2\n3\n4,5\n", o);
  REQUIRE(out.status.ok());
  CHECK(out.records == 2);
  CHECK(out.progress.skipped_rows == 1);
  CHECK(out.progress.rows == 3);
}

TEST_CASE("limits: columns, and the chunks held while inferring") {
  CsvToRecordsOptions o;
  o.max_columns = 2;
  const Output wide = ConvertCsv("a,b,c\n1,2,3\n", o);
  CHECK(wide.status.code() == StatusCode::kResourceExhausted);
  CHECK(wide.status.message().find("t.csv: line 1: 3 columns, more than the limit of 2") == 0);
  CHECK(wide.status.message().find("--max-columns") != std::string::npos);
  // A gzip bomb of newlines must not be held whole waiting for a header or for rows to infer.
  const std::string blank(size_t{65} << 20, '\n');
  const Output no_header = ConvertCsv(blank + "v\n1\n", {});
  CHECK(no_header.status.code() == StatusCode::kInvalidData);
  CHECK(no_header.status.message().find("t.csv: no header row in the first ") == 0);
  const Output late_rows = ConvertCsv("v\n" + blank + "1\n2\n", {});
  REQUIRE(late_rows.status.ok());
  CHECK(late_rows.records == 2);
}

TEST_CASE("OpenCsvFileRanges: a regular file; a null file for what must be read as a stream") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFileOrDie(dir + "/t.csv", "a\n1\n");
  Result<std::unique_ptr<RandomAccessFile>> file = OpenCsvFileRanges(dir + "/t.csv");
  REQUIRE(file.ok());
  REQUIRE(*file != nullptr);
  CHECK((*file)->size() == 4);
  // Standard input, a compressed file, a directory, a missing file: the stream opener reads
  // them or says why.
  for (const std::string& path : {std::string("-"), dir + "/t.csv.gz", dir, dir + "/missing.csv"}) {
    CAPTURE(path);
    Result<std::unique_ptr<RandomAccessFile>> none = OpenCsvFileRanges(path);
    REQUIRE(none.ok());
    CHECK(*none == nullptr);
  }
}

}  // namespace tfq
