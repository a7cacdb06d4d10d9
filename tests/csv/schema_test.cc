// Schema JSON (both forms, round trip, errors), selection, header names, column flags, and
// inference feeding on parsed batches with declared columns.
#include <doctest/doctest.h>

#include <string>

#include "csv/infer.h"
#include "csv/parser.h"
#include "csv/schema.h"

namespace tfq::csv {
namespace {

Schema Sample() {
  Schema s;
  s.columns.push_back({"id", ColumnKind::kInt64, 0, std::nullopt, true});
  s.columns.push_back({"price", ColumnKind::kFloat, 0, "0.1", false});
  s.columns.push_back({"tags", ColumnKind::kBytes, ';', "a;b", false});
  s.columns.push_back({"ns", ColumnKind::kInt64, '|', "1|-2", false});
  s.columns.push_back({"zip", ColumnKind::kBytes, 0, "00000", false});
  s.columns.push_back({"x", ColumnKind::kFloat, 0, "nan", false});
  return s;
}

TEST_CASE("schema JSON: the written form reads back equal") {
  const std::string json = SchemaToJson(Sample());
  CHECK(json ==
        "{\"columns\": [\n"
        "  {\"name\":\"id\",\"kind\":\"int64\",\"required\":true},\n"
        "  {\"name\":\"price\",\"kind\":\"float\",\"default\":0.1},\n"
        "  {\"name\":\"tags\",\"kind\":\"bytes\",\"list_separator\":\";\",\"default\":[\"a\",\"b\"]},\n"
        "  {\"name\":\"ns\",\"kind\":\"int64\",\"list_separator\":\"|\",\"default\":[1,-2]},\n"
        "  {\"name\":\"zip\",\"kind\":\"bytes\",\"default\":\"00000\"},\n"
        "  {\"name\":\"x\",\"kind\":\"float\",\"default\":\"nan\"}\n"
        "]}\n");
  Result<Schema> back = SchemaFromJson(json, "s.json");
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(*back == Sample());
}

TEST_CASE("schema JSON: shorthand object form keeps file order") {
  Result<Schema> s = SchemaFromJson(
      R"({"columns": {"zip": "bytes", "a": {"kind": "int64", "default": 3}, "b": "float"}})", "s");
  REQUIRE(s.ok());
  REQUIRE(s->columns.size() == 3);
  CHECK(s->columns[0].name == "zip");
  CHECK(s->columns[1] == ColumnSpec{"a", ColumnKind::kInt64, 0, "3", false});
  CHECK(s->columns[2].kind == ColumnKind::kFloat);
}

TEST_CASE("schema JSON: errors name the file and the column") {
  auto err = [](const char* json) {
    Result<Schema> s = SchemaFromJson(json, "s.json");
    REQUIRE(!s.ok());
    CHECK(s.status().code() == StatusCode::kInvalidArgument);
    return s.status().message();
  };
  CHECK(err(R"({"columns": [{"name": "a", "kind": "int"}]})") ==
        "s.json: column 1: unknown column kind \"int\" (expected int64, float or bytes)");
  CHECK(err(R"({"columns": [{"name": "a", "kind": "int64", "defualt": 1}]})").find(
            "unknown key \"defualt\"") != std::string::npos);
  CHECK(err(R"({"columns": [{"name": "a", "kind": "int64", "default": "x"}]})") ==
        "s.json: column \"a\": the default \"x\" is not an int64");
  CHECK(err(R"({"columns": [{"name": "a", "kind": "int64", "default": 1.5}]})") ==
        "s.json: column \"a\": the default \"1.5\" is not an int64");
  CHECK(err(R"({"columns": [{"name": "a", "kind": "bytes", "default": ["x"]}]})") ==
        "s.json: column 1: an array default needs a list_separator");
  CHECK(err(R"({"columns": [{"name": "a", "kind": "bytes"}, {"name": "a", "kind": "bytes"}]})") ==
        "s.json: column \"a\" is listed twice");
  CHECK(err(R"({"columns": [{"name": "a"}]})") == "s.json: column 1: \"kind\" is missing");
  CHECK(err(R"({"cols": []})") == "s.json: expected an object with one key, \"columns\"");
  CHECK(err("{\"columns\": [").rfind("s.json: [json.exception.parse_error", 0) == 0);
}

TEST_CASE("select and exclude keep schema order and reject unknown names") {
  const Schema s = Sample();
  const std::vector<std::string> select = {"zip", "id", "price"};
  const std::vector<std::string> exclude = {"price"};
  Result<Schema> out = SelectColumns(s, select, exclude);
  REQUIRE(out.ok());
  REQUIRE(out->columns.size() == 2);
  CHECK(out->columns[0].name == "id");
  CHECK(out->columns[1].name == "zip");
  const std::vector<std::string> none;
  const std::vector<std::string> bad = {"nope"};
  CHECK(SelectColumns(s, bad, none).status().message() == "no column named \"nope\" to select");
  CHECK(SelectColumns(s, none, bad).status().message() == "no column named \"nope\" to exclude");
  CHECK(SelectColumns(s, none, none)->columns.size() == s.columns.size());
}

TEST_CASE("header names: empty ones named by position, duplicates rejected") {
  const std::vector<std::string_view> header = {"", "a", "", "b"};
  Result<std::vector<std::string>> names = ColumnNamesFromHeader(header, "t.csv");
  REQUIRE(names.ok());
  CHECK(*names == std::vector<std::string>{"column_1", "a", "column_3", "b"});
  const std::vector<std::string_view> dup = {"a", "b", "a"};
  CHECK(ColumnNamesFromHeader(dup, "t.csv").status().message() ==
        "t.csv: line 1 (header), column 3: the column name \"a\" appears twice; rename one "
        "with --columns");
}

TEST_CASE("column flags") {
  Result<ColumnSpec> c = ParseColumnFlag("zip:bytes", false);
  REQUIRE(c.ok());
  CHECK(*c == ColumnSpec{"zip", ColumnKind::kBytes});
  c = ParseColumnFlag("tags:bytes:;", true);
  REQUIRE(c.ok());
  CHECK(*c == ColumnSpec{"tags", ColumnKind::kBytes, ';'});
  c = ParseColumnFlag("a:b:int64", false);  // names may hold ':'
  REQUIRE(c.ok());
  CHECK(c->name == "a:b");
  CHECK(!ParseColumnFlag("zip", false).ok());
  CHECK(!ParseColumnFlag("zip:text", false).ok());
  CHECK(!ParseColumnFlag("tags:bytes", true).ok());
  CHECK(!ParseColumnFlag("tags:bytes:\"", true).ok());
}

TEST_CASE("inference from the first N parsed rows, declared columns kept") {
  ChunkParser parser(ParseOptions{});
  RowBatch batch;
  REQUIRE(parser.Parse("zip,n,x,tags\n00501,1,1.5,a;b\n10001,2,2,c\n10002,x,y,d\n",
                       ChunkPosition{"t.csv"}, &batch).ok());
  Schema declared;
  declared.columns.push_back({"tags", ColumnKind::kBytes, ';'});
  SchemaInferrer inferrer(parser.column_names(), declared, NaMatcher());
  CHECK(inferrer.AddBatch(batch, 0, 2) == 2);  // the third row is beyond N = 2
  CHECK(inferrer.rows() == 2);
  Result<Schema> s = inferrer.Finish();
  REQUIRE(s.ok());
  CHECK(SchemaToJson(*s) ==
        "{\"columns\": [\n"
        "  {\"name\":\"zip\",\"kind\":\"bytes\"},\n"
        "  {\"name\":\"n\",\"kind\":\"int64\"},\n"
        "  {\"name\":\"x\",\"kind\":\"float\"},\n"
        "  {\"name\":\"tags\",\"kind\":\"bytes\",\"list_separator\":\";\"}\n"
        "]}\n");
  declared.columns.push_back({"missing", ColumnKind::kBytes});
  SchemaInferrer bad(parser.column_names(), declared, NaMatcher());
  CHECK(bad.Finish().status().message() ==
        "the schema names a column \"missing\" that the CSV header does not have");
}

}  // namespace
}  // namespace tfq::csv
