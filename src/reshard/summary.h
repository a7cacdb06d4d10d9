// What a `tfq shard` or `tfq shuffle` run did: the numbers behind its summary line.
#ifndef TFQ_RESHARD_SUMMARY_H_
#define TFQ_RESHARD_SUMMARY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "reshard/checksum.h"
#include "reshard/shard_set.h"
#include "tfrecord/record_reader.h"

namespace tfq::reshard {

struct RunSummary {
  uint64_t records_read = 0;   // every record read from the inputs
  RecordChecksum expected;     // the records that must be in the outputs (all, or --index's)
  RecordChecksum written;      // the records handed to the output files
  std::vector<ShardInfo> shards;
  uint64_t bytes_read = 0;     // from the input files (compressed sizes)
  uint64_t bytes_written = 0;  // framed bytes of the outputs, before compression
  tfrecord::SkipReport skipped;  // what --skip-corrupt / --resync dropped
  std::string method;          // how it was done: "round-robin", "12 buckets", ...
  uint64_t temporary_bytes = 0;  // spilled to the temporary file (shuffle)
};

// OK when the outputs hold exactly the expected records; otherwise a kInternal error giving
// both counts and checksums. Called before Commit, so a mismatch leaves no outputs.
Status CheckChecksums(const RunSummary& summary);

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_SUMMARY_H_
