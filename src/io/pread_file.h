// A regular file read with pread() at an offset the stream tracks (internal to src/io).
//
// Sequential reading goes through a cache-sized buffer: measured here, read() + CRC beat mmap +
// CRC on page-cached files (a kernel copy into a hot buffer costs less than mapping every page).
// Skipping past the buffer only moves the offset. What is read after a skip depends on how far it
// jumped: after a long jump (a large record stepped over) only a few hundred bytes, enough for
// the next header, because one system call per header costs less than copying the payloads in
// between; after a short jump a whole buffer, because with small records one copy of a buffer
// full of headers costs less than a system call per header.
#ifndef TFQ_IO_PREAD_FILE_H_
#define TFQ_IO_PREAD_FILE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "io/input_stream.h"

namespace tfq {

// Takes ownership of `fd`, an open regular file of `size` bytes; errors name `path`.
std::unique_ptr<InputStream> NewPreadFileStream(std::string path, int fd, uint64_t size);

}  // namespace tfq

#endif  // TFQ_IO_PREAD_FILE_H_
