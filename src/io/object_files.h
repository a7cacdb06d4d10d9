// Objects behind URLs as tfq's streams (internal to src/io; reached through io/file_system.h).
//
// Reading: the object's size comes from one HEAD at open; then blocks of
// TFQ_OBJECT_READ_BLOCK_MIB MiB (default 4; less for a small object, so that every read in
// flight has a block, but at least 256 KiB) are fetched with ranged GETs, up to
// TFQ_OBJECT_READS_IN_FLIGHT at once (default 8) ahead of the consumer, each on its own thread
// over the shared connection cache, so that a link with a long round trip stays busy. A skip
// within the blocks in flight uses them; a longer one drops them and starts again at the new
// offset. A body shorter than asked for is an error naming the URL, never an early end.
// Opened ReadPattern::kSkipping (`inspect --count`), the stream first reads 16 KiB at each place
// the reader needs bytes, one ranged GET each, and keeps doing so while the reader skips at least
// a block per GET on average (records of a block or more); otherwise it streams as above.
//
// Writing: bytes are buffered into parts of TFQ_UPLOAD_PART_MIB MiB (default 8, doubling every
// 1000 parts to stay under S3's 10,000); the first full part starts a multipart upload, and each
// part is uploaded while the next one fills. Close() uploads the rest and completes the upload,
// and only then does the object exist; an output smaller than one part is one PUT at Close().
// An output destroyed unclosed, or whose Close fails, aborts its upload, so no object appears.
// A process killed by a signal cannot send the abort: its upload's parts stay until a bucket
// lifecycle rule (AbortIncompleteMultipartUpload) removes them; no object appears either way.
#ifndef TFQ_IO_OBJECT_FILES_H_
#define TFQ_IO_OBJECT_FILES_H_

#include <memory>
#include <string>

#include "common/status.h"
#include "io/file_system.h"
#include "io/object_store.h"

namespace tfq {

// The FileSystem of s3://, gs://, http:// and https:// URLs.
const FileSystem* ObjectFileSystem();

// The streams, for tests that hand in their own store.
Result<std::unique_ptr<InputStream>> OpenObjectInput(std::shared_ptr<const ObjectStore> store,
                                                     const std::string& url,
                                                     ReadPattern pattern = ReadPattern::kSequential);
std::unique_ptr<RandomAccessFile> NewObjectRandomAccessFile(std::shared_ptr<const ObjectStore> store,
                                                            const std::string& url, uint64_t size);
std::unique_ptr<OutputStream> NewObjectOutput(std::shared_ptr<const ObjectStore> store,
                                              const std::string& url);

}  // namespace tfq

#endif  // TFQ_IO_OBJECT_FILES_H_
