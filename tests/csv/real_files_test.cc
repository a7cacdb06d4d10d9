// The real tables in ../shared/csv (see its PROVENANCE.md): records, fields and field bytes equal
// what Python's csv module reads, checked with a CRC over every field; then the schema inferred
// from the first 1000 rows converts every row. Skipped when ../shared is absent.
//
// Expected values, computed once with /usr/bin/python3 (csv.reader(f, strict=True), f opened with
// newline='' and encoding='utf-8', blank rows dropped; the header counts as a record):
//   crc = 0; for row in rows: for x in row: crc = zlib.crc32(x.encode() + b'\0', crc)
//            crc = zlib.crc32(b'\1', crc)
#include <doctest/doctest.h>
#include <zlib.h>

#include <string>

#include "common/test_env.h"
#include "csv/converter.h"
#include "csv/infer.h"
#include "csv/parser.h"
#include "csv/schema.h"
#include "csv_test_util.h"

namespace tfq::csv {
namespace {

struct Expected {
  const char* file;
  size_t records;
  size_t fields;
  size_t field_bytes;
  uint32_t crc;
};

const Expected kFiles[] = {
    {"mayweather-mcgregor-tweets.csv", 12119, 84833, 2204219, 0x23d0ac9cu},
    {"marvel-wikia-data.csv", 16377, 212901, 2193517, 0x04b6eecau},
    {"zipcodes.csv", 42050, 252300, 1766088, 0xd4f21487u},
    {"airports.csv", 3377, 23639, 186704, 0x139b27abu},
    {"seattle-weather.csv", 1462, 8772, 39447, 0x5f5ca483u},
};

uint32_t Crc(uint32_t crc, std::string_view bytes) {
  return static_cast<uint32_t>(
      crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

struct Tally {
  size_t records = 0;
  size_t fields = 0;
  size_t bytes = 0;
  uint32_t crc = 0;
  void Add(std::span<const std::string_view> row) {
    ++records;
    for (std::string_view f : row) {
      ++fields;
      bytes += f.size();
      crc = Crc(Crc(crc, f), std::string_view("\0", 1));
    }
    crc = Crc(crc, "\1");
  }
};

TEST_CASE("real files: what Python's csv module reads, then inferred-schema conversion" * doctest::test_suite("shared")) {
  const std::string shared = tfq::testing::SharedDir();
  REQUIRE_MESSAGE(!shared.empty(), "../shared is absent");
  for (const Expected& e : kFiles) {
    CAPTURE(e.file);
    const std::string text = tfq::testing::ReadFileOrDie(shared + "/csv/" + e.file);
    // Small chunks, so that quoted newlines land on chunk boundaries too.
    testing::MemoryStream stream(text, ~size_t{0}, e.file);
    Chunker chunker(&stream, ParseOptions{}, ChunkerOptions{.target_bytes = 64 << 10});
    ChunkParser parser(ParseOptions{});
    Chunk chunk;
    RowBatch batch;
    Tally tally;
    std::vector<std::string> names;
    std::optional<SchemaInferrer> inferrer;
    std::optional<RowConverter> converter;
    std::vector<Chunk> held;  // chunks read while inferring, converted afterwards
    size_t converted = 0;
    for (;;) {
      bool done = false;
      REQUIRE(chunker.Next(&chunk, &done).ok());
      if (done) break;
      Status s = parser.Parse(chunk, &batch);
      REQUIRE_MESSAGE(s.ok(), s.ToString());
      if (batch.has_header()) {
        tally.Add(batch.header());
        Result<std::vector<std::string>> n = ColumnNamesFromHeader(batch.header(), e.file);
        REQUIRE(n.ok());
        names = *n;
        inferrer.emplace(names, Schema{}, NaMatcher());
      }
      for (size_t i = 0; i < batch.num_rows(); ++i) tally.Add(batch.row(i));
      if (!converter) {
        inferrer->AddBatch(batch, 0, 1000);
        held.push_back(chunk);
        if (inferrer->rows() < 1000) continue;
        Result<Schema> schema = inferrer->Finish();
        REQUIRE(schema.ok());
        Result<RowConverter> c = RowConverter::Make(*schema, names, NaMatcher());
        REQUIRE(c.ok());
        converter.emplace(std::move(*c));
        ChunkParser again(ParseOptions{});
        again.SetColumnNames(names);
        for (const Chunk& h : held) {
          RowBatch b;
          REQUIRE(again.Parse(h, &b).ok());
          for (size_t i = 0; i < b.num_rows(); ++i, ++converted) {
            Status cs = converter->Convert(b, i);
            REQUIRE_MESSAGE(cs.ok(), cs.ToString());
          }
        }
        continue;
      }
      for (size_t i = 0; i < batch.num_rows(); ++i, ++converted) {
        Status cs = converter->Convert(batch, i);
        REQUIRE_MESSAGE(cs.ok(), cs.ToString());
      }
    }
    CHECK(tally.records == e.records);
    CHECK(tally.fields == e.fields);
    CHECK(tally.bytes == e.field_bytes);
    CHECK(tally.crc == e.crc);
    CHECK(converted == e.records - 1);
  }
}

TEST_CASE("real files: inferred kinds of the telling columns" * doctest::test_suite("shared")) {
  const std::string shared = tfq::testing::SharedDir();
  REQUIRE_MESSAGE(!shared.empty(), "../shared is absent");
  auto infer = [&](const char* file) {
    const std::string text = tfq::testing::ReadFileOrDie(shared + "/csv/" + file);
    ChunkParser parser(ParseOptions{});
    RowBatch batch;
    REQUIRE(parser.Parse(text, ChunkPosition{file}, &batch).ok());
    SchemaInferrer inferrer(parser.column_names(), Schema{}, NaMatcher());
    inferrer.AddBatch(batch, 0, ~uint64_t{0});
    Result<Schema> s = inferrer.Finish();
    REQUIRE(s.ok());
    return *s;
  };
  const Schema zip = infer("zipcodes.csv");
  CHECK(zip.Find("zip_code")->kind == ColumnKind::kBytes);  // 00501 keeps its zeros
  CHECK(zip.Find("latitude")->kind == ColumnKind::kFloat);
  const Schema tweets = infer("mayweather-mcgregor-tweets.csv");
  CHECK(tweets.Find("id")->kind == ColumnKind::kInt64);  // > 2^53, exact
  CHECK(tweets.Find("emojis")->kind == ColumnKind::kBytes);  // True/False
  const Schema marvel = infer("marvel-wikia-data.csv");
  CHECK(marvel.Find("APPEARANCES")->kind == ColumnKind::kInt64);  // gaps are missing values
  CHECK(marvel.Find("Year")->kind == ColumnKind::kInt64);
  CHECK(marvel.Find("GSM")->kind == ColumnKind::kBytes);
}

}  // namespace
}  // namespace tfq::csv
