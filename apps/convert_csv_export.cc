// `tfq convert` from TFRecord files into one CSV table (docs/convert-tables.md, "Export"), over
// src/convert/records_to_csv.h. A name ending in .gz is written gzip-compressed.
#include "app_common.h"
#include "convert.h"
#include "convert/records_to_csv.h"
#include "convert_csv.h"
#include "io/compression.h"

namespace tfq::app {
namespace {

Status TfRecordToCsv(const ConvertFlags& flags, const std::vector<std::string>& inputs,
                     ConvertSummary* summary) {
  const TableFlags& t = Tables();
  if (flags.shards) return Status::InvalidArgument("--shards applies to TFRecord output only");
  if (flags.sequence) return Status::InvalidArgument("CSV export reads tf.train.Example records, not --sequence");
  RecordsToCsvOptions options;
  TFQ_ASSIGN_OR_RETURN(options.delimiter, TableDelimiter(flags.output));
  if (t.list_separator.size() != 1 || t.list_separator[0] == options.delimiter ||
      t.list_separator[0] == '"' || t.list_separator[0] == '\n' || t.list_separator[0] == '\r') {
    return Status::InvalidArgument("--list-separator must be one byte other than the delimiter, '\"', CR and LF");
  }
  options.list_separator = t.list_separator[0];
  TFQ_ASSIGN_OR_RETURN(options.bytes, ParseCsvBytesFormat(t.bytes));
  if (!t.exclude.empty()) return Status::InvalidArgument("--exclude applies to CSV input only; use --select");
  options.columns = t.select;
  TFQ_ASSIGN_OR_RETURN(RecordOpener open, RecordInputOpener(flags));
  TFQ_ASSIGN_OR_RETURN(InputLimits limits, ParseInputLimits(flags));
  options.max_columns = static_cast<size_t>(limits.max_columns);
  options.threads = ConversionThreads(flags);
  if (options.columns.empty()) {
    for (const std::string& path : inputs) {
      if (path == "-") {
        return Status::InvalidArgument("reading records from standard input needs --select a,b,... "
                                       "(the columns must be known before the first row)");
      }
    }
  }
  TFQ_ASSIGN_OR_RETURN(auto output, ShardedOutput::Create(TextOutputOptions(flags)));
  uint64_t rows = 0;
  TFQ_RETURN_IF_ERROR(RecordsToCsv(
      inputs, open, options,
      [&](std::string_view text, uint64_t n) { return output->Write(0, text, n); }, &rows));
  TFQ_RETURN_IF_ERROR(output->Close());
  SummarizeOutput(*output, summary);
  summary->unit = "rows";
  return Status::OK();
}

}  // namespace

const Conversion kTfRecordToCsv = {"tfrecord", "csv", TfRecordToCsv};

}  // namespace tfq::app
