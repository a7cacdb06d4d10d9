// The chunker: cuts at every possible byte offset give the rows, row numbers and lines of a
// single chunk; chunks parsed independently reassemble to the same rows; and the bit-mask parser
// agrees with a byte-at-a-time reference on random inputs.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "csv/chunker.h"
#include "csv/parser.h"
#include "csv_test_util.h"
#include "reference_parser.h"

namespace tfq::csv {
namespace {

using testing::MemoryStream;
using testing::ParseAll;
using testing::ParseResult;

// Quotes with delimiters, doubled quotes and every kind of line break inside, CRLF and lone CR
// terminators, blank lines (LF and CRLF), empty quoted fields and a last line without terminator.
const char kTricky[] =
    "id,text,n\r\n"
    "1,\"a,b\",x\r\n"
    "\r\n"
    "2,\"say \"\"hi\"\"\r\nnext\",\"\"\n"
    "\n"
    "3,\"\n\r\n\r\",\"\"\"\"\r"
    "4,plain,\"\"\"a\"\",\"\"b\"\"\"\n"
    "5,,\n"
    "6,\"\",last";

TEST_CASE("every target size and stream granule gives the rows of one chunk") {
  const std::string text = kTricky;
  const ParseResult whole = ParseAll(text, {}, ChunkerOptions{.target_bytes = 1 << 20});
  REQUIRE(whole.status.ok());
  REQUIRE(whole.chunks == 1);
  REQUIRE(whole.rows.size() == 6);
  CHECK(whole.lines == std::vector<uint64_t>{2, 4, 7, 11, 12, 13});
  CHECK(whole.row_numbers == std::vector<uint64_t>{1, 2, 3, 4, 5, 6});
  for (size_t target = 1; target <= text.size() + 1; ++target) {
    for (size_t granule : {size_t{0}, size_t{7}, ~size_t{0}}) {
      for (bool lend : {false, true}) {  // lent chunks: views that die at the next Next
        CAPTURE(target);
        CAPTURE(granule);
        CAPTURE(lend);
        const ParseResult r =
            ParseAll(text, {}, ChunkerOptions{.target_bytes = target}, granule, lend);
        REQUIRE(r.status.ok());
        CHECK(r.header == whole.header);
        CHECK(r.rows == whole.rows);
        CHECK(r.lines == whole.lines);
        CHECK(r.row_numbers == whole.row_numbers);
      }
    }
  }
}

TEST_CASE("chunks end at record ends outside quotes, never inside a CRLF") {
  const std::string text = kTricky;
  for (size_t target = 1; target <= text.size(); ++target) {
    MemoryStream stream(text);
    Chunker chunker(&stream, ParseOptions{}, ChunkerOptions{.target_bytes = target});
    Chunk chunk;
    uint64_t offset = 0;
    for (;;) {
      bool done = false;
      REQUIRE(chunker.Next(&chunk, &done).ok());
      if (done) break;
      CHECK(chunk.first_byte == offset);
      offset += chunk.bytes.size();
      // Reference state at the cut: outside quotes, and not between CR and LF.
      const auto ref = testing::ReferenceParse(text.substr(0, offset), ',', true);
      CHECK(ref.error.empty());
      if (offset < text.size()) {
        CHECK((text[offset - 1] == '\n' || text[offset - 1] == '\r'));
        CHECK(!(text[offset - 1] == '\r' && text[offset] == '\n'));
      }
      CHECK(chunk.first_line == 1 + CountLineEnds(std::string_view(text).substr(
                                        0, chunk.first_byte)));
    }
    CHECK(offset == text.size());
  }
}

TEST_CASE("chunks parsed out of order by separate parsers reassemble in input order") {
  std::string text = "k,v\n";
  for (int i = 0; i < 500; ++i) {
    text += std::to_string(i) + ",\"line " + std::to_string(i) + "\n\"\"q\"\"\"\n";
  }
  MemoryStream stream(text);
  Chunker chunker(&stream, ParseOptions{}, ChunkerOptions{.target_bytes = 300});
  std::vector<Chunk> chunks;
  for (;;) {
    Chunk c;
    bool done = false;
    REQUIRE(chunker.Next(&c, &done).ok());
    if (done) break;
    chunks.push_back(std::move(c));
  }
  REQUIRE(chunks.size() > 20);
  // Chunk 0 first (it holds the header), then the others in reverse, each with its own parser.
  ChunkParser first(ParseOptions{});
  RowBatch batch;
  REQUIRE(first.Parse(chunks[0], &batch).ok());
  std::vector<std::vector<std::string>> per_chunk(chunks.size());
  for (size_t i = 0; i < batch.num_rows(); ++i) per_chunk[0].emplace_back(batch.row(i)[1]);
  for (size_t c = chunks.size() - 1; c >= 1; --c) {
    ChunkParser parser(ParseOptions{});
    parser.SetColumnNames(first.column_names());
    REQUIRE(parser.Parse(chunks[c], &batch).ok());
    for (size_t i = 0; i < batch.num_rows(); ++i) {
      CHECK(batch.RowNumber(i) == std::stoull(std::string(batch.row(i)[0])) + 1);
      CHECK(batch.RowLine(i) == 2 + 2 * std::stoull(std::string(batch.row(i)[0])));
      per_chunk[c].emplace_back(batch.row(i)[1]);
    }
  }
  size_t n = 0;
  for (const auto& rows : per_chunk) {
    for (const auto& v : rows) CHECK(v == "line " + std::to_string(n++) + "\n\"q\"");
  }
  CHECK(n == 500);
}

TEST_CASE("a record longer than the limit is an error naming the open quote") {
  std::string text = "a,b\n1,2\n3,\"" + std::string(5000, 'x') + "\n";
  MemoryStream stream(text);
  Chunker chunker(&stream, ParseOptions{},
                  ChunkerOptions{.target_bytes = 64, .max_record_bytes = 1024});
  Chunk chunk;
  bool done = false;
  REQUIRE(chunker.Next(&chunk, &done).ok());
  CHECK(chunk.bytes == "a,b\n1,2\n");
  const Status s = chunker.Next(&chunk, &done);
  CHECK(s.code() == StatusCode::kResourceExhausted);
  CHECK(s.message() == "test.csv: line 3: the quote at line 3 is not closed within 1024 bytes, the limit that bounds memory; raise it with --max-row-size if the file is genuine");

  MemoryStream stream2("a\n" + std::string(5000, 'x'));
  Chunker chunker2(&stream2, ParseOptions{}, ChunkerOptions{.target_bytes = 64, .max_record_bytes = 256});
  REQUIRE(chunker2.Next(&chunk, &done).ok());
  CHECK(chunker2.Next(&chunk, &done).message() == "test.csv: line 2: a record longer than 256 bytes, the limit that bounds memory; raise it with --max-row-size if the file is genuine");
  // The last record may be longer than the target: the stream's end is a record end.
  MemoryStream stream3("a\n" + std::string(200, 'x'));
  Chunker chunker3(&stream3, ParseOptions{}, ChunkerOptions{.target_bytes = 64, .max_record_bytes = 256});
  REQUIRE(chunker3.Next(&chunk, &done).ok());
  REQUIRE(chunker3.Next(&chunk, &done).ok());
  CHECK(chunk.bytes.size() == 200);
}

TEST_CASE("a record longer than the target is gathered a piece at a time, held once") {
  // A quoted field of 5000 bytes with line breaks (CRLF too, so that some piece ends in a CR),
  // then short rows: the stream is never asked for more than the target, so its buffer stays
  // small, and the long record is one chunk of its own bytes.
  std::string field;
  for (int i = 0; i < 500; ++i) field += i % 3 == 0 ? "abcdefg\r\n" : "abcdefgh\n";
  const std::string long_record = "2,\"" + field + "\"\r\n";
  const std::string text = "a,b\n1,x\n" + long_record + "3,y\n4,z";
  for (size_t granule : {size_t{0}, size_t{7}, ~size_t{0}}) {
    for (bool lend : {false, true}) {
      CAPTURE(granule);
      CAPTURE(lend);
      MemoryStream stream(text, granule);
      Chunker chunker(&stream, ParseOptions{}, ChunkerOptions{.target_bytes = 64, .max_record_bytes = 8192});
      chunker.Lend(lend);
      std::string joined;
      size_t long_chunks = 0;
      Chunk chunk;
      for (;;) {
        bool done = false;
        REQUIRE(chunker.Next(&chunk, &done).ok());
        if (done) break;
        CHECK(chunk.first_byte == joined.size());
        CHECK(chunk.first_line == 1 + CountLineEnds(joined));
        if (chunk.data().size() > 64) {
          ++long_chunks;
          CHECK(chunk.data().substr(0, long_record.size()) == long_record);
          CHECK(!chunk.lent);  // a copy: the stream no longer holds it
        }
        joined += chunk.data();
      }
      CHECK(joined == text);
      CHECK(long_chunks == 1);
      CHECK(stream.largest_peek() <= 64);
    }
  }
  // The limit holds for the gathered record as it did for a buffered one.
  MemoryStream stream(text);
  Chunker chunker(&stream, ParseOptions{}, ChunkerOptions{.target_bytes = 64, .max_record_bytes = 4096});
  Chunk chunk;
  bool done = false;
  REQUIRE(chunker.Next(&chunk, &done).ok());
  CHECK(chunker.Next(&chunk, &done).message() == "test.csv: line 3: the quote at line 3 is not closed within 4096 bytes, the limit that bounds memory; raise it with --max-row-size if the file is genuine");
}

// Up to 300 bytes drawn from the alphabet: mostly invalid once quotes are frequent.
std::string RandomBytes(std::mt19937& rng, const char* alphabet, size_t n) {
  std::string text(rng() % 300, ' ');
  for (char& c : text) c = alphabet[rng() % n];
  return text;
}

// Valid CSV: random fields from the alphabet, quoted (with quotes doubled) when they must be or
// by chance, rows of 1-4 fields, LF, CRLF or CR terminators, blank lines, sometimes no final
// terminator.
std::string RandomValidCsv(std::mt19937& rng, const char* alphabet, size_t n) {
  const char* terminators[] = {"\n", "\r\n", "\r"};
  std::string text;
  const size_t rows = rng() % 8;
  for (size_t r = 0; r < rows; ++r) {
    const size_t fields = 1 + rng() % 4;
    for (size_t f = 0; f < fields; ++f) {
      if (f > 0) text += ',';
      std::string value(rng() % 12, ' ');
      for (char& c : value) c = alphabet[rng() % n];
      const bool special = value.find_first_of(",\"\r\n") != std::string::npos;
      if (special || rng() % 4 == 0) {
        text += '"';
        for (char c : value) text += c == '"' ? std::string("\"\"") : std::string(1, c);
        text += '"';
      } else {
        text += value;
      }
    }
    if (r + 1 < rows || rng() % 2) text += terminators[rng() % 3];
    if (rng() % 5 == 0) text += terminators[rng() % 3];  // a blank line
  }
  return text;
}

TEST_CASE("random inputs: bit-mask parser and chunker agree with the reference parser") {
  std::mt19937 rng(4180);
  const char alphabet[] = {'a', 'b', ',', ',', '"', '"', '\n', '\r', ' ', 'x'};
  ParseOptions options;
  options.header = false;
  options.ragged = RaggedPolicy::kSkip;
  int valid = 0;
  int invalid = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string text = iter % 2 ? RandomBytes(rng, alphabet, sizeof(alphabet))
                                : RandomValidCsv(rng, alphabet, sizeof(alphabet));
    const auto ref = testing::ReferenceParse(text, ',', true);
    // The reference keeps every record; kSkip drops those whose count differs from the first.
    testing::Rows expected;
    for (const auto& rec : ref.records) {
      if (rec.size() == ref.records.front().size()) expected.push_back(rec);
    }
    const size_t target = 1 + rng() % 200;
    const ParseResult r = ParseAll(text, options, ChunkerOptions{.target_bytes = target});
    CAPTURE(text);
    CAPTURE(target);
    REQUIRE(r.status.code() != StatusCode::kResourceExhausted);
    CHECK(r.rows == expected);
    CHECK(r.status.ok() == ref.error.empty());
    (ref.error.empty() ? valid : invalid)++;
    if (!ref.error.empty() && !r.status.ok()) {
      const std::string line = "line " + std::to_string(
          1 + CountLineEnds(std::string_view(text).substr(0, ref.error_offset))) + " ";
      CHECK(r.status.message().find(line) != std::string::npos);
      const char* what = ref.error == "unquoted" ? "quote inside an unquoted field"
                          : ref.error == "closing" ? "text after the closing quote"
                                                   : "never closed";
      CHECK(r.status.message().find(what) != std::string::npos);
    }
  }
  CHECK(valid > 1000);  // the alphabet makes both outcomes common
  CHECK(invalid > 1000);
}

}  // namespace
}  // namespace tfq::csv
