// TFRecord files of tf.Example -> one CSV table (the library behind `tfq convert x.tfrecord -o
// y.csv`; docs/convert-tables.md, "Export").
//
// One column per feature: the --select names in that order, or else the union of the features of
// every record in order of first appearance (a first pass over the inputs). A feature absent
// from a record, an empty list and a Feature with no kind are an empty field. Values:
//   int64  decimal ("-7"), the spelling the CSV reader reads back as int64;
//   float  AppendFloatLiteral (example/json_forms.h): "0.1", "1.0", "1e+20", "NaN", "Infinity",
//          always with a '.' or an exponent, so that reading it back infers float again;
//   bytes  kAuto: the bytes as they are when valid UTF-8, else "base64:" and the standard padded
//          base64 of the bytes; kBase64: the standard padded base64 of every value.
// A list of several values is joined with `list_separator`; a bytes value holding the separator
// in such a list is an error (it could not be split back). Fields holding the delimiter, '"',
// CR or LF are quoted as RFC 4180 says (quotes doubled); in a one-column table an empty field is
// written "" so that the row is not read back as a blank line. Lines end with LF.
#ifndef TFQ_CONVERT_RECORDS_TO_CSV_H_
#define TFQ_CONVERT_RECORDS_TO_CSV_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "convert/records_to_text.h"

namespace tfq {

enum class CsvBytesFormat { kAuto, kBase64 };
Result<CsvBytesFormat> ParseCsvBytesFormat(std::string_view name);  // "auto" | "base64"

struct RecordsToCsvOptions {
  char delimiter = ',';
  char list_separator = ';';
  CsvBytesFormat bytes = CsvBytesFormat::kAuto;
  std::vector<std::string> columns;  // empty: the union of the features, in order of appearance
  // The union may not exceed this many columns (--max-columns): 15 MB of records with 300,000
  // distinct keys would otherwise be a table of about 90 GB, mostly delimiters.
  size_t max_columns = 100000;
  int threads = 1;
};

// Writes the header and one row per record to `sink`, formatting rows on `threads` threads
// (convert/records_to_text.h); `open` is called twice per input without `columns`. Errors name the input and the
// record: "x.tfrecord: record 12: feature \"tags\": ..." (kInvalidData), or the reader's; a
// union of more than max_columns features is kResourceExhausted, found before any row is written.
// *records counts the rows written.
Status RecordsToCsv(const std::vector<std::string>& inputs, const RecordOpener& open,
                    const RecordsToCsvOptions& options, const TextSink& sink, uint64_t* records);

}  // namespace tfq

#endif  // TFQ_CONVERT_RECORDS_TO_CSV_H_
