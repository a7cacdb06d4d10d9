// FdWriter: buffered, complete writes to a file descriptor.
//
// The one place that calls write(2), so that EINTR, partial writes, a full disk and a closed pipe
// are handled the same way for files, devices and standard output. Internal to src/io, except
// WriteFully, which reshard's writer lanes (reshard/write_queue.h) call on their staged files.
#ifndef TFQ_IO_FD_WRITER_H_
#define TFQ_IO_FD_WRITER_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "common/page_buffer.h"
#include "common/status.h"

namespace tfq {

// Writes all of [data, data + size) to `fd`, retrying after EINTR and partial writes. Returns 0 or
// the errno of the failed write.
int WriteFully(int fd, const char* data, size_t size);

// The Status for a failed write of the output called `name`: a full disk says so in plain words,
// EPIPE is kBrokenPipe, anything else is kIoError with strerror.
Status WriteError(const std::string& name, int errno_value);

class FdWriter {
 public:
  // Writes to `fd` (not owned) through a buffer of `capacity` bytes; errors name `name`.
  FdWriter(int fd, std::string name, size_t capacity);

  // Buffers `data`, writing out full buffers; data larger than the buffer is written directly.
  // After an error every call returns that error.
  Status Write(std::string_view data);
  // Writes out whatever is buffered.
  Status Flush();

 private:
  Status WriteOut(const char* data, size_t size);

  const int fd_;
  const std::string name_;
  const size_t capacity_;
  PageBuffer buffer_;  // allocated on the first buffered write (common/page_buffer.h says why)
  size_t used_ = 0;
  Status error_;
};

}  // namespace tfq

#endif  // TFQ_IO_FD_WRITER_H_
