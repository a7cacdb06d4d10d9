// Options of the input pipeline (docs/pipeline.md): which files, in what order, how records are
// mixed, and how they become batches of feature columns.
//
// The stages run in this fixed order, as the usual tf.data program writes them:
//
//   files (paths, globs) -> shard files -> shuffle files -> parallel interleave -> shard records
//     -> shuffle buffer -> repeat -> batch -> parse (thread pool) -> prefetch -> Pipeline::Next
//
// Sharding and shuffling restart every epoch; a shuffle buffer drains at the end of each epoch
// (tf.data's `shuffle(...).repeat(...)`), and a batch may span two epochs (`repeat().batch()`).
// Parsing comes after batching, as tf.data recommends for Example parsing (vectorised map).
#ifndef TFQ_PIPELINE_OPTIONS_H_
#define TFQ_PIPELINE_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "pipeline/bucketing.h"
#include "io/compression.h"
#include "tfrecord/format.h"

namespace tfq::pipeline {

// tf.data's shard(num_shards, index): keep element i iff i % count == index.
struct Shard {
  uint64_t count = 1;
  uint64_t index = 0;
};

// What a bad file or record does.
enum class OnError {
  kStop,  // the first error (in interleave order) ends the pipeline and reaches the consumer
  kSkip,  // drop it, count it in SkipStats, go on
};

constexpr int64_t kRepeatForever = -1;

// Data-parallel training (docs/pipeline.md, "Ranks"): how the input is split between ranks, and
// how the ranks are evened out so that every rank gets the same number of records each epoch
// (synchronous training would otherwise hang on a rank that ran out).
enum class RankSplit : uint8_t {
  kAuto,      // by file when there are at least as many files as ranks, else by record
  kByFile,    // file i of the expanded list goes to rank i % world_size
  kByRecord,  // interleaved record i of each epoch goes to rank i % world_size
};
enum class RankBalance : uint8_t {
  kDrop,  // every rank stops each epoch at the smallest rank's record count
  kPad,   // every rank goes on to the largest rank's count, repeating its epoch from the start;
          // the repeats are marked (RecordSource::padding)
};

// The record stages (RecordStream): everything up to and including repeat.
struct ReadOptions {
  // Paths and globs, expanded in order by ExpandInputPaths (io/glob.h); "-" is standard input.
  std::vector<std::string> inputs;
  Compression compression = Compression::kAuto;  // kAuto sniffs each file
  uint64_t max_record_bytes = tfrecord::kDefaultMaxRecordBytes;
  // How far a gzip/zlib file may expand (docs/limits.md); the default stops decompression bombs.
  DecompressionLimit decompression = DecompressionLimit::Default();

  // Applied to the expanded list in its order, before any shuffling, so that workers sharing a
  // seed-less list still get disjoint files.
  Shard file_shard;
  bool shuffle_files = false;  // seeded Fisher-Yates over the (sharded) file list

  // Parallel interleave: `cycle_length` files open at once, `block_length` consecutive records
  // from each in turn. Deterministic order is exactly tf.data's interleave order; the
  // non-deterministic mode hands out whichever open file has records ready.
  size_t cycle_length = 4;
  size_t block_length = 1;
  bool deterministic = true;  // also keeps the parse pool's output in order
  size_t reader_threads = 0;  // 0: min(cycle_length, hardware threads)
  // Each open file buffers at most this many records read ahead (and stops adding once this
  // many bytes are buffered, so the byte bound can be passed by one record).
  size_t file_buffer_records = 256;
  size_t file_buffer_bytes = size_t{2} << 20;

  // Applied to the interleaved records of each epoch. Needs deterministic order: in the
  // non-deterministic mode the index of a record would depend on timing.
  Shard record_shard;

  // This process's share of the data: rank `rank` of `world_size` (docs/pipeline.md, "Ranks").
  // Replaces file_shard and record_shard, which must then be left at their defaults. Evening
  // the ranks out needs every file's record count, taken at Open by a walk over the record
  // headers of all the files (fast for uncompressed files; a compressed one is inflated).
  uint64_t rank = 0;
  uint64_t world_size = 1;
  RankSplit rank_split = RankSplit::kAuto;
  RankBalance rank_balance = RankBalance::kDrop;

