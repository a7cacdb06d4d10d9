// Reading the records of many TFRecord inputs as one sequence, for `tfq shard` and `tfq shuffle`.
//
// Inputs are opened one at a time, in the order given, with compression chosen or sniffed as
// tfrecord::OpenRecordInput does. Regular files are read with pread a few 512 KiB blocks ahead by
// a thread (io/read_ahead_file.h: 4 MiB, plus a record larger than a block; with one CPU, pread
// into a small buffer on the caller's thread), standard input and pipes through io/OpenInputFile.
// Not through a mapping: every byte is read (verified, hashed, mostly copied), and the kernel's
// copy into a cache-hot buffer costs less than a page fault per few pages plus an munmap per
// move of a window (measurements: docs/shard.md, docs/shuffle.md). Records get a global index
// counting from 0 across all inputs: the index
// `tfq shard --index` and the shuffle keys refer to.
#ifndef TFQ_RESHARD_RECORD_SOURCE_H_
#define TFQ_RESHARD_RECORD_SOURCE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "io/compression.h"
#include "io/input_stream.h"
#include "io/random_access_file.h"
#include "reshard/write_queue.h"
#include "tfrecord/record_reader.h"

namespace tfq::reshard {

struct InputOptions {
  Compression compression = Compression::kAuto;
  tfrecord::RecordReaderOptions reader;
  DecompressionLimit decompression = DecompressionLimit::Default();  // per input
};

struct OpenedRecordFile {
  std::unique_ptr<InputStream> stream;  // the decompressed record stream
  Compression compression = Compression::kNone;
  bool regular = false;  // a regular file: it can be read again
  uint64_t file_bytes = 0;  // its size (regular files only)
  // For regular uncompressed files: the file, open for copying records out of it (the stream's
  // offsets are then file offsets).
  std::shared_ptr<const RandomAccessFile> source;
};

// Opens one input ("-" = standard input). Errors name the path.
Result<OpenedRecordFile> OpenRecordFile(const std::string& path, const InputOptions& options);

// Opens a regular input a second time, for the shuffles that read records again one at a time
// (no access-time updates where permitted; `random_order`: no kernel read-ahead). An error says
// so ("PATH: cannot open it again: ...").
Result<std::unique_ptr<RandomAccessFile>> OpenInputAgain(const std::string& path, bool random_order = false);

// What can be known about the inputs without reading them through.
struct InputSurvey {
  uint64_t file_bytes = 0;      // total size of the regular files
  bool sizes_exact = true;      // every input is a regular uncompressed file: file_bytes is the
                                // exact size of the record streams
  bool rereadable = true;       // no standard input or pipe: a second pass is possible
  uint64_t sampled_records = 0;  // headers sampled at the start of uncompressed files ...
  uint64_t sampled_bytes = 0;    // ... and their framed size, for a mean record size
};
// Opens every file input (so a missing file is reported before any work) and samples up to
// `sample_per_file` record headers of each uncompressed regular file. Standard input, pipes and
// other streams are left unopened (reading from them here would lose bytes).
Result<InputSurvey> SurveyInputs(const std::vector<std::string>& paths, const InputOptions& options,
                                 uint64_t sample_per_file = 64);

struct RecordCount {
  uint64_t records = 0;
  uint64_t framed_bytes = 0;  // records plus framing, uncompressed
};
// Counts records with RecordReader::Skip (headers only where the stream can seek). With a
// tolerant policy, records whose data CRC would fail are counted too.
Result<RecordCount> CountRecords(const std::vector<std::string>& paths, const InputOptions& options);

class RecordSource {
 public:
  RecordSource(std::vector<std::string> paths, InputOptions options);
  RecordSource(const RecordSource&) = delete;
  RecordSource& operator=(const RecordSource&) = delete;
  ~RecordSource();

  // Sets *record to the next record of all inputs, valid until the next call. Returns false at
  // the end of the last input or on error; status() tells which.
  bool Next(std::string_view* record);

  const Status& status() const { return status_; }
  // Records returned so far; the last one returned has global index records() - 1.
  uint64_t records() const { return records_; }
  // What tolerant policies dropped, over all inputs read so far.
  const tfrecord::SkipReport& skipped() const;
  // Bytes read from the inputs so far, as stored (compressed sizes for compressed inputs).
  uint64_t source_bytes_read() const;
  // Index into the path list of the input being read, and the reader (null between inputs).
  size_t input_index() const { return input_; }
  const tfrecord::RecordReader* reader() const { return reader_.get(); }
  // The current input open for copying (OpenedRecordFile::source), or null.
  const std::shared_ptr<const RandomAccessFile>& source_file() const { return source_file_; }

 private:
  bool OpenNext();
  void FinishInput();

  const std::vector<std::string> paths_;
  const InputOptions options_;
  size_t input_ = 0;
  std::unique_ptr<tfrecord::RecordReader> reader_;
  std::shared_ptr<const RandomAccessFile> source_file_;
  uint64_t records_ = 0;
  uint64_t finished_source_bytes_ = 0;
  mutable tfrecord::SkipReport skipped_;  // finished inputs; the current one is merged on demand
  mutable tfrecord::SkipReport merged_;
  Status status_;
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_RECORD_SOURCE_H_
