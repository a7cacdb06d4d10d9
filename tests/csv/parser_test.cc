// The parser on every RFC 4180 corner, hand-written, plus the dialect's own rules (blank lines,
// ragged records, quote errors) and their messages.
#include <doctest/doctest.h>

#include <string>

#include "csv/parser.h"
#include "csv_test_util.h"

namespace tfq::csv {
namespace {

using testing::ParseAll;
using testing::ParseResult;
using testing::Rows;

ParseOptions NoHeader() {
  ParseOptions o;
  o.header = false;
  return o;
}

Rows RowsOf(const std::string& text, const ParseOptions& options = NoHeader()) {
  ParseResult r = ParseAll(text, options);
  REQUIRE_MESSAGE(r.status.ok(), r.status.ToString());
  return r.rows;
}

std::string ErrorOf(const std::string& text, const ParseOptions& options = NoHeader()) {
  ParseResult r = ParseAll(text, options);
  REQUIRE(!r.status.ok());
  CHECK(r.status.code() == StatusCode::kInvalidData);
  return r.status.message();
}

TEST_CASE("plain records, LF, CRLF, lone CR and a last line without terminator") {
  const Rows expected = {{"a", "b"}, {"1", "2"}};
  CHECK(RowsOf("a,b\n1,2\n") == expected);
  CHECK(RowsOf("a,b\n1,2") == expected);
  CHECK(RowsOf("a,b\r\n1,2\r\n") == expected);
  CHECK(RowsOf("a,b\r\n1,2") == expected);
  CHECK(RowsOf("a,b\r1,2\r") == expected);
  CHECK(RowsOf("a,b\r1,2\n") == expected);
  CHECK(RowsOf("") == Rows{});
}

TEST_CASE("empty fields and trailing delimiters") {
  CHECK(RowsOf(",,\n") == Rows{{"", "", ""}});
  CHECK(RowsOf("a,\n,b\n") == Rows{{"a", ""}, {"", "b"}});
  CHECK(RowsOf("a,") == Rows{{"a", ""}});
  CHECK(RowsOf("a,\r\n") == Rows{{"a", ""}});
}

TEST_CASE("quoted fields: delimiters, doubled quotes, line breaks inside") {
  CHECK(RowsOf("\"a,b\",c\n") == Rows{{"a,b", "c"}});
  CHECK(RowsOf("\"say \"\"hi\"\"\",x\n") == Rows{{"say \"hi\"", "x"}});
  CHECK(RowsOf("\"\"\"\"\n") == Rows{{"\""}});
  CHECK(RowsOf("\"\"\"a\"\"\",b\n") == Rows{{"\"a\"", "b"}});
  CHECK(RowsOf("\"l1\nl2\",x\n") == Rows{{"l1\nl2", "x"}});
  CHECK(RowsOf("\"l1\r\nl2\",x\r\n") == Rows{{"l1\r\nl2", "x"}});
  CHECK(RowsOf("\"l1\rl2\",x\r") == Rows{{"l1\rl2", "x"}});
  CHECK(RowsOf("\"a\",\"b\"") == Rows{{"a", "b"}});  // quoted last field, no terminator
  CHECK(RowsOf("x,\"\"\"\"") == Rows{{"x", "\""}});
}

TEST_CASE("empty quoted fields are fields, not blank lines") {
  CHECK(RowsOf("\"\",\"\"\n") == Rows{{"", ""}});
  CHECK(RowsOf("\"\"\n\"\"\n") == Rows{{""}, {""}});
  CHECK(RowsOf("\"\"") == Rows{{""}});
}

TEST_CASE("blank lines are skipped, whitespace is data") {
  CHECK(RowsOf("\n\na\n\n\r\n\rb\n\n") == Rows{{"a"}, {"b"}});
  CHECK(RowsOf("\n\n\n") == Rows{});
  CHECK(RowsOf(" a , b \n ,\t\n") == Rows{{" a ", " b "}, {" ", "\t"}});
  CHECK(RowsOf(" \n") == Rows{{" "}});
}

TEST_CASE("UTF-8 byte order mark at the start only") {
  ParseResult r = ParseAll("\xEF\xBB\xBFid,name\n1,\xEF\xBB\xBFx\n");
  REQUIRE(r.status.ok());
  CHECK(r.header == std::vector<std::string>{"id", "name"});
  CHECK(r.rows == Rows{{"1", "\xEF\xBB\xBFx"}});
  CHECK(RowsOf("\xEF\xBB\xBF") == Rows{});
  CHECK(RowsOf("\xEF\xBB") == Rows{{"\xEF\xBB"}});
}

TEST_CASE("header, row numbers and line numbers") {
  ParseResult r = ParseAll("h1,h2\n\n1,\"a\nb\"\n\n2,c\n3,\"\n\n\"\n4,d");
  REQUIRE(r.status.ok());
  CHECK(r.header == std::vector<std::string>{"h1", "h2"});
  CHECK(r.rows == Rows{{"1", "a\nb"}, {"2", "c"}, {"3", "\n\n"}, {"4", "d"}});
  CHECK(r.row_numbers == std::vector<uint64_t>{1, 2, 3, 4});
  CHECK(r.lines == std::vector<uint64_t>{3, 6, 7, 10});
}

TEST_CASE("delimiter: TSV, semicolon; quoting off") {
  ParseOptions tsv = NoHeader();
  tsv.delimiter = '\t';
  CHECK(RowsOf("a,b\tc\n\"x\ty\"\tz\n", tsv) == Rows{{"a,b", "c"}, {"x\ty", "z"}});
  ParseOptions semi = NoHeader();
  semi.delimiter = ';';
  CHECK(RowsOf("1,5;2\n", semi) == Rows{{"1,5", "2"}});
  ParseOptions raw = tsv;
  raw.quoting = false;
  CHECK(RowsOf("5'10\"\t\"x\n", raw) == Rows{{"5'10\"", "\"x"}});
  CHECK(!ValidateParseOptions(ParseOptions{.delimiter = '"'}).ok());
  CHECK(!ValidateParseOptions(ParseOptions{.delimiter = '\n'}).ok());
  CHECK(ValidateParseOptions(ParseOptions{.delimiter = '"', .quoting = false}).ok());
}

TEST_CASE("ragged records: error names file, line, row and column") {
  const std::string text = "a,b,c\n1,2,3\n4,5\n6,7,8,9\n";
  CHECK(ErrorOf(text, ParseOptions{}) ==
        "test.csv: line 3 (row 2), column 3 \"c\": missing; the record has 2 fields, 3 expected");
  CHECK(ErrorOf("a,b,c\n1,2,3\n6,7,8,9\n", ParseOptions{}) ==
        "test.csv: line 3 (row 2), column 4: extra field; the record has 4 fields, 3 expected");
  // Without a header, the first record sets the count, and the names the converter gives.
  CHECK(ErrorOf("1,2\n3\n") ==
        "test.csv: line 2 (row 2), column 2 \"column_2\": missing; the record has 1 fields, 2 expected");
  // An empty header field is named as the converter names it.
  CHECK(ErrorOf("a,,c\n1,2\n", ParseOptions{}) ==
        "test.csv: line 2 (row 1), column 3 \"c\": missing; the record has 2 fields, 3 expected");
  CHECK(ErrorOf("a,,c\n1\n", ParseOptions{}) ==
        "test.csv: line 2 (row 1), column 2 \"column_2\": missing; the record has 1 fields, 3 expected");
  // The line is the field's, in a record spanning lines.
  CHECK(ErrorOf("a,b\n\"x\ny\",1,2\n", ParseOptions{}) ==
        "test.csv: line 3 (row 1), column 3: extra field; the record has 3 fields, 2 expected");
}

TEST_CASE("ragged records: pad and skip") {
  ParseOptions pad;
  pad.ragged = RaggedPolicy::kPad;
  ParseResult r = ParseAll("a,b,c\n1\n2,3,4\n5,6,7,,\n", pad);
  REQUIRE(r.status.ok());
  CHECK(r.rows == Rows{{"1", "", ""}, {"2", "3", "4"}, {"5", "6", "7"}});
  CHECK(ErrorOf("a,b\n1,2,3\n", pad) ==
        "test.csv: line 2 (row 1), column 3: extra field; the record has 3 fields, 2 expected "
        "(padding drops only empty extra fields)");

  ParseOptions skip;
  skip.ragged = RaggedPolicy::kSkip;
  r = ParseAll("a,b\n1\n2,3\n4,5,6\n\n7,8\n", skip);
  REQUIRE(r.status.ok());
  CHECK(r.rows == Rows{{"2", "3"}, {"7", "8"}});
  CHECK(r.skipped == 2);
  CHECK(r.row_numbers == std::vector<uint64_t>{2, 4});  // skipped records keep their numbers
}

TEST_CASE("unterminated quote names where it opened") {
  CHECK(ErrorOf("a,b\n1,\"abc\n\n\nxyz", ParseOptions{}) ==
        "test.csv: line 2 (row 1), column 2 \"b\": the quote opening this field is never closed");
  CHECK(ErrorOf("\"") ==
        "test.csv: line 1 (row 1), column 1: the quote opening this field is never closed");
  CHECK(ErrorOf("\"a\"\"") ==
        "test.csv: line 1 (row 1), column 1: the quote opening this field is never closed");
}

TEST_CASE("a quote inside an unquoted field is an error") {
  CHECK(ErrorOf("id,h\n1,5'10\"\n", ParseOptions{}) ==
        "test.csv: line 2 (row 1), column 2 \"h\": quote inside an unquoted field (quote the "
        "whole field and double the quote)");
  CHECK(ErrorOf("ab\"c\"\n").find("line 1 (row 1), column 1: quote inside an unquoted") !=
        std::string::npos);
}

TEST_CASE("text after a closing quote is an error") {
  const std::string msg = "text after the closing quote of a quoted field";
  CHECK(ErrorOf("x\n\"ab\"c\n") == "test.csv: line 2 (row 2), column 1 \"column_1\": " + msg);
  CHECK(ErrorOf("x,y\n1,\"ab\" \n") == "test.csv: line 2 (row 2), column 2 \"column_2\": " + msg);
  CHECK(ErrorOf("\"ab\"c\"d\"\n") == "test.csv: line 1 (row 1), column 1: " + msg);
  CHECK(ErrorOf("\"a\nb\"c") == "test.csv: line 2 (row 1), column 1: " + msg);
}

TEST_CASE("header handling: given names, mismatching header, header only") {
  ParseOptions opt;
  ChunkParser parser(opt);
  parser.SetColumnNames({"x", "y"});
  RowBatch batch;
  Status s = parser.Parse("a,b,c\n1,2\n", ChunkPosition{"t.csv"}, &batch);
  CHECK(s.message() == "t.csv: line 1 (header): the header has 3 fields, but 2 column names were given");

  ChunkParser p2(opt);
  REQUIRE(p2.Parse("a,b\n", ChunkPosition{"t.csv"}, &batch).ok());
  CHECK(batch.num_rows() == 0);
  CHECK(p2.column_names() == std::vector<std::string>{"a", "b"});
  CHECK(p2.expected_fields() == 2);
  // A later chunk (not at record 0) has no header.
  REQUIRE(p2.Parse("1,2\n", ChunkPosition{"t.csv", 5, 3}, &batch).ok());
  CHECK(!batch.has_header());
  CHECK(batch.num_rows() == 1);
  CHECK(batch.RowNumber(0) == 3);
  CHECK(batch.RowLine(0) == 5);
  CHECK(batch.Where(0, 1, "b") == "t.csv: line 5 (row 3), column 2 \"b\"");
}

TEST_CASE("views point into the chunk unless unescaped") {
  ChunkParser parser(NoHeader());
  RowBatch batch;
  const std::string data = "abc,\"de\",\"f\"\"g\"\n";
  REQUIRE(parser.Parse(data, ChunkPosition{"t"}, &batch).ok());
  auto row = batch.row(0);
  CHECK(row[0].data() == data.data());
  CHECK(row[1].data() == data.data() + 5);
  CHECK(row[2] == "f\"g");
  CHECK((row[2].data() < data.data() || row[2].data() >= data.data() + data.size()));
}

TEST_CASE("fields and quotes crossing 64-byte blocks") {
  const std::string long_a(100, 'a');
  const std::string long_q = std::string(70, 'q') + "\"\"" + std::string(60, 'r');
  const std::string text = long_a + ",\"" + long_q + "\"\n\"" + std::string(63, ',') + "\",x\n";
  const Rows rows = RowsOf(text);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0][0] == long_a);
  CHECK(rows[0][1] == std::string(70, 'q') + "\"" + std::string(60, 'r'));
  CHECK(rows[1][0] == std::string(63, ','));
}

}  // namespace
}  // namespace tfq::csv
