// Re-splitting TFRecord inputs into shards: the library behind `tfq shard` (docs/shard.md).
//
// Records are read in input order, global index j counting from 0 across all inputs, and routed:
//   round-robin (default)   record j goes to shard j % N;
//   contiguous              shard 0 gets the first records, then shard 1, ...;
//   one shard (index i of n) only records with j % n == i, into shard i of n: tf.data's
//                           Dataset.shard(n, i), so n workers together write every record once.
// The number of shards comes from --shards N, from --records-per-shard K (N = ceil(T / K)) or
// from --shard-size S (round-robin: N = ceil(framed bytes / S); contiguous: each shard is filled
// to at most S framed bytes, unless one record alone is larger, and N is known at the end).
// Round-robin with K or S and contiguous with N need the record count T (or the framed size)
// first: a headers-only pass (free for uncompressed regular files, whose size is the framed
// size), impossible for standard input.
#ifndef TFQ_RESHARD_SHARD_H_
#define TFQ_RESHARD_SHARD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "reshard/record_source.h"
#include "reshard/shard_set.h"
#include "reshard/summary.h"

namespace tfq::reshard {

struct ShardOptions {
  // Exactly one of the three, unless `single` is set.
  uint64_t shards = 0;
  uint64_t shard_bytes = 0;        // framed, uncompressed bytes per shard
  uint64_t records_per_shard = 0;
  bool contiguous = false;
  // Write only shard `index` of `num_shards` (records j with j % num_shards == index).
  bool single = false;
  uint64_t index = 0;
  uint64_t num_shards = 0;

  InputOptions input;
  ShardSetOptions output;  // buffer_bytes is chosen here from the number of open shards
};

// Checks the option combination (kInvalidArgument naming the flags).
Status ValidateShardOptions(const ShardOptions& options);

// Reads `paths` (already glob-expanded) and writes the shards. The outputs appear only if every
// record arrived exactly once (CheckChecksums); *summary is filled as far as the run got.
Status RunShard(const std::vector<std::string>& paths, const ShardOptions& options,
                RunSummary* summary);

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_SHARD_H_
