// `tfq convert` between JSON lines (docs/json-forms.md) and TFRecord files.
#include "app_common.h"
#include "convert.h"
#include "convert/jsonl.h"
#include "example/example_view.h"
#include "example/json_forms.h"
#include "io/compression.h"
#include "io/file_streams.h"
#include "tfrecord/open.h"
#include "tfrecord/record_reader.h"

namespace tfq::app {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// JSON lines -> TFRecord: one file, or round-robin over --shards files.
Status JsonLinesToTfRecord(const ConvertFlags& flags, const std::vector<std::string>& inputs,
                           ConvertSummary* summary) {
  Result<ShardedOutputOptions> output_options = RecordOutputOptions(flags);
  if (!output_options.ok()) return output_options.status();
  auto output = ShardedOutput::Create(*output_options);
  if (!output.ok()) return output.status();
  Result<InputLimits> limits = ParseInputLimits(flags);
  if (!limits.ok()) return limits.status();
  JsonLinesOptions jopts;
  jopts.sequence = flags.sequence;
  if (limits->max_row_bytes) jopts.max_line_bytes = static_cast<size_t>(limits->max_row_bytes);
  jopts.threads = ConversionThreads(flags);
  const DecompressionLimit decompression = limits->decompression;
  const StreamOpener open = [decompression](const std::string& path) -> Result<std::unique_ptr<InputStream>> {
    auto in = OpenInputFile(path);
    if (!in.ok() || !EndsWith(path, ".gz")) return in;
    return NewDecompressingStream(std::move(in).value(), Compression::kGzip, decompression);
  };
  const FramedRecordSink sink = [&](std::string_view framed, std::span<const size_t> ends) {
    return (*output)->WriteInTurn(framed, ends);
  };
  uint64_t records = 0;
  TFQ_RETURN_IF_ERROR(JsonLinesToRecords(inputs, open, jopts, sink, &records));
  TFQ_RETURN_IF_ERROR((*output)->Close());
  SummarizeOutput(**output, summary);
  return Status::OK();
}

// TFRecord -> JSON lines in one file.
Status TfRecordToJsonLines(const ConvertFlags& flags, const std::vector<std::string>& inputs,
                           ConvertSummary* summary) {
  if (flags.shards) return Status::InvalidArgument("--shards applies to TFRecord output only");
  Result<JsonForm> form = ParseJsonForm(flags.format);
  if (!form.ok()) return form.status();
  Result<Compression> compression = ParseCompression(flags.compression);
  if (!compression.ok()) return compression.status();
  Result<InputLimits> limits = ParseInputLimits(flags);
  if (!limits.ok()) return limits.status();
  tfrecord::RecordReaderOptions reader_options;
  reader_options.max_record_bytes = limits->max_record_bytes;
  auto out = CreateOutputFile(flags.output);
  if (!out.ok()) return out.status();
  std::string buffer;
  ExampleView example;
  SequenceExampleView sequence;
  for (const auto& path : inputs) {
    auto in = tfrecord::OpenRecordInput(path, compression.value(), limits->decompression);
    if (!in.ok()) return in.status();
    tfrecord::RecordReader reader(std::move(in->stream), reader_options);
    std::string_view record;
    while (reader.Read(&record)) {
      const std::string where = path + ": record " + std::to_string(reader.record_index());
      if (flags.sequence) {
        TFQ_RETURN_IF_ERROR(sequence.Parse(record).WithPrefix(where));
        TFQ_RETURN_IF_ERROR(CheckJsonKeysDistinct(sequence).WithPrefix(where));
        AppendSequenceExampleJson(sequence, form.value(), &buffer);
      } else {
        TFQ_RETURN_IF_ERROR(example.Parse(record).WithPrefix(where));
        TFQ_RETURN_IF_ERROR(CheckJsonKeysDistinct(example).WithPrefix(where));
        AppendExampleJson(example, form.value(), &buffer);
      }
      buffer += '\n';
      ++summary->records;
      if (buffer.size() >= (1 << 20)) {
        TFQ_RETURN_IF_ERROR((*out)->Write(buffer));
        buffer.clear();
      }
    }
    TFQ_RETURN_IF_ERROR(reader.status());
  }
  TFQ_RETURN_IF_ERROR((*out)->Write(buffer));
  summary->bytes = (*out)->bytes_written();
  TFQ_RETURN_IF_ERROR((*out)->Close());
  summary->outputs.push_back(flags.output);
  return Status::OK();
}

}  // namespace

const Conversion kJsonLinesToTfRecord = {"jsonl", "tfrecord", JsonLinesToTfRecord};
const Conversion kTfRecordToJsonLines = {"tfrecord", "jsonl", TfRecordToJsonLines};

}  // namespace tfq::app
