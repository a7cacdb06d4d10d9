// The offsets index of a TFRecord stream: where each record's header starts and how many bytes
// the record takes with its framing, in the uncompressed stream.
//
// On disk it is the text format of NVIDIA DALI's tools/tfrecord2idx, which DALI users already keep
// beside their files as FILE.idx: one line per record, "<offset> <framed size>\n", both decimal.
// For a gzip or zlib file the offsets are in the uncompressed stream (DALI reads no compressed
// TFRecord files; tfq pairs the .idx with an access-point index, io/access_points.h).
//
// An index is only a claim about a file. Reading one checks that it is whole (it starts at 0, each
// record starts where the one before ends, every size holds at least the 16 bytes of framing);
// RecordFile (tfrecord/record_file.h) checks it against the file before using it, and still checks
// every record's CRCs when reading it.
#ifndef TFQ_TFRECORD_RECORD_INDEX_H_
#define TFQ_TFRECORD_RECORD_INDEX_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "io/access_points.h"
#include "io/compression.h"
#include "io/decompression_limit.h"
#include "tfrecord/format.h"

namespace tfq::tfrecord {

class RecordIndex {
 public:
  static constexpr uint64_t npos = UINT64_MAX;

  uint64_t size() const { return bounds_.size() - 1; }  // records
  uint64_t offset(uint64_t i) const { return bounds_[i]; }
  uint64_t framed_size(uint64_t i) const { return bounds_[i + 1] - bounds_[i]; }
  uint64_t end() const { return bounds_.back(); }  // the byte after the last record
  // Appends the record that starts at end().
  void Add(uint64_t framed_size) { bounds_.push_back(end() + framed_size); }
  // The record whose header starts at `offset`, or npos.
  uint64_t Find(uint64_t offset) const;
  bool operator==(const RecordIndex& other) const { return bounds_ == other.bounds_; }

 private:
  std::vector<uint64_t> bounds_{0};  // record i spans [bounds_[i], bounds_[i + 1])
};

// "FILE.idx", where DALI looks for it.
std::string DaliIndexPath(const std::string& record_path);

// The tfrecord2idx text.
std::string FormatDaliIndex(const RecordIndex& index);
// Parses tfrecord2idx text (numbers separated by any white space, as DALI reads them). A
// malformed line, a record that does not start where the one before ended or one smaller than
// its framing is kCorruption naming `name` and the line.
Result<RecordIndex> ParseDaliIndex(std::string_view text, const std::string& name);

// Reads and parses `path`; kNotFound when there is none.
Result<RecordIndex> ReadDaliIndex(const std::string& path);
// Writes `text` to `path` through a temporary renamed into place (io/file_streams.h).
Status WriteIndexFile(const std::string& path, std::string_view text);

// The indexes of one record file, as built by walking it.
struct BuiltIndexes {
  Compression compression = Compression::kNone;  // what the file turned out to be
  RecordIndex records;
  // For gzip and zlib files: the access points (with the file's fingerprint where the input is a
  // regular file; standard input has none and cannot have its index written beside it).
  std::optional<AccessPointIndex> access_points;
};

struct IndexBuildOptions {
  Compression compression = Compression::kAuto;  // kAuto sniffs as OpenRecordInput
  uint64_t max_record_bytes = kDefaultMaxRecordBytes;
  DecompressionLimit decompression = DecompressionLimit::Default();
  uint64_t access_point_span = kDefaultAccessPointSpan;
};

// Walks `path` ("-" = standard input) header to header (RecordReader::Skip: each length CRC is
// checked, payloads are stepped over, read only where the file is compressed), noting access
// points as it inflates a compressed one. A framing problem is the reader's error, naming the
// record and byte offset; data CRCs are not checked (tfq inspect --verify does).
Result<BuiltIndexes> BuildIndexes(const std::string& path, const IndexBuildOptions& options);

// Writes FILE.idx (to `index_path`, "" = beside `record_path`) and, for a compressed file, the
// access points to FILE.tfqgzidx (`access_point_path`, "" = beside), each atomically.
Status WriteIndexes(const std::string& record_path, const BuiltIndexes& built,
                    const std::string& index_path = "", const std::string& access_point_path = "");

// The first difference between `stored` (read from `name`) and `actual` (walked from the file),
// as kCorruption: "NAME: record 17: the index says byte 5678 (1234 bytes), the file has byte 5678
// (1300 bytes)", or the counts where one is a prefix of the other. OK when they are equal.
Status CompareIndexes(const RecordIndex& stored, const RecordIndex& actual, const std::string& name);

}  // namespace tfq::tfrecord

#endif  // TFQ_TFRECORD_RECORD_INDEX_H_
