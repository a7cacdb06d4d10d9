// `tfq convert` between JSON lines (docs/json-forms.md) and TFRecord files.
#include "app_common.h"
#include "convert.h"
#include "convert/jsonl.h"
#include "convert/records_to_jsonl.h"
#include "example/json_forms.h"
#include "io/compression.h"
#include "io/file_streams.h"

namespace tfq::app {
namespace {

// JSON lines -> TFRecord: one file, or round-robin over --shards files.
Status JsonLinesToTfRecord(const ConvertFlags& flags, const std::vector<std::string>& inputs,
                           ConvertSummary* summary) {
  TFQ_ASSIGN_OR_RETURN(ShardedOutputOptions output_options, RecordOutputOptions(flags));
  TFQ_ASSIGN_OR_RETURN(auto output, ShardedOutput::Create(output_options));
  TFQ_ASSIGN_OR_RETURN(InputLimits limits, ParseInputLimits(flags));
  JsonLinesOptions jopts;
  jopts.sequence = flags.sequence;
  if (limits.max_row_bytes) jopts.max_line_bytes = static_cast<size_t>(limits.max_row_bytes);
  jopts.threads = ConversionThreads(flags);
  const DecompressionLimit decompression = limits.decompression;
  const StreamOpener open = [decompression](const std::string& path) -> Result<std::unique_ptr<InputStream>> {
    auto in = OpenInputFile(path);
    if (!in.ok() || !std::string_view(path).ends_with(".gz")) return in;
    return NewDecompressingStream(std::move(in).value(), Compression::kGzip, decompression);
  };
  const FramedRecordSink sink = [&](std::string_view framed, std::span<const size_t> ends) {
    return output->WriteInTurn(framed, ends);
  };
  uint64_t records = 0;
  TFQ_RETURN_IF_ERROR(JsonLinesToRecords(inputs, open, jopts, sink, &records));
  TFQ_RETURN_IF_ERROR(output->Close());
  SummarizeOutput(*output, summary);
  return Status::OK();
}

// TFRecord -> JSON lines in one file.
Status TfRecordToJsonLines(const ConvertFlags& flags, const std::vector<std::string>& inputs,
                           ConvertSummary* summary) {
  if (flags.shards) return Status::InvalidArgument("--shards applies to TFRecord output only");
  RecordsToJsonLinesOptions options;
  TFQ_ASSIGN_OR_RETURN(options.form, ParseJsonForm(flags.format));
  options.sequence = flags.sequence;
  options.threads = ConversionThreads(flags);
  TFQ_ASSIGN_OR_RETURN(RecordOpener open, RecordInputOpener(flags));
  TFQ_ASSIGN_OR_RETURN(auto output, ShardedOutput::Create(TextOutputOptions(flags)));
  uint64_t records = 0;
  TFQ_RETURN_IF_ERROR(RecordsToJsonLines(
      inputs, open, options,
      [&](std::string_view text, uint64_t lines) { return output->Write(0, text, lines); }, &records));
  TFQ_RETURN_IF_ERROR(output->Close());
  SummarizeOutput(*output, summary);
  return Status::OK();
}

}  // namespace

const Conversion kJsonLinesToTfRecord = {"jsonl", "tfrecord", JsonLinesToTfRecord};
const Conversion kTfRecordToJsonLines = {"tfrecord", "jsonl", TfRecordToJsonLines};

}  // namespace tfq::app
