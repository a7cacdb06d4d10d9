// Converted rows -> tf.Example: the bytes equal those of the same Example built by hand and
// serialized by the example library (feature per column, schema order, empty lists of the
// column's kind for missing values).
#include <doctest/doctest.h>

#include <string>

#include "csv/converter.h"
#include "csv/example_rows.h"
#include "csv/parser.h"

namespace tfq::csv {
namespace {

TEST_CASE("a row becomes one feature per column, in schema order") {
  const std::string text = "id,price,tags,zip,note\n7,2.5,a;b,00501,\n";
  ChunkParser parser(ParseOptions{});
  RowBatch batch;
  REQUIRE(parser.Parse(text, ChunkPosition{"t.csv"}, &batch).ok());
  Schema s;
  s.columns.push_back({"id", ColumnKind::kInt64});
  s.columns.push_back({"price", ColumnKind::kFloat});
  s.columns.push_back({"tags", ColumnKind::kBytes, ';'});
  s.columns.push_back({"zip", ColumnKind::kBytes});
  s.columns.push_back({"note", ColumnKind::kFloat});
  Result<RowConverter> conv = RowConverter::Make(s, parser.column_names(), NaMatcher());
  REQUIRE(conv.ok());
  REQUIRE(conv->Convert(batch, 0).ok());
  RowExampleEncoder encoder;
  std::string got;
  encoder.Encode(*conv, &got);

  Example want;
  want.features.emplace_back("id", Feature::Int64s({7}));
  want.features.emplace_back("price", Feature::Floats({2.5f}));
  want.features.emplace_back("tags", Feature::Bytes({"a", "b"}));
  want.features.emplace_back("zip", Feature::Bytes({"00501"}));
  want.features.emplace_back("note", Feature::Floats({}));
  std::string expected;
  SerializeExample(want, &expected);
  CHECK(got == expected);

  // Encode appends; a second row does not carry anything over.
  encoder.Encode(*conv, &got);
  CHECK(got == expected + expected);
}

}  // namespace
}  // namespace tfq::csv
