// Property: CSV -> TFRecord -> CSV is stable, through the library calls of `tfq convert`
// (csv_to_records.h, records_to_csv.h), on seeded random tables: int, float, text and mixed
// columns, empty fields, quotes, delimiters, CR/LF and unicode inside fields, odd column names.
//
// A table written the way the exporter writes (canonical numbers, quoting only where needed, LF)
// comes back byte for byte; the same table written differently (every field quoted, CRLF line
// ends) converts to the same records and so comes back in the exporter's form too. Either way
// the second import gives the first records byte for byte (CSV -> TFRecord -> CSV -> TFRecord).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/random.h"
#include "convert/csv_to_records.h"
#include "convert/records_to_csv.h"
#include "example/json_forms.h"
#include "io/file_streams.h"
#include "tfrecord/record_reader.h"

namespace tfq {
namespace {

struct Table {
  std::vector<std::vector<std::string>> rows;  // row 0: the header
  // No column mixes ints with floats. Such a column is a float column, and an integer that
  // float32 holds exactly comes back in float spelling ("-9223372036854775808" as
  // "-9.223372e+18"): the same value, so the records survive, but not the same text.
  bool spelled_canonically = true;
};

class RandomTables {
 public:
  explicit RandomTables(uint64_t seed) : rng_(seed) {}

  Table Next() {
    const size_t columns = 1 + rng_.Below(5);
    Table t;
    auto& table = t.rows;
    table.assign(1 + rng_.Below(8), std::vector<std::string>(columns));
    std::set<std::string> names;
    for (std::string& name : table[0]) {
      do name = Text(); while (name.empty() || !names.insert(name).second);
    }
    for (size_t c = 0; c < columns; ++c) {
      const uint64_t kind = rng_.Below(4);  // int, float, text, mixed
      if (kind == 3) t.spelled_canonically = false;
      for (size_t r = 1; r < table.size(); ++r) {
        const uint64_t cell_kind = rng_.Below(6) == 0 ? 4 : kind == 3 ? rng_.Below(3) : kind;
        table[r][c] = Cell(cell_kind);
        // The text "-0" is a float (-0.0), and the exporter spells floats with a '.'.
        if (table[r][c] == "-0") t.spelled_canonically = false;
      }
    }
    return t;
  }

 private:
  std::string Cell(uint64_t kind) {
    switch (kind) {
      case 0: {  // the canonical int64 spelling
        static constexpr const char* kInts[] = {"0", "-1", "9223372036854775807", "-9223372036854775808",
                                                "16777217"};
        if (rng_.Below(4) == 0) return kInts[rng_.Below(std::size(kInts))];
        return std::to_string(static_cast<int64_t>(rng_.Next()) >> rng_.Below(64));
      }
      case 1: {  // the exporter's float spelling
        static constexpr float kFloats[] = {0.1f, -0.0f, 1e20f, 1.5f, 1e-45f,
                                            std::numeric_limits<float>::quiet_NaN(),
                                            std::numeric_limits<float>::infinity()};
        float f = kFloats[rng_.Below(std::size(kFloats))];
        if (rng_.Below(2) == 0) f = static_cast<float>(static_cast<int64_t>(rng_.Below(2000000)) - 1000000) / 64.0f;
        // Whole floats beyond 2^24 (874101376 prints as 874101400): as integers they would not
        // be exact in float32, so only a '.' or exponent keeps them floats when read back.
        if (rng_.Below(4) == 0) f = std::ldexp(static_cast<float>(rng_.Below(1 << 24)), 1 + static_cast<int>(rng_.Below(40)));
        if (rng_.Below(8) == 0) f = -f;
        std::string text;
        AppendFloatLiteral(f, &text);
        return text;
      }
      case 2:
        return Text();
      default:
        return "";  // missing
    }
  }

  // Text that needs quoting (delimiters, quotes, CR, LF), unicode, spaces, number look-alikes.
  std::string Text() {
    static constexpr const char* kPieces[] = {"a", "word", " ", ",", "\t", ";", "|", "\"", "\"\"", "\n",
                                              "\r\n", "\r", "caf\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac",
                                              "\xf0\x9f\x98\x80", "007", "1.5x", "-0", "x y", "NA"};
    std::string text;
    for (size_t n = rng_.Below(4); n > 0; --n) text += kPieces[rng_.Below(std::size(kPieces))];
    return text;
  }

