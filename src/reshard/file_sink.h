// Plain buffered writing to file descriptors, for the outputs and temporaries this part manages
// itself (io's FdWriter is internal to io, and io's atomic outputs rename on Close, which a set
// of shards committed together cannot use).
#ifndef TFQ_RESHARD_FILE_SINK_H_
#define TFQ_RESHARD_FILE_SINK_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/output_stream.h"
#include "reshard/write_queue.h"

namespace tfq::reshard {

// Writes all of `data` at the file position (pwrite at `offset` when offset >= 0), retrying
// after EINTR and short writes. A full disk is kIoError saying so; errors name `name`.
Status WriteAll(int fd, std::string_view data, const std::string& name, int64_t offset = -1);

// Reads exactly `size` bytes at `offset` into `dst`; a short file is kIoError.
Status ReadAllAt(int fd, char* dst, size_t size, uint64_t offset, const std::string& name);

// A sink over a descriptor it owns, buffering `buffer_bytes` (allocated at the first write).
// With a `queue` (which must outlive the sink) full buffers and copies are done by the queue's
// thread while a second buffer fills, so up to 2 * buffer_bytes are in use; errors of those
// writes surface in a later call or in Close. Writes at least as large as the buffer go straight
// to the file. AppendRange (OutputStream) is done by the queue's thread too, adjacent ranges of
// one source merged into one copy (RandomAccessFile::AppendRangeTo: inside the kernel between
// local files); without a queue it copies at once. Close() flushes and closes the descriptor, and nothing else: naming the file is
// the owner's business (reshard/shard_set.h). Destroying it unclosed waits for its queued jobs,
// closes the descriptor and drops what it still buffers.
std::unique_ptr<OutputStream> NewFileSink(int fd, std::string name, size_t buffer_bytes,
                                         WriteQueue* queue = nullptr);

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_FILE_SINK_H_
