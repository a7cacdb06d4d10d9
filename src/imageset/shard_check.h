// Checking, before a merged manifest vouches for them, that the shard files the task manifests
// list are still the files those tasks wrote: a shard deleted, truncated or replaced after its
// task ran would otherwise be listed with a size and checksum it no longer has.
#ifndef TFQ_IMAGESET_SHARD_CHECK_H_
#define TFQ_IMAGESET_SHARD_CHECK_H_

#include <string>

#include "common/status.h"
#include "imageset/run_manifest.h"

namespace tfq::imageset {

// Checks every shard of `merged` (the merge of `num_tasks` task manifests of `prefix`): it must
// exist beside the prefix, have the recorded size, and, read whole, the recorded SHA-256. Up to
// `threads` shards are read at once (<= 0: one per usable CPU). Reports the lowest-index shard
// that fails, naming it, what the manifest recorded and the task to run again: kNotFound for a
// missing shard, kIoError for a size or checksum that differs or a read that fails.
Status CheckShardFiles(const std::string& prefix, const RunManifest& merged, uint64_t num_tasks, int threads);

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_SHARD_CHECK_H_
