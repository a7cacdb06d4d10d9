// A complete program using tfq's input pipeline (docs/pipeline.md): reads TFRecord files of
// tf.train.Examples, shuffled and batched on background threads, and prints a summary of each
// batch, as a training loop would consume them.
//
//   pipeline_example [--epochs N] [--batch N] [--seed S] [--rank R --world-size W]
//                    [--state FILE] [--stop-after N] FILE_OR_GLOB...
//
// As a data-parallel job's rank R of W it reads its share (every rank the same number of batches).
// With --state it resumes from FILE when it exists, and when it stops (after --stop-after batches,
// as a preempted job would) it saves its position there: run it again to continue with exactly the
// batches that would have come next.
//
// It asks for a "label" (int64, one per record, -1 when missing) and "tokens" (int64, any number
// per record), so it runs on any Example files: keys they lack come out as defaults and empty rows.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pipeline/pipeline.h"

namespace {

int Usage() {
  std::fprintf(stderr,
               "usage: pipeline_example [--epochs N] [--batch N] [--seed S] [--rank R --world-size W]\n"
               "                        [--state FILE] [--stop-after N] FILE_OR_GLOB...\n");
  return 2;
}

bool ReadFile(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return true;
}

// Written under a temporary name and renamed, so that a crash never leaves half a state.
bool WriteFile(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".partial";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!(out << text)) return false;
  }
  return std::rename(temporary.c_str(), path.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  namespace pl = tfq::pipeline;
  pl::PipelineOptions options;
  options.read.cycle_length = 4;             // 4 files open at once, read on background threads
  options.read.shuffle_files = true;
  options.read.shuffle_buffer_size = 1024;   // then a tf.data-style shuffle buffer
  options.batch_size = 32;
  options.features = {
      pl::FixedLenInt64("label", 1, {-1}),  // dense: batch_size values, -1 where missing
      pl::VarLenInt64("tokens"),            // ragged: values + row splits
  };

  std::string state_path;
  long long stop_after = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--state" && i + 1 < argc) {
      state_path = argv[++i];
    } else if ((arg == "--epochs" || arg == "--batch" || arg == "--seed" || arg == "--rank" ||
                arg == "--world-size" || arg == "--stop-after") &&
               i + 1 < argc) {
      const long long value = std::atoll(argv[++i]);
      if (arg == "--epochs") options.read.epochs = value;
      if (arg == "--batch") options.batch_size = static_cast<size_t>(value);
      if (arg == "--seed") options.read.seed = static_cast<uint64_t>(value);
      if (arg == "--rank") options.read.rank = static_cast<uint64_t>(value);
      if (arg == "--world-size") options.read.world_size = static_cast<uint64_t>(value);
      if (arg == "--stop-after") stop_after = value;
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return Usage();
    } else {
      options.read.inputs.push_back(arg);
    }
  }
  if (options.read.inputs.empty()) return Usage();

  std::string saved;
  const bool resuming = !state_path.empty() && ReadFile(state_path, &saved);
  tfq::Result<std::unique_ptr<pl::Pipeline>> opened =
      resuming ? pl::Pipeline::Open(options, saved) : pl::Pipeline::Open(options);
  if (!opened.ok()) {
    std::fprintf(stderr, "pipeline_example: error: %s\n", opened.status().ToString().c_str());
    return tfq::StatusCode::kInvalidArgument == opened.status().code() ? 2 : 1;
  }
  pl::Pipeline& pipeline = *opened.value();

  if (resuming) std::printf("resumed from %s\n", state_path.c_str());

  pl::Batch batch;  // reused: Next refills it
  uint64_t batches = 0, rows = 0, tokens = 0;
  while ((stop_after < 0 || batches < static_cast<uint64_t>(stop_after)) && pipeline.Next(&batch)) {
    const pl::Column& label = *batch.column("label");
    const pl::Column& token = *batch.column("tokens");
    if (batches < 5) {  // a glimpse of the first batches
      std::printf("batch %llu: %zu rows; first row from %s record %llu: label %lld, %lld tokens\n",
                  static_cast<unsigned long long>(batches), batch.rows,
                  pipeline.files()[batch.sources[0].file].c_str(),
                  static_cast<unsigned long long>(batch.sources[0].index),
                  static_cast<long long>(label.int64_values[0]),
                  static_cast<long long>(token.row_splits[1] - token.row_splits[0]));
    }
    ++batches;
    rows += batch.rows;
    tokens += token.int64_values.size();
  }
  if (!pipeline.status().ok()) {  // names the file, record and byte offset
    std::fprintf(stderr, "pipeline_example: error: %s\n", pipeline.status().ToString().c_str());
    const tfq::StatusCode code = pipeline.status().code();
    return code == tfq::StatusCode::kCorruption || code == tfq::StatusCode::kInvalidData ? 3 : 1;
  }
  if (!state_path.empty()) {  // where to continue from (a finished run saves its end)
    tfq::Result<std::string> state = pipeline.SaveState();
    if (!state.ok() || !WriteFile(state_path, *state)) {
      std::fprintf(stderr, "pipeline_example: error: cannot save the state to %s\n", state_path.c_str());
      return 1;
    }
  }
  std::printf("%llu batches, %llu records, %llu tokens from %zu files\n",
              static_cast<unsigned long long>(batches), static_cast<unsigned long long>(rows),
              static_cast<unsigned long long>(tokens), pipeline.files().size());
  return 0;
}
