// Closing outputs that only make sense together (the shards of one set): all or nothing.
//
// Each OutputStream renames its own temporary on Close, so closing N shards one by one has
// instants where some are in place and others are not. A failure (disk full while flushing shard
// 3) or an interrupt then would leave part of a set that looks finished. CloseTogether keeps the
// final names registered with the interrupt cleanup (io/cleanup.h) until every output is
// complete, and removes the completed ones again if one fails. It first finishes writing every
// output (OutputStream::FinishWriting: the flushes and closes, all that can fail but the renames),
// then renames them back to back, so that even a SIGKILL, which no cleanup follows, leaves part of
// a set only when it falls between two renames (docs/reliability.md).
#ifndef TFQ_IO_OUTPUT_SET_H_
#define TFQ_IO_OUTPUT_SET_H_

#include <span>

#include "common/status.h"
#include "io/output_stream.h"

namespace tfq {

// Closes `outputs` (null entries are skipped) in order and stops at the first failure, returning
// it; the outputs completed before it are removed, and those after it are left unclosed for the
// caller to destroy (which removes their temporaries). An interrupt during the call removes the
// whole set. Outputs that are not regular files (standard output, /dev/null) are closed but
// never removed. Note that a file that already existed under a final name (an earlier run's
// output) is removed too when the set is interrupted before its rename: the set is replaced
// whole or not at all.
Status CloseTogether(std::span<OutputStream* const> outputs);

}  // namespace tfq

#endif  // TFQ_IO_OUTPUT_SET_H_
