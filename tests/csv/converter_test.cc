// Row conversion: kinds, the missing-value policy (default, required, empty list), NA strings,
// list columns, and errors naming line, row and column.
#include <doctest/doctest.h>

#include <string>

#include "csv/converter.h"
#include "csv/parser.h"

namespace tfq::csv {
namespace {

struct Fixture {
  explicit Fixture(const std::string& csv) : text(csv) {
    REQUIRE(parser.Parse(text, ChunkPosition{"t.csv"}, &batch).ok());
  }
  RowConverter Make(const Schema& schema, NaMatcher na = NaMatcher()) {
    Result<RowConverter> c = RowConverter::Make(schema, parser.column_names(), std::move(na));
    REQUIRE_MESSAGE(c.ok(), c.status().ToString());
    return std::move(c).value();
  }
  std::string text;
  ChunkParser parser{ParseOptions{}};
  RowBatch batch;
};

std::vector<std::string> Strings(std::span<const std::string_view> v) {
  return {v.begin(), v.end()};
}

TEST_CASE("kinds, selected columns in schema order") {
  Fixture f("a,b,c\n1,2.5,x\n");
  Schema s;
  s.columns.push_back({"c", ColumnKind::kBytes});
  s.columns.push_back({"a", ColumnKind::kInt64});
  s.columns.push_back({"b", ColumnKind::kFloat});
  RowConverter conv = f.Make(s);
  REQUIRE(conv.Convert(f.batch, 0).ok());
  CHECK(conv.num_columns() == 3);
  CHECK(Strings(conv.bytes(0)) == std::vector<std::string>{"x"});
  CHECK(std::vector<int64_t>(conv.int64s(1).begin(), conv.int64s(1).end()) ==
        std::vector<int64_t>{1});
  CHECK(conv.floats(2).size() == 1);
  CHECK(conv.floats(2)[0] == 2.5f);
  CHECK(conv.int64s(0).empty());
}

TEST_CASE("missing values: default, required, else an empty list") {
  Fixture f("a,b,c,d\n,NA,,\n");
  Schema s;
  s.columns.push_back({"a", ColumnKind::kInt64, 0, "7"});
  s.columns.push_back({"b", ColumnKind::kFloat});
  s.columns.push_back({"c", ColumnKind::kBytes});
  s.columns.push_back({"d", ColumnKind::kInt64, ',', "1,2"});
  RowConverter conv = f.Make(s, NaMatcher({"NA"}));
  REQUIRE(conv.Convert(f.batch, 0).ok());
  REQUIRE(conv.int64s(0).size() == 1);
  CHECK(conv.int64s(0)[0] == 7);
  CHECK(conv.floats(1).empty());
  CHECK(conv.bytes(2).empty());
  CHECK(conv.int64s(3).size() == 2);

  Schema req;
  req.columns.push_back({"b", ColumnKind::kFloat, 0, std::nullopt, true});
  RowConverter r = f.Make(req, NaMatcher({"NA"}));
  CHECK(r.Convert(f.batch, 0).message() ==
        "t.csv: line 2 (row 1), column 2 \"b\": \"NA\" (an NA value) in a required column");
  req.columns[0] = ColumnSpec("a", ColumnKind::kFloat, 0, std::nullopt, true);
  RowConverter r2 = f.Make(req);
  CHECK(r2.Convert(f.batch, 0).message() ==
        "t.csv: line 2 (row 1), column 1 \"a\": empty in a required column");
  req.columns[0].default_value = "1.5";  // a default wins over required
  RowConverter r3 = f.Make(req);
  CHECK(r3.Convert(f.batch, 0).ok());
}

TEST_CASE("list columns") {
  Fixture f("t,n\na;;b,1|2|-3\n\"x,y\",\n");
  Schema s;
  s.columns.push_back({"t", ColumnKind::kBytes, ';'});
  s.columns.push_back({"n", ColumnKind::kInt64, '|'});
  RowConverter conv = f.Make(s);
  REQUIRE(conv.Convert(f.batch, 0).ok());
  CHECK(Strings(conv.bytes(0)) == std::vector<std::string>{"a", "", "b"});
  CHECK(std::vector<int64_t>(conv.int64s(1).begin(), conv.int64s(1).end()) ==
        std::vector<int64_t>{1, 2, -3});
  REQUIRE(conv.Convert(f.batch, 1).ok());
  CHECK(Strings(conv.bytes(0)) == std::vector<std::string>{"x,y"});
  CHECK(conv.int64s(1).empty());

  Fixture g("n\n1||2\n");
  Schema t;
  t.columns.push_back({"n", ColumnKind::kInt64, '|'});
  RowConverter c2 = g.Make(t);
  CHECK(c2.Convert(g.batch, 0).message() ==
        "t.csv: line 2 (row 1), column 1 \"n\": list element \"\" is not an int64");
}

TEST_CASE("a value contradicting the column's kind names line, row and column") {
  Fixture f("id,zip,v\n1,00501,1.5\n\n\"2\",01234,1e39\n003,x,1\n");
  Schema s;
  s.columns.push_back({"id", ColumnKind::kInt64});
  s.columns.push_back({"v", ColumnKind::kFloat});
  RowConverter conv = f.Make(s);
  CHECK(conv.Convert(f.batch, 0).ok());
  CHECK(conv.Convert(f.batch, 1).message() ==
        "t.csv: line 4 (row 2), column 3 \"v\": \"1e39\" is beyond the float32 range");
  CHECK(conv.Convert(f.batch, 2).message() ==
        "t.csv: line 5 (row 3), column 1 \"id\": \"003\" is not an int64");
  Schema z;
  z.columns.push_back({"zip", ColumnKind::kFloat});
  RowConverter cz = f.Make(z);
  CHECK(cz.Convert(f.batch, 0).message() ==
        "t.csv: line 2 (row 1), column 2 \"zip\": \"00501\" is not a float");
}

TEST_CASE("schema columns must exist; padded fields are missing values") {
  Fixture f("a\n1\n");
  Schema s;
  s.columns.push_back({"b", ColumnKind::kInt64});
  CHECK(RowConverter::Make(s, f.parser.column_names(), NaMatcher()).status().message() ==
        "the schema names a column \"b\" that the CSV header does not have");

  ParseOptions pad;
  pad.ragged = RaggedPolicy::kPad;
  ChunkParser parser(pad);
  RowBatch batch;
  REQUIRE(parser.Parse("a,b\n1\n", ChunkPosition{"t.csv"}, &batch).ok());
  Schema t;
  t.columns.push_back({"b", ColumnKind::kInt64, 0, "-1"});
  Result<RowConverter> conv = RowConverter::Make(t, parser.column_names(), NaMatcher());
  REQUIRE(conv.ok());
  REQUIRE(conv->Convert(batch, 0).ok());
  CHECK(conv->int64s(0)[0] == -1);
}

}  // namespace
}  // namespace tfq::csv
