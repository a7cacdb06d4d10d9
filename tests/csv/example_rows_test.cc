// Converted rows -> tf.Example: the bytes equal those of the same Example built by hand and
// serialized by the example library (feature per column, schema order, empty lists of the
// column's kind for missing values).
#include <doctest/doctest.h>

#include <string>

#include "csv/converter.h"
#include "csv/example_rows.h"
#include "row_example_encoder.h"
#include "csv/parser.h"
#include "common/byte_buffer.h"

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

// The fused writer against the two-step path, row by row: same bytes, same errors.
struct Outcome {
  std::string bytes;
  std::string error;
};

Outcome TwoStep(RowConverter conv, const RowBatch& batch, size_t row) {
  Status s = conv.Convert(batch, row);
  if (!s.ok()) return {"", s.ToString()};
  RowExampleEncoder encoder;
  Outcome o;
  encoder.Encode(conv, &o.bytes);
  return o;
}

Outcome Fused(RowExampleWriter& writer, const RowBatch& batch, size_t row) {
  ByteBuffer out;
  out.Append("prefix", 6);
  Status s = writer.Append(batch, row, &out);
  if (!s.ok()) {
    CHECK(out.view() == "prefix");  // unchanged on error
    return {"", s.ToString()};
  }
  REQUIRE(out.view().substr(0, 6) == "prefix");
  return {std::string(out.view().substr(6)), ""};
}

void CheckSameAsTwoStep(const std::string& text, const Schema& schema, NaMatcher na = NaMatcher()) {
  ChunkParser parser(ParseOptions{});
  RowBatch batch;
  REQUIRE(parser.Parse(text, ChunkPosition{"t.csv"}, &batch).ok());
  Result<RowConverter> conv = RowConverter::Make(schema, parser.column_names(), std::move(na));
  REQUIRE(conv.ok());
  RowExampleWriter writer(*conv);
  for (size_t row = 0; row < batch.num_rows(); ++row) {
    const Outcome want = TwoStep(*conv, batch, row);
    const Outcome got = Fused(writer, batch, row);
    INFO("row ", row, ": ", want.error);
    CHECK(got.error == want.error);
    CHECK(got.bytes == want.bytes);
  }
}

TEST_CASE("RowExampleWriter writes what the converter and encoder write, errors included") {
  Schema s;
  s.columns.push_back({"id", ColumnKind::kInt64});
  s.columns.push_back({"price", ColumnKind::kFloat});
  s.columns.push_back({"tags", ColumnKind::kBytes, ';'});
  s.columns.push_back({"zip", ColumnKind::kBytes});
  s.columns.push_back({"n", ColumnKind::kInt64, ',', std::string("1,2")});
  s.columns.push_back({"f", ColumnKind::kFloat, '|'});
  s.columns.push_back({"d", ColumnKind::kInt64, 0, std::string("-5")});
  s.columns.push_back({"r", ColumnKind::kBytes, 0, std::nullopt, true});
  const std::string text =
      "id,price,tags,zip,n,f,d,r\n"
      "7,2.5,a;b,00501,\"3,4\",1|2.5,,x\n"
      "0,NA,,,,,8,\"y\"\"z\"\n"
      "-13,1e3,;;,x,5,,NA,r\n"
      "99999999,-0,a,b,,,,r\n"           // 8 digits: the word path's longest
      "100000000,.5,a,b,,,,r\n"          // 9 digits
      "9223372036854775807,1,a,b,,,,r\n"
      "-9223372036854775808,1,a,b,,,,r\n"
      "9223372036854775808,1,a,b,,,,r\n"  // beyond int64: an error
      "007,1,a,b,,,,r\n"                  // leading zero: an error
      "-0,1,a,b,,,,r\n"
      "12a,1,a,b,,,,r\n"
      "1:2,1,a,b,,,,r\n"                  // ':' is '9' + 1
      "1/2,1,a,b,,,,r\n"                  // '/' is '0' - 1
      "1,1e39,a,b,,,,r\n"
      "1,1,a,b,\"1,,2\",,,r\n"            // an empty list element
      "1,1,a,b,,1|x,,r\n"
      "1,1,a,b,,,,\n"                     // required
      "1,1,a,b,,,,NA\n"
      "16383,1,a,b,,,,r\n"                // the last two-byte varint
      "16384,1,a,b,,,,r\n"
      "128,1,a,b,,,,r\n"
      "127,1,a,b,,,,r\n"
      "5,1,a,b,,,,r\n";
  CheckSameAsTwoStep(text, s, NaMatcher({"NA"}));

  // Numbers in the chunk's last bytes (the word path may not read beyond the chunk).
  Schema ints;
  ints.columns.push_back({"a", ColumnKind::kInt64});
  for (const char* last : {"5", "-5", "1234567", "12345678", "123456789", "0", "-", "x"}) {
    INFO(last);
    CheckSameAsTwoStep(std::string("a\n1\n22\n") + last, ints);
  }
  // Integers of every length the word path reads (1 to 19 digits, and 20), with and without a
  // sign, with a non-digit at each position (and bytes just outside '0'..'9').
  {
    std::string table = "a\n";
    const std::string digits = "9876543210123456789";
    for (size_t n = 1; n <= 20; ++n) {
      const std::string number = (std::string("1") + digits).substr(0, n);
      for (const char* sign : {"", "-"}) {
        table += sign + number + "\n";
        for (size_t at = 0; at < n; ++at) {
          for (char bad : {'/', ':', 'x', ' '}) {
            std::string s = number;
            s[at] = bad;
            table += sign + s + "\n";
          }
        }
      }
    }
    table += "9223372036854775807\n-9223372036854775808\n9223372036854775808\n";
    table += "-9223372036854775809\n9999999999999999999\n10000000000000000000\n";
    table += "1000000000000000000\n";
    CheckSameAsTwoStep(table, ints);
  }
  // Long keys and long values: lengths of more than one varint byte.
  Schema wide;
  wide.columns.push_back({std::string(130, 'k'), ColumnKind::kBytes});
  wide.columns.push_back({std::string(120, 'i'), ColumnKind::kInt64});
  wide.columns.push_back({std::string(120, 'f'), ColumnKind::kFloat});
  CheckSameAsTwoStep(std::string(130, 'k') + "," + std::string(120, 'i') + "," +
                         std::string(120, 'f') + "\n" + std::string(300, 'v') + ",-1,2\nv,5,\n",
                     wide);
}

}  // namespace
}  // namespace tfq::csv
