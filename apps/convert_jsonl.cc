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
#include "tfrecord/sharded_writer.h"

namespace tfq::app {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// JSON lines -> TFRecord: one file, or round-robin over --shards files.
Status JsonLinesToTfRecord(const ConvertFlags& flags, const std::vector<std::string>& inputs,
                           ConvertSummary* summary) {
  Result<Compression> compression = ParseCompression(flags.compression);
  if (!compression.ok()) return compression.status();
  std::unique_ptr<tfrecord::ShardedRecordWriter> sharded;
  std::unique_ptr<OutputStream> single;
  std::unique_ptr<tfrecord::RecordWriter> single_writer;
  if (flags.shards > 0) {
    tfrecord::ShardedWriterOptions wopts;
    wopts.prefix = flags.output;
    wopts.num_shards = flags.shards;
    wopts.suffix = flags.suffix;
    wopts.compression = compression.value() == Compression::kAuto
                            ? CompressionFromExtension(flags.suffix)
                            : compression.value();
    wopts.task_index = flags.task_index;
    wopts.num_tasks = flags.num_tasks;
    auto w = tfrecord::ShardedRecordWriter::Create(wopts);
    if (!w.ok()) return w.status();
    sharded = std::move(w).value();
  } else {
    auto out = tfrecord::CreateRecordOutput(flags.output, compression.value());
    if (!out.ok()) return out.status();
    single = std::move(out).value();
    single_writer = std::make_unique<tfrecord::RecordWriter>(single.get());
  }
  uint64_t index = 0;
  auto sink = [&](std::string_view record) -> Status {
    const uint64_t i = index++;
    if (!sharded) return single_writer->Write(record);
    return sharded->owns(i % flags.shards) ? sharded->Write(i % flags.shards, record) : Status::OK();
  };
  Result<InputLimits> limits = ParseInputLimits(flags);
  if (!limits.ok()) return limits.status();
  JsonLinesOptions jopts;
  jopts.sequence = flags.sequence;
  if (limits->max_row_bytes) jopts.max_line_bytes = static_cast<size_t>(limits->max_row_bytes);
  for (const auto& path : inputs) {
    auto in = OpenInputFile(path);
    if (!in.ok()) return in.status();
    std::unique_ptr<InputStream> stream = std::move(in).value();
    if (EndsWith(path, ".gz")) {
      stream = NewDecompressingStream(std::move(stream), Compression::kGzip, limits->decompression);
    }
    TFQ_RETURN_IF_ERROR(JsonLinesToRecords(stream.get(), jopts, sink, &summary->records));
  }
  if (sharded) {
    TFQ_RETURN_IF_ERROR(sharded->Close());
    summary->records = 0;  // what this task wrote
    for (const auto& shard : sharded->shards()) {
      if (shard.path.empty()) continue;  // another task's
      summary->outputs.push_back(shard.path);
      summary->records += shard.records;
      summary->bytes += shard.bytes;
    }
  } else {
    TFQ_RETURN_IF_ERROR(single->Close());
    summary->outputs.push_back(flags.output);
    summary->bytes = single_writer->bytes_written();
  }
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
