// `tfq convert` from TFRecord files into one CSV table (docs/convert-tables.md, "Export"), over
// src/convert/records_to_csv.h. A name ending in .gz is written gzip-compressed.
#include "app_common.h"
#include "convert.h"
#include "convert/records_to_csv.h"
#include "convert_csv.h"
#include "io/compression.h"
#include "io/file_streams.h"
#include "tfrecord/open.h"

namespace tfq::app {
namespace {

Status TfRecordToCsv(const ConvertFlags& flags, const std::vector<std::string>& inputs,
                     ConvertSummary* summary) {
  const TableFlags& t = Tables();
  if (flags.shards) return Status::InvalidArgument("--shards applies to TFRecord output only");
  if (flags.sequence) return Status::InvalidArgument("CSV export reads tf.train.Example records, not --sequence");
  RecordsToCsvOptions options;
  Result<char> delimiter = TableDelimiter(flags.output);
  if (!delimiter.ok()) return delimiter.status();
  options.delimiter = *delimiter;
  if (t.list_separator.size() != 1 || t.list_separator[0] == options.delimiter ||
      t.list_separator[0] == '"' || t.list_separator[0] == '\n' || t.list_separator[0] == '\r') {
    return Status::InvalidArgument("--list-separator must be one byte other than the delimiter, '\"', CR and LF");
  }
  options.list_separator = t.list_separator[0];
  Result<CsvBytesFormat> bytes = ParseCsvBytesFormat(t.bytes);
  if (!bytes.ok()) return bytes.status();
  options.bytes = *bytes;
  if (!t.exclude.empty()) return Status::InvalidArgument("--exclude applies to CSV input only; use --select");
  options.columns = t.select;
  Result<Compression> compression = ParseCompression(flags.compression);
  if (!compression.ok()) return compression.status();
  const Compression input_compression = *compression;
  Result<InputLimits> limits = ParseInputLimits(flags);
  if (!limits.ok()) return limits.status();
  options.max_columns = static_cast<size_t>(limits->max_columns);
  tfrecord::RecordReaderOptions reader_options;
  reader_options.max_record_bytes = limits->max_record_bytes;
  const DecompressionLimit decompression = limits->decompression;
  RecordOpener open = [input_compression, reader_options, decompression](const std::string& path)
      -> Result<std::unique_ptr<tfrecord::RecordReader>> {
    auto in = tfrecord::OpenRecordInput(path, input_compression, decompression);
    if (!in.ok()) return in.status();
    return std::make_unique<tfrecord::RecordReader>(std::move(in->stream), reader_options);
  };
  if (options.columns.empty()) {
    for (const std::string& path : inputs) {
      if (path == "-") {
        return Status::InvalidArgument("reading records from standard input needs --select a,b,... "
                                       "(the columns must be known before the first row)");
      }
    }
  }
  auto file = CreateOutputFile(flags.output);
  if (!file.ok()) return file.status();
  std::unique_ptr<OutputStream> out = std::move(file).value();
  if (CompressionFromExtension(flags.output) == Compression::kGzip) {
    out = NewCompressingStream(std::move(out), Compression::kGzip);
  }
  TFQ_RETURN_IF_ERROR(RecordsToCsv(inputs, open, options, out.get(), &summary->records));
  summary->bytes = out->bytes_written();
  TFQ_RETURN_IF_ERROR(out->Close());
  summary->outputs.push_back(flags.output);
  summary->unit = "rows";
  return Status::OK();
}

}  // namespace

const Conversion kTfRecordToCsv = {"tfrecord", "csv", TfRecordToCsv};

}  // namespace tfq::app