  // tf.data's shuffle(buffer_size): 0 or 1 means no shuffle.
  size_t shuffle_buffer_size = 0;
  // A global shuffle without a buffer (docs/pipeline.md, "Global shuffle"): each epoch reads
  // every record of every file in a seeded permutation of them all, by random access
  // (tfrecord::RecordFile, through FILE.idx / FILE.tfqgzidx when present, else built at Open).
  // Replaces the interleave and the shuffle buffer; ranks split it by record.
  bool global_shuffle = false;
  uint64_t seed = 0;                // for the file shuffle and the shuffle buffer
  bool reshuffle_each_epoch = true;  // false: every epoch uses the same orders

  int64_t epochs = 1;  // kRepeatForever, or a count >= 0. An epoch yielding nothing ends it.

  OnError on_error = OnError::kStop;
};

enum class DType : uint8_t { kInt64, kFloat, kBytes };
std::string_view DTypeName(DType type);  // "int64", "float", "bytes"

// How the values of a bytes column are stored in a Batch.
enum class BytesLayout : uint8_t {
  kStrings,  // Column::bytes_values, one std::string per value
  kBlob,     // Column::bytes_blob + Column::bytes_offsets (num_values + 1 offsets)
  kViews,    // Column::bytes_views into the records' own bytes, which the Batch keeps alive
             // (Batch::blocks): nothing is copied, but a Batch held pins its records' read blocks
};

// One feature to extract into a column: FixedLenFeature (dense) or VarLenFeature (ragged).
// Build them with the functions below.
struct FeatureSpec {
  std::string key;
  DType dtype = DType::kInt64;
  bool ragged = false;  // true: any number of values per record (values + row splits)
  size_t length = 1;    // dense only: values per record (a scalar feature has length 1)
  // Dense only: used when the key is missing from a record; either `length` values or one value
  // repeated `length` times. Without a default a missing key is an error.
  bool has_default = false;
  std::vector<int64_t> default_int64;
  std::vector<float> default_float;
  std::vector<std::string> default_bytes;
  BytesLayout bytes_layout = BytesLayout::kStrings;
};

FeatureSpec FixedLenInt64(std::string key, size_t length = 1);
FeatureSpec FixedLenInt64(std::string key, size_t length, std::vector<int64_t> default_value);
FeatureSpec FixedLenFloat(std::string key, size_t length = 1);
FeatureSpec FixedLenFloat(std::string key, size_t length, std::vector<float> default_value);
FeatureSpec FixedLenBytes(std::string key, size_t length = 1,
                          BytesLayout layout = BytesLayout::kStrings);
FeatureSpec FixedLenBytes(std::string key, size_t length, std::vector<std::string> default_value,
                          BytesLayout layout = BytesLayout::kStrings);
FeatureSpec VarLenInt64(std::string key);
FeatureSpec VarLenFloat(std::string key);
FeatureSpec VarLenBytes(std::string key, BytesLayout layout = BytesLayout::kStrings);

// The whole pipeline: the record stages, then batching, parsing and prefetching.
struct PipelineOptions {
  ReadOptions read;

  size_t batch_size = 1;
  bool drop_remainder = false;  // drop a final batch with fewer than batch_size rows
  // Batches grouped by the length of a feature, padded (docs/pipeline.md, "Bucketing"). Its
  // batch_sizes and drop_remainder replace the two above, which must be left at their defaults.
  std::optional<BucketOptions> bucketing;

  std::vector<FeatureSpec> features;  // columns of each Batch, in this order
  // Keep the serialized records in Batch::records too (always kept when `features` is empty).
  bool keep_records = false;

  size_t parse_threads = 0;  // 0: hardware threads
  // Parsed chunks allowed to wait for the consumer, beyond the ones being parsed.
  size_t prefetch = 2;
};

// kInvalidArgument naming the first bad option; OK otherwise.
Status ValidateReadOptions(const ReadOptions& options);
Status ValidatePipelineOptions(const PipelineOptions& options);

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_OPTIONS_H_
