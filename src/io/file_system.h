// The seam between tfq and where bytes live: one FileSystem per URL scheme.
//
// OpenInputFile, RandomAccessFile::Open, CreateOutputFile, ExpandInputPaths and CloseTogether
// take local paths and URLs alike. A local path (or "-") takes the local fast paths (pread,
// read-ahead threads, temporary + rename) directly; a path with a scheme ("s3://b/k") goes to
// the FileSystem registered for that scheme. Built in: "file" (file:///abs/path, the local
// paths again), "s3", "gs", "http" and "https" (io/object_store.h). A scheme nobody registered
// is kInvalidArgument naming the URL (io/paths.h UrlNotSupported).
//
// Thread safety: lookups may run on any thread; RegisterFileSystem is for tests and main(),
// before other threads start.
#ifndef TFQ_IO_FILE_SYSTEM_H_
#define TFQ_IO_FILE_SYSTEM_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "io/file_streams.h"
#include "io/input_stream.h"
#include "io/output_stream.h"
#include "io/random_access_file.h"

namespace tfq {

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  // A sequential stream (OpenInputFile's contract).
  virtual Result<std::unique_ptr<InputStream>> OpenInput(const std::string& url, ReadPattern pattern) const = 0;
  // Positional reads from any thread (RandomAccessFile's contract).
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccess(const std::string& url) const = 0;
  // An output that appears under `url` only when Close() succeeds (OutputStream's contract).
  virtual Result<std::unique_ptr<OutputStream>> Create(const std::string& url) const = 0;
  // The URLs matching a glob pattern (* ? [...], not across '/'), sorted; empty when none match.
  virtual Result<std::vector<std::string>> Match(const std::string& pattern) const = 0;
  // kNotFound (naming the URL) unless it exists.
  virtual Status CheckExists(const std::string& url) const = 0;
  // Removes a completed output (a set of outputs that failed to complete together).
  virtual Status Remove(const std::string& url) const = 0;
};

// The FileSystem for `path`'s scheme; nullptr for a local path or an unknown scheme.
const FileSystem* FileSystemForUrl(std::string_view path);

// Makes `fs` (which must outlive every use) serve `scheme` ("mem" in tests), replacing any other.
void RegisterFileSystem(const std::string& scheme, const FileSystem* fs);

}  // namespace tfq

#endif  // TFQ_IO_FILE_SYSTEM_H_