  Xoshiro256 rng_;
};

// The table as text: minimal RFC 4180 quoting (what the exporter writes) or every field quoted.
std::string ToCsv(const Table& table, char delimiter, bool quote_all, std::string_view line_end) {
  std::string csv;
  for (const std::vector<std::string>& row : table.rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) csv += delimiter;
      const std::string& f = row[c];
      const bool quote = quote_all || f.find_first_of(std::string{delimiter} + "\"\r\n") != std::string::npos ||
                         (row.size() == 1 && f.empty());
      if (!quote) {
        csv += f;
        continue;
      }
      csv += '"';
      for (char ch : f) csv += ch == '"' ? std::string("\"\"") : std::string(1, ch);
      csv += '"';
    }
    csv += line_end;
  }
  return csv;
}

Result<std::string> CsvToFramedRecords(const std::string& csv, char delimiter) {
  CsvToRecordsOptions options;
  options.parse.delimiter = delimiter;
  options.infer_rows = CsvToRecordsOptions::kInferAll;
  const CsvOpener open = [&](const std::string& name) -> Result<std::unique_ptr<InputStream>> {
    return NewMemoryInputStream(name, csv);
  };
  std::string framed;
  CsvCallbacks callbacks;
  callbacks.on_schema = [](const csv::Schema&) { return Status::OK(); };
  callbacks.sink = [&](std::string_view bytes, std::span<const size_t>) {
    framed.append(bytes);
    return Status::OK();
  };
  TFQ_RETURN_IF_ERROR(CsvToRecords({"t.csv"}, open, options, callbacks, nullptr));
  return framed;
}

Result<std::string> FramedRecordsToCsv(const std::string& framed, char delimiter) {
  const RecordOpener open = [&](const std::string& name) -> Result<std::unique_ptr<tfrecord::RecordReader>> {
    return std::make_unique<tfrecord::RecordReader>(NewMemoryInputStream(name, framed),
                                                    tfrecord::RecordReaderOptions{});
  };
  RecordsToCsvOptions options;
  options.delimiter = delimiter;
  options.list_separator = delimiter == ';' ? '|' : ';';
  std::string csv;
  std::unique_ptr<OutputStream> out = NewStringOutputStream("t.csv", &csv);
  uint64_t records = 0;
  TFQ_RETURN_IF_ERROR(RecordsToCsv({"t.tfrecord"}, open, options, [&](std::string_view t, uint64_t) { return out->Write(t); }, &records));
  return csv;
}

TEST_CASE("property: CSV -> TFRecord -> CSV gives the table back") {
  RandomTables random(0xc5f00d);
  constexpr char kDelimiters[] = {',', '\t', ';', '|'};
  for (int i = 0; i < 2000; ++i) {
    const Table table = random.Next();
    const char delimiter = kDelimiters[i % 4];
    const std::string written = ToCsv(table, delimiter, /*quote_all=*/false, "\n");
    CAPTURE(written);

    Result<std::string> records = CsvToFramedRecords(written, delimiter);
    REQUIRE_MESSAGE(records.ok(), records.status().ToString());
    // With no data row there is no feature to name a column: nothing comes back.
    if (table.rows.size() == 1) continue;
    Result<std::string> exported = FramedRecordsToCsv(*records, delimiter);
    REQUIRE_MESSAGE(exported.ok(), exported.status().ToString());
    if (table.spelled_canonically) REQUIRE(*exported == written);

    // The exported table reads back into the same records, byte for byte, whatever the
    // spelling of the first table (floats are exported with a '.' or exponent, so a float
    // column stays float), and it exports to itself: a fixed point.
    Result<std::string> records_again = CsvToFramedRecords(*exported, delimiter);
    REQUIRE_MESSAGE(records_again.ok(), records_again.status().ToString());
    REQUIRE(*records_again == *records);
    Result<std::string> exported_again = FramedRecordsToCsv(*records_again, delimiter);
    REQUIRE(exported_again.ok());
    REQUIRE(*exported_again == *exported);

    // Quoting every field and ending lines with CRLF changes nothing.
    const std::string quoted = ToCsv(table, delimiter, /*quote_all=*/true, "\r\n");
    Result<std::string> records_quoted = CsvToFramedRecords(quoted, delimiter);
    REQUIRE_MESSAGE(records_quoted.ok(), records_quoted.status().ToString());
    REQUIRE(*records_quoted == *records);
  }
}

}  // namespace
}  // namespace tfq
