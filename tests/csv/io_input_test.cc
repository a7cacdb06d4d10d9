// The chunker on io's real streams: a memory-mapped file and a .csv.gz through
// NewDecompressingStream give the same rows as the bytes in memory. A binary of its own (it links
// tfq_io), so that tfq_csv_test needs nothing but the CSV core.
#include <doctest/doctest.h>
#include <zlib.h>

#include <memory>
#include <string>

#include "common/test_env.h"
#include "csv/chunker.h"
#include "csv/parser.h"
#include "csv_test_util.h"
#include "io/compression.h"
#include "io/file_streams.h"

namespace tfq::csv {
namespace {

std::string Gzip(const std::string& bytes) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, bytes.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

testing::Rows ReadRows(InputStream* in, std::string* error) {
  Chunker chunker(in, ParseOptions{}, ChunkerOptions{.target_bytes = 4096});
  ChunkParser parser(ParseOptions{});
  Chunk chunk;
  RowBatch batch;
  testing::Rows rows;
  for (;;) {
    bool done = false;
    Status s = chunker.Next(&chunk, &done);
    if (s.ok() && !done) s = parser.Parse(chunk, &batch);
    if (!s.ok()) {
      *error = s.ToString();
      return rows;
    }
    if (done) return rows;
    for (size_t i = 0; i < batch.num_rows(); ++i) rows.emplace_back(batch.row(i).begin(), batch.row(i).end());
  }
}

TEST_CASE("a file and its .csv.gz read through io's streams") {
  std::string text = "\xEF\xBB\xBFid,text\r\n";
  for (int i = 0; i < 3000; ++i) {
    text += std::to_string(i) + ",\"line\r\n" + std::to_string(i) + " \"\"q\"\"\"\r\n";
  }
  const testing::ParseResult expected = testing::ParseAll(text);
  REQUIRE(expected.status.ok());
  REQUIRE(expected.rows.size() == 3000);

  const std::string dir = tfq::testing::MakeTempDir();
  tfq::testing::WriteFileOrDie(dir + "/t.csv", text);
  tfq::testing::WriteFileOrDie(dir + "/t.csv.gz", Gzip(text));

  Result<std::unique_ptr<InputStream>> file = OpenInputFile(dir + "/t.csv");
  REQUIRE(file.ok());
  std::string error;
  CHECK(ReadRows(file->get(), &error) == expected.rows);
  CHECK(error.empty());

  Result<std::unique_ptr<InputStream>> gz = OpenInputFile(dir + "/t.csv.gz");
  REQUIRE(gz.ok());
  std::unique_ptr<InputStream> plain = NewDecompressingStream(std::move(*gz), Compression::kGzip);
  CHECK(ReadRows(plain.get(), &error) == expected.rows);
  CHECK(error.empty());

  // A truncated .csv.gz is the stream's corruption error, passed through.
  const std::string gzipped = Gzip(text);
  tfq::testing::WriteFileOrDie(dir + "/cut.csv.gz", gzipped.substr(0, gzipped.size() / 2));
  Result<std::unique_ptr<InputStream>> cut = OpenInputFile(dir + "/cut.csv.gz");
  REQUIRE(cut.ok());
  std::unique_ptr<InputStream> cut_plain = NewDecompressingStream(std::move(*cut), Compression::kGzip);
  ReadRows(cut_plain.get(), &error);
  CHECK(error.find("cut.csv.gz") != std::string::npos);
}

}  // namespace
}  // namespace tfq::csv
