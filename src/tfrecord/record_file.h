// RecordFile: random access to the records of one TFRecord file, plain, gzip or zlib.
//
// Opening finds every record's offset: from the index beside the file (FILE.idx, DALI's
// tfrecord2idx format, tfrecord/record_index.h; for a compressed file also FILE.tfqgzidx, the
// access points of io/access_points.h) when it is there and matches the file, else by walking the
// file's headers once (and, if asked, writing the indexes for next time). Get(i) then reads record
// i alone: one pread for a plain file; for a compressed one, inflating from the last access point
// before it (about 0.5 MiB of output on average) instead of from the start.
//
// An index from disk is checked cheaply before it is used: it must be whole (record_index.h), end
// where the stream ends (the file's size; for a compressed file the size its access points were
// built for, whose fingerprint must match the file), and its first and last records must start
// with headers whose length CRCs verify and whose lengths agree with the index. Get(i) still
// checks both CRCs of every record it returns; a record that does not agree with an index read
// from disk is reported naming that index and how to rebuild it.
//
// Thread safety: after Open, every const method may be called from several threads at once (plain
// files are read with pread, each call to a compressed one inflates with its own state).
#ifndef TFQ_TFRECORD_RECORD_FILE_H_
#define TFQ_TFRECORD_RECORD_FILE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "io/access_points.h"
#include "io/compression.h"
#include "io/decompression_limit.h"
#include "io/random_access_file.h"
#include "tfrecord/format.h"
#include "tfrecord/record_index.h"

namespace tfq::tfrecord {

struct RecordFileOptions {
  Compression compression = Compression::kAuto;  // kAuto sniffs as OpenRecordInput
  uint64_t max_record_bytes = kDefaultMaxRecordBytes;
  // For the walk that builds an index of a compressed file (the one full inflate).
  DecompressionLimit decompression = DecompressionLimit::Default();
  bool read_index = true;    // use the index files when present and valid; false: always walk
  bool write_index = false;  // write the index files after a walk (each atomically)
  std::string index_path;         // the DALI index; "" = FILE.idx
  std::string access_point_path;  // compressed files' access points; "" = FILE.tfqgzidx
  uint64_t access_point_span = kDefaultAccessPointSpan;  // for indexes built here
};

class RecordFile {
 public:
  // Where the offsets came from.
  enum class IndexOrigin { kRead, kBuilt };

  // Errors: the file cannot be opened (kNotFound, ...), is not a regular file (kInvalidArgument),
  // its framing is broken where the walk meets it (kCorruption naming the record and byte), a
  // compressed file expands beyond options.decompression, or writing an index failed.
  static Result<std::unique_ptr<RecordFile>> Open(const std::string& path,
                                                  const RecordFileOptions& options = {});
  ~RecordFile();

  uint64_t size() const { return index_.size(); }  // records
  // Byte offset of record i's header in the uncompressed stream; i < size().
  uint64_t offset(uint64_t i) const { return index_.offset(i); }

  // Sets *record to the payload of record i, both CRCs verified. Errors name the file, the record
  // and its byte offset ("data.tfrecord: record 12 (byte 3456): data CRC mismatch ..."); i >=
  // size() is kInvalidArgument ("... record 12 is out of range: the file has 10 records").
  Status Get(uint64_t i, std::string* record) const;

  // Get for the record whose header starts at byte `offset` of the uncompressed stream (a position
  // saved earlier); kInvalidArgument where no record starts there.
  Status ReadAt(uint64_t offset, std::string* record) const;

  // Get for each of `indices`, which must be ascending (repeats allowed), into (*records)[k]: one
  // forward pass, so a compressed file's bytes between nearby records are inflated once.
  Status GetMany(const std::vector<uint64_t>& indices, std::vector<std::string>* records) const;

  const std::string& path() const { return file_->name(); }
  Compression compression() const { return compression_; }
  const RecordIndex& index() const { return index_; }
  // The access points of a compressed file; null for a plain one.
  const AccessPointIndex* access_points() const {
    return access_points_.has_value() ? &*access_points_ : nullptr;
  }
  IndexOrigin index_origin() const { return origin_; }
  // Why an index file present beside the file was not used ("" when none was or it was used).
  const std::string& index_rejected() const { return rejected_; }

 private:
  class Reader;
  RecordFile() = default;
  Status UseStoredIndexes(const RecordFileOptions& options);
  Status Build(const RecordFileOptions& options);
  // The `size` framed bytes at `offset` of the uncompressed stream.
  Status ReadFramed(uint64_t offset, uint64_t size, Reader* reader, std::string* framed) const;
  Status GetWith(uint64_t i, Reader* reader, std::string* record) const;

  std::unique_ptr<RandomAccessFile> file_;
  Compression compression_ = Compression::kNone;
  uint64_t max_record_bytes_ = kDefaultMaxRecordBytes;
  RecordIndex index_;
  std::optional<AccessPointIndex> access_points_;
  IndexOrigin origin_ = IndexOrigin::kBuilt;
  std::string index_name_;  // the index file the offsets came from, for messages
  std::string rejected_;
};

}  // namespace tfq::tfrecord

#endif  // TFQ_TFRECORD_RECORD_FILE_H_
