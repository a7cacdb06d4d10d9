// The streaming buffer shuffle of `tfq shuffle --window N`: tf.data's shuffle(buffer_size).
//
// The buffer fills with the first N records; from then on each input record evicts a uniformly
// chosen buffered one, which is written out; at the end the rest leave in uniformly random
// order. Each output is thus a uniform draw from what the buffer holds at that moment, as in
// tf.data (the random numbers differ, so the orders do not match TensorFlow's).
#include <string>
#include <vector>

#include "reshard/random.h"
#include "reshard/shuffle.h"

namespace tfq::reshard {

Status RunWindowShuffle(const std::vector<std::string>& paths, const ShuffleOptions& options,
                        RunSummary* summary) {
  ShardSetOptions out = options.output;
  out.buffer_bytes = std::min<size_t>(out.buffer_bytes,
                                      std::max<size_t>(64 << 10, (size_t{256} << 20) / options.shards));
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<ShardSet> created, ShardSet::Create(out));
  ShardSet& set = *created;
  // The count is unknown until the end, so shards are dealt round-robin and all stay open.
  for (uint64_t k = 0; k < options.shards; ++k) TFQ_RETURN_IF_ERROR(set.Open(k));

  Xoshiro256 rng(options.seed);
  std::vector<std::string> buffer;  // strings keep their capacity when overwritten
  buffer.reserve(static_cast<size_t>(std::min<uint64_t>(options.window, uint64_t{1} << 20)));
  uint64_t written = 0;
  auto emit = [&](const std::string& record) { return set.Write(written++ % options.shards, record); };

  RecordSource source(paths, options.input);
  std::string_view record;
  while (source.Next(&record)) {
    summary->expected.Add(record);
    if (buffer.size() < options.window) {
      buffer.emplace_back(record);
      continue;
    }
    std::string& slot = buffer[rng.Below(buffer.size())];
    TFQ_RETURN_IF_ERROR(emit(slot));
    slot.assign(record);
  }
  summary->records_read = source.records();
  summary->bytes_read = source.source_bytes_read();
  summary->skipped = source.skipped();
  TFQ_RETURN_IF_ERROR(source.status());
  while (!buffer.empty()) {
    const size_t i = rng.Below(buffer.size());
    TFQ_RETURN_IF_ERROR(emit(buffer[i]));
    buffer[i].swap(buffer.back());
    buffer.pop_back();
  }

  summary->method = "window of " + std::to_string(options.window) + " records";
  summary->written = set.checksum();
  summary->bytes_written = set.bytes_written();
  TFQ_RETURN_IF_ERROR(CheckChecksums(*summary));
  TFQ_RETURN_IF_ERROR(set.Commit(options.shards));
  summary->shards = set.shards();
  return Status::OK();
}

}  // namespace tfq::reshard
