// `tfq convert`: other forms into sharded TFRecord files of tf.train.Example, and back.
//
// The direction comes from the inputs and the output name (--from/--to override):
//   *.jsonl / *.json           -> TFRecord   (either JSON form, docs/json-forms.md)
//   TFRecord files             -> *.jsonl    (the proto-json form unless --format flat)
#include <chrono>
#include <cstdio>

#include "app_common.h"
#include "commands.h"
#include "convert/jsonl.h"
#include "example/example_view.h"
#include "example/json_forms.h"
#include "io/file_streams.h"
#include "io/glob.h"
#include "tfrecord/open.h"
#include "tfrecord/sharded_writer.h"

namespace tfq::app {
namespace {

struct ConvertOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string from = "auto";
  std::string to = "auto";
  uint64_t shards = 0;  // 0: -o names the single output file
  std::string suffix;
  std::string compression = "auto";
  std::string format = "proto-json";
  bool sequence = false;
  bool quiet = false;
  bool json = false;
};

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string KindOfPath(const std::string& path) {
  if (EndsWith(path, ".jsonl") || EndsWith(path, ".json") || EndsWith(path, ".jsonl.gz")) return "jsonl";
  return "tfrecord";
}

struct Summary {
  uint64_t records = 0;
  std::vector<std::string> outputs;
  uint64_t bytes = 0;
  double seconds = 0;
};

void PrintSummary(const ConvertOptions& opts, const Summary& s) {
  const double rate = s.seconds > 0 ? static_cast<double>(s.records) / s.seconds : 0;
  if (opts.json) {
    nlohmann::json j = {{"records", s.records}, {"outputs", s.outputs}, {"bytes", s.bytes},
                        {"seconds", s.seconds}, {"records_per_second", rate}};
    std::printf("%s\n", j.dump().c_str());
  } else if (!opts.quiet) {
    std::fprintf(stderr, "tfq: wrote %llu records to %zu file%s (%llu bytes) in %.2f s (%.0f records/s)\n",
                 static_cast<unsigned long long>(s.records), s.outputs.size(),
                 s.outputs.size() == 1 ? "" : "s", static_cast<unsigned long long>(s.bytes),
                 s.seconds, rate);
  }
}

// JSON lines -> TFRecord (one file, or round-robin over --shards files).
Status JsonLinesToTfRecord(const ConvertOptions& opts, const std::vector<std::string>& inputs,
                           Compression compression, Summary* summary) {
  tfrecord::ShardedWriterOptions wopts;
  std::unique_ptr<tfrecord::ShardedRecordWriter> sharded;
  std::unique_ptr<OutputStream> single;
  std::unique_ptr<tfrecord::RecordWriter> single_writer;
  if (opts.shards > 0) {
    wopts.prefix = opts.output;
    wopts.num_shards = opts.shards;
    wopts.suffix = opts.suffix;
    wopts.compression = compression == Compression::kAuto ? CompressionFromExtension(opts.suffix) : compression;
    auto w = tfrecord::ShardedRecordWriter::Create(wopts);
    if (!w.ok()) return w.status();
    sharded = std::move(w).value();
  } else {
    auto out = tfrecord::CreateRecordOutput(opts.output, compression);
    if (!out.ok()) return out.status();
    single = std::move(out).value();
    single_writer = std::make_unique<tfrecord::RecordWriter>(single.get());
  }
  uint64_t index = 0;
  auto sink = [&](std::string_view record) -> Status {
    const uint64_t i = index++;
    return sharded ? sharded->Write(i % opts.shards, record) : single_writer->Write(record);
  };
  JsonLinesOptions jopts;
  jopts.sequence = opts.sequence;
  for (const auto& path : inputs) {
    auto in = OpenInputFile(path);
    if (!in.ok()) return in.status();
    std::unique_ptr<InputStream> stream = std::move(in).value();
    if (EndsWith(path, ".gz")) stream = NewDecompressingStream(std::move(stream), Compression::kGzip);
    TFQ_RETURN_IF_ERROR(JsonLinesToRecords(stream.get(), jopts, sink, &summary->records));
  }
  if (sharded) {
    TFQ_RETURN_IF_ERROR(sharded->Close());
    for (const auto& shard : sharded->shards()) {
      summary->outputs.push_back(shard.path);
      summary->bytes += shard.bytes;
    }
  } else {
    TFQ_RETURN_IF_ERROR(single->Close());
    summary->outputs.push_back(opts.output);
    summary->bytes = single_writer->bytes_written();
  }
  return Status::OK();
}

// TFRecord -> JSON lines in one file.
Status TfRecordToJsonLines(const ConvertOptions& opts, const std::vector<std::string>& inputs,
                           Compression compression, Summary* summary) {
  Result<JsonForm> form = ParseJsonForm(opts.format);
  if (!form.ok()) return form.status();
  auto out = CreateOutputFile(opts.output);
  if (!out.ok()) return out.status();
  std::string buffer;
  ExampleView example;
  SequenceExampleView sequence;
  for (const auto& path : inputs) {
    auto in = tfrecord::OpenRecordInput(path, compression);
    if (!in.ok()) return in.status();
    tfrecord::RecordReader reader(std::move(in->stream), {});
    std::string_view record;
    while (reader.Read(&record)) {
      const std::string where = path + ": record " + std::to_string(reader.record_index());
      if (opts.sequence) {
        TFQ_RETURN_IF_ERROR(sequence.Parse(record).WithPrefix(where));
        AppendSequenceExampleJson(sequence, form.value(), &buffer);
      } else {
        TFQ_RETURN_IF_ERROR(example.Parse(record).WithPrefix(where));
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
  summary->outputs.push_back(opts.output);
  return Status::OK();
}

int RunConvert(const ConvertOptions& opts) {
  Result<std::vector<std::string>> inputs = ExpandInputPaths(opts.inputs);
  if (!inputs.ok()) return ReportError(inputs.status());
  Result<Compression> compression = ParseCompression(opts.compression);
  if (!compression.ok()) return ReportError(compression.status());
  const std::string from = opts.from != "auto" ? opts.from : KindOfPath(inputs->front());
  const std::string to = opts.to != "auto" ? opts.to : KindOfPath(opts.output);
  Summary summary;
  const auto start = std::chrono::steady_clock::now();
  Status s;
  if (from == "jsonl" && to == "tfrecord") {
    s = JsonLinesToTfRecord(opts, inputs.value(), compression.value(), &summary);
  } else if (from == "tfrecord" && to == "jsonl") {
    if (opts.shards) return ReportError(Status::InvalidArgument("--shards applies to TFRecord output only"));
    s = TfRecordToJsonLines(opts, inputs.value(), compression.value(), &summary);
  } else {
    s = Status::InvalidArgument("cannot convert " + from + " to " + to +
                                " (supported: jsonl -> tfrecord, tfrecord -> jsonl; set --from/--to)");
  }
  if (!s.ok()) return ReportError(s);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  PrintSummary(opts, summary);
  return kExitOk;
}

}  // namespace

void SetupConvertCommand(CLI::App& app, int* exit_code) {
  auto opts = std::make_shared<ConvertOptions>();
  CLI::App* cmd = app.add_subcommand("convert", "Convert JSON lines to TFRecord files, and back");
  cmd->add_option("inputs", opts->inputs, "input files or globs")->required();
  cmd->add_option("-o,--output", opts->output,
                  "output file, or the shard prefix with --shards (PREFIX-00000-of-0000N)")
      ->required();
  cmd->add_option("--from", opts->from, "input kind: auto|jsonl|tfrecord")->capture_default_str();
  cmd->add_option("--to", opts->to, "output kind: auto|tfrecord|jsonl")->capture_default_str();
  cmd->add_option("--shards", opts->shards, "write N shards named PREFIX-0000k-of-0000N");
  cmd->add_option("--suffix", opts->suffix, "appended to shard names, e.g. .tfrecord");
  cmd->add_option("-c,--compression", opts->compression,
                  "TFRecord compression: auto|none|gzip|zlib (auto: sniff inputs, extension for outputs)")
      ->capture_default_str();
  cmd->add_option("--format", opts->format, "JSON form when writing JSON lines: proto-json|flat")
      ->capture_default_str();
  cmd->add_flag("--sequence", opts->sequence, "records are tf.train.SequenceExample");
  cmd->add_flag("-q,--quiet", opts->quiet, "no summary line");
  cmd->add_flag("--json", opts->json, "print the summary as JSON on stdout");
  cmd->footer(
      "Examples:\n"
      "  tfq convert rows.jsonl -o data/train --shards 4 --suffix .tfrecord\n"
      "  tfq convert data/train-*-of-00004.tfrecord -o rows.jsonl --format flat\n");
  cmd->callback([opts, exit_code] { *exit_code = RunConvert(*opts); });
}

}  // namespace tfq::app
