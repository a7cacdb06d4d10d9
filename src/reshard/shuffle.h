// Globally shuffling TFRecord inputs: the library behind `tfq shuffle` (docs/shuffle.md).
//
// The default is a uniform shuffle of all records of all inputs: record j (global index) gets
// the key ShuffleKeys(seed)(j) and the output is the records in key order, found in memory when
// they fit in the budget; otherwise, for regular uncompressed files the page cache can hold, by
// scanning them once per key range (reshard/scan_shuffle.h); for large records in files it
// cannot hold, by reading them again in key order (reshard/indexed_shuffle.h); else through
// temporary buckets (reshard/bucket_shuffle.h). The result is the same every way. The shuffled
// sequence is cut into N shards of consecutive records (sizes differ by at most one), written
// one after another.
//
// With `window` > 0 it is instead tf.data's streaming shuffle(buffer_size): a buffer of
// `window` records, each output drawn uniformly from it and replaced by the next input. Cheap
// and local (a record moves at most a few windows from its place), memory about `window`
// records regardless of `memory`; shards are dealt round-robin since the count is not known.
//
// Memory bound: `memory` bytes in all. ShuffleInputReserve(memory) of it is kept for reading the
// input, kShuffleBufferMemory for the output buffers and decompression state, and the rest holds
// records (docs/shuffle.md).
#ifndef TFQ_RESHARD_SHUFFLE_H_
#define TFQ_RESHARD_SHUFFLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "reshard/record_source.h"
#include "reshard/shard_set.h"
#include "reshard/summary.h"

namespace tfq::reshard {

constexpr uint64_t kShuffleBufferMemory = uint64_t{4} << 20;
constexpr uint64_t kMinShuffleMemory = uint64_t{24} << 20;
// memory / 16, between 8 and 64 MiB: the input's read buffer (256 KiB, grown to hold a larger
// record: records up to this size are covered).
uint64_t ShuffleInputReserve(uint64_t memory);
// The memory for records (the arena): memory less ShuffleInputReserve and kShuffleBufferMemory.
uint64_t ShuffleArenaBytes(uint64_t memory);
// The largest record payload a shuffle within `memory` accepts, whatever the method: one that
// fills the arena alone (its cost there is the payload plus 32 bytes). Every method takes such
// a record (re-scanning and re-reading hand over to buckets where their tables leave too little
// room for it); a larger one is kResourceExhausted naming it and the --memory it needs.
uint64_t ShuffleMaxRecordBytes(uint64_t memory);

struct ShuffleOptions;
// The threads compressing a gzip/zlib output (ShardSetOptions::threads) take their memory
// (kDeflateMemoryPerThread each, io/deflate_pool.h) out of --memory, at most an eighth of what it
// has above kMinShuffleMemory: with a small --memory fewer threads compress. The reserve is that
// share (0 for an uncompressed output or one thread, which compresses on the writing thread
// within the I/O share); ShuffleRecordMemory is what is left, the memory of the functions above.
uint64_t ShuffleCompressionReserve(uint64_t memory, const ShardSetOptions& output);
int ShuffleCompressThreads(uint64_t memory, const ShardSetOptions& output);
uint64_t ShuffleRecordMemory(const ShuffleOptions& options);

// How the key order is found (the output is the same): kAuto picks; the others are for tests
// and benchmarks. Buckets: in memory, or spilled to a temporary file. Indexed: the inputs are
// read twice and nothing is spilled (regular uncompressed files only; reshard/indexed_shuffle.h).
// Scan: the inputs are scanned once per key range, nothing is spilled (regular uncompressed
// files only; reshard/scan_shuffle.h).
enum class ShuffleMethod { kAuto, kBuckets, kIndexed, kScan };

struct ShuffleOptions {
  uint64_t seed = 0;
  uint64_t shards = 1;
  uint64_t memory = uint64_t{512} << 20;
  std::string tmp_dir;  // "" = the directory of the output prefix
  uint64_t window = 0;  // > 0: the streaming buffer shuffle instead
  ShuffleMethod method = ShuffleMethod::kAuto;
  InputOptions input;
  ShardSetOptions output;
};

Status ValidateShuffleOptions(const ShuffleOptions& options);

// The method kAuto runs (docs/shuffle.md): re-scanning when the inputs are regular uncompressed
// files larger than `arena_bytes` that the page cache can hold (at most half of `mem_available`)
// in at most kScanMaxPasses passes; otherwise re-reading for large records in such files;
// otherwise buckets (which stay in memory when everything fits). Sets *expected_records from the
// survey's sampled mean record size (0 when nothing was sampled).
ShuffleMethod ChooseShuffleMethod(const InputSurvey& survey, uint64_t arena_bytes,
                                  uint64_t mem_available, uint64_t* expected_records);

// Reads `paths` (already glob-expanded) and writes the shuffled shards. The outputs appear only
// if every record arrived exactly once (CheckChecksums); *summary is filled as far as it got.
Status RunShuffle(const std::vector<std::string>& paths, const ShuffleOptions& options,
                  RunSummary* summary);

// The streaming buffer shuffle (options.window > 0); RunShuffle calls it.
Status RunWindowShuffle(const std::vector<std::string>& paths, const ShuffleOptions& options,
                        RunSummary* summary);

// The directory the temporary file goes to: options.tmp_dir, or the output prefix's directory
// ($TMPDIR or /tmp for an object-store prefix).
std::string ShuffleTmpDir(const ShuffleOptions& options);

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_SHUFFLE_H_
