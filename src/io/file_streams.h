// Opening files, standard input and standard output as streams.
#ifndef TFQ_IO_FILE_STREAMS_H_
#define TFQ_IO_FILE_STREAMS_H_

#include <memory>
#include <string>

#include "common/status.h"
#include "io/input_stream.h"
#include "io/output_stream.h"

namespace tfq {

// How the caller will read: which way of reading a regular file is cheapest.
enum class ReadPattern {
  kSequential,  // every byte (verify, decode, copy)
  kSkipping,    // small reads far apart (record headers only: `tfq inspect --count`)
  kReadAhead,   // every byte, with costly work per byte (CRC + parse: `tfq inspect --verify`)
};

// Opens `path` for reading; "-" is standard input. A regular file read kSequential goes through
// pread() into a 256 KiB buffer (grown only for larger Peeks; io/pread_file.h), and so is one read
// kSkipping, whose long skips make the next pread a small one (a file is never mapped: a mapped
// file that another process truncates kills the reader with SIGBUS, where pread reports an error
// naming the file, exit 1, and the benchmarks found pread as fast for header walks); read kReadAhead
// (and larger than a few blocks) it is read by a background thread ahead of the consumer
// (io/read_ahead_file.h), so that the copy and the caller's work overlap. Pipes, terminals and
// other special files are read with 1 MiB read() calls either way. Errors name the path:
// "data/x.tfrecord: No such file or directory" (kNotFound), a directory is kInvalidArgument
// ("data: is a directory").
Result<std::unique_ptr<InputStream>> OpenInputFile(const std::string& path,
                                                   ReadPattern pattern = ReadPattern::kSequential);

// The stream OpenInputFile makes for a regular file, for callers that open it themselves: takes
// ownership of `fd`, open on a regular file of `size` bytes; errors name `path`.
std::unique_ptr<InputStream> NewRegularFileStream(std::string path, int fd, uint64_t size,
                                                  ReadPattern pattern);

// An InputStream over bytes held in memory (tests, fuzzers, in-memory fakes of files).
std::unique_ptr<InputStream> NewMemoryInputStream(std::string name, std::string bytes);

// Creates `path` for writing through a hidden temporary beside it (".tfq-partial.<name>.<pid>"
// in the same directory, so a glob such as "train-*" never matches it), buffered. Close()
// renames the temporary to `path`; destroying the stream without Close() deletes it. The
// temporary is registered with the interrupt cleanup (io/cleanup.h) while it exists.
// "-" is standard output (written directly; a closed pipe is a kBrokenPipe error).
//
// Details: writes go through a 1 MiB buffer, so errors may surface only in a later Write or in
// Close. An existing path that is not a regular file (/dev/null, a FIFO, a process substitution)
// is written in place like standard output rather than replaced. A full disk is kIoError saying
// "PATH: disk full (...)". Missing folders above `path` are created (io/paths.h); "", a URL, a
// directory or a path ending in "/" is kInvalidArgument. Close() does not fsync. Destroying an unclosed standard-output stream
// drops what it still buffers. Write after Close, or a second Close, is kInternal.
Result<std::unique_ptr<OutputStream>> CreateOutputFile(const std::string& path);

// An OutputStream that appends to *out (tests). Close() does nothing else.
std::unique_ptr<OutputStream> NewStringOutputStream(std::string name, std::string* out);

}  // namespace tfq

#endif  // TFQ_IO_FILE_STREAMS_H_
