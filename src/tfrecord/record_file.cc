#include "tfrecord/record_file.h"

#include <optional>
#include <utility>

#include "io/file_streams.h"
#include "io/random_inflate.h"
#include "tfrecord/record_reader.h"

namespace tfq::tfrecord {
namespace {

std::string Where(const std::string& path, uint64_t i, uint64_t offset) {
  return path + ": record " + std::to_string(i) + " (byte " + std::to_string(offset) + ")";
}

}  // namespace

// What one thread needs to read records: for a compressed file, its own inflate state.
class RecordFile::Reader {
 public:
  explicit Reader(const RecordFile& file) {
    if (file.access_points_.has_value()) inflater.emplace(*file.file_, *file.access_points_);
  }
  std::optional<PointInflater> inflater;
};

RecordFile::~RecordFile() = default;

Result<std::unique_ptr<RecordFile>> RecordFile::Open(const std::string& path,
                                                     const RecordFileOptions& options) {
  std::unique_ptr<RecordFile> rf(new RecordFile);
  TFQ_ASSIGN_OR_RETURN(rf->file_, RandomAccessFile::Open(path));
  rf->max_record_bytes_ = options.max_record_bytes;
  rf->compression_ = options.compression;
  if (rf->compression_ == Compression::kAuto) {
    // As OpenRecordInput sniffs: a verifying header (or nothing) is a plain file.
    char first[kHeaderSize];
    size_t got = 0;
    TFQ_RETURN_IF_ERROR(rf->file_->Read(0, kHeaderSize, first, &got));
    rf->compression_ = got == 0 || (got == kHeaderSize && HeaderCrcValid(first))
                           ? Compression::kNone
                           : SniffCompression(std::string_view(first, got));
  }
  if (options.read_index) {
    Status s = rf->UseStoredIndexes(options);
    if (s.ok()) return rf;
    if (s.code() != StatusCode::kNotFound) rf->rejected_ = s.message();
  }
  TFQ_RETURN_IF_ERROR(rf->Build(options));
  return rf;
}

Status RecordFile::Build(const RecordFileOptions& options) {
  IndexBuildOptions build;
  build.compression = compression_;
  build.max_record_bytes = options.max_record_bytes;
  build.decompression = options.decompression;
  build.access_point_span = options.access_point_span;
  TFQ_ASSIGN_OR_RETURN(BuiltIndexes built, BuildIndexes(path(), build));
  if (options.write_index) {
    TFQ_RETURN_IF_ERROR(WriteIndexes(path(), built, options.index_path, options.access_point_path));
  }
  index_ = std::move(built.records);
  access_points_ = std::move(built.access_points);
  origin_ = IndexOrigin::kBuilt;
  return Status::OK();
}

Status RecordFile::UseStoredIndexes(const RecordFileOptions& options) {
  const std::string index_path = options.index_path.empty() ? DaliIndexPath(path()) : options.index_path;
  uint64_t stream_size = file_->size();
  std::optional<AccessPointIndex> points;
  if (compression_ != Compression::kNone) {
    const std::string points_path = options.access_point_path.empty() ? AccessPointIndexPath(path())
                                                                       : options.access_point_path;
    TFQ_ASSIGN_OR_RETURN(AccessPointIndex decoded, ReadAccessPointIndexFor(*file_, compression_, points_path));
    stream_size = decoded.uncompressed_size;
    points = std::move(decoded);
  }
  TFQ_ASSIGN_OR_RETURN(RecordIndex index, ReadDaliIndex(index_path));
  if (index.end() != stream_size) {
    return Status::Corruption(index_path + ": stale: its last record ends at byte " +
                              std::to_string(index.end()) + ", the " +
                              (points ? "uncompressed stream of " : "") + path() + " has " +
                              std::to_string(stream_size) + " bytes");
  }
  // The first and last records must begin with verifying headers that agree with the index.
  Reader reader(*this);
  if (points) reader.inflater.emplace(*file_, *points);
  for (uint64_t i : {uint64_t{0}, index.size() - 1}) {
    if (index.size() == 0) break;
    const uint64_t offset = index.offset(i);
    std::string header;
    if (points) {
      TFQ_RETURN_IF_ERROR(reader.inflater->Read(offset, kHeaderSize, &header));
    } else {
      header.resize(kHeaderSize);
      size_t got = 0;
      TFQ_RETURN_IF_ERROR(file_->Read(offset, kHeaderSize, header.data(), &got));
      header.resize(got);
    }
    if (header.size() < kHeaderSize || !HeaderCrcValid(header.data()) ||
        DecodeFixed64(header.data()) + kFramingOverhead != index.framed_size(i)) {
      return Status::Corruption(index_path + ": stale: " + Where(path(), i, offset) +
                                " does not start with a header of the " +
                                std::to_string(index.framed_size(i)) + "-byte record it lists");
    }
  }
  index_ = std::move(index);
  access_points_ = std::move(points);
  origin_ = IndexOrigin::kRead;
  index_name_ = index_path;
  return Status::OK();
}

Status RecordFile::ReadFramed(uint64_t offset, uint64_t size, Reader* reader,
                              std::string* framed) const {
  if (reader->inflater.has_value()) return reader->inflater->Read(offset, size, framed);
  framed->resize(size);
  size_t got = 0;
  TFQ_RETURN_IF_ERROR(file_->Read(offset, size, framed->data(), &got));
  framed->resize(got);
  return Status::OK();
}

Status RecordFile::GetWith(uint64_t i, Reader* reader, std::string* record) const {
  if (i >= size()) {
    return Status::InvalidArgument(path() + ": record " + std::to_string(i) +
                                   " is out of range: the file has " + std::to_string(size()) +
                                   " records");
  }
  const uint64_t offset = index_.offset(i);
  const uint64_t size = index_.framed_size(i);
  // A record that does not agree with an index read from disk says which index misled.
  const std::string note =
      origin_ == IndexOrigin::kRead
          ? "; the offsets came from " + index_name_ +
                ": if the file was rewritten, delete the index or write it again (tfq inspect "
                "--index-beside)"
          : "";
  if (size > max_record_bytes_ + kFramingOverhead) {
    return Status::ResourceExhausted(Where(path(), i, offset) + ": record of " + std::to_string(size) +
                                     " bytes exceeds the cap of " + std::to_string(max_record_bytes_) +
                                     " bytes (raise it with --max-record-size if the file is genuine)" + note);
  }
  std::string framed;
  TFQ_RETURN_IF_ERROR(ReadFramed(offset, size, reader, &framed));
  if (framed.size() >= kHeaderSize && HeaderCrcValid(framed.data()) &&
      DecodeFixed64(framed.data()) + kFramingOverhead != size) {
    return Status::Corruption(Where(path(), i, offset) + ": the index gives the record " +
                              std::to_string(size) + " bytes, its header " +
                              std::to_string(DecodeFixed64(framed.data()) + kFramingOverhead) + note);
  }
  if (framed.empty()) {
    return Status::Corruption(Where(path(), i, offset) + ": the file ends before the record" + note);
  }
  RecordReaderOptions options;
  options.max_record_bytes = max_record_bytes_;
  RecordReader records(NewMemoryInputStream(path(), std::move(framed)), options);
  records.StartAt(i, offset);
  std::string_view payload;
  if (!records.Read(&payload)) {
    const Status& s = records.status();
    if (s.ok()) return Status::Corruption(Where(path(), i, offset) + ": the file ends before the record" + note);
    return Status(s.code(), s.message() + note);
  }
  record->assign(payload);
  return Status::OK();
}

Status RecordFile::Get(uint64_t i, std::string* record) const {
  Reader reader(*this);
  return GetWith(i, &reader, record);
}

Status RecordFile::ReadAt(uint64_t offset, std::string* record) const {
  const uint64_t i = index_.Find(offset);
  if (i == RecordIndex::npos) {
    return Status::InvalidArgument(path() + ": no record starts at byte " + std::to_string(offset) +
                                   " (of the " + (compression_ == Compression::kNone ? "" : "uncompressed ") +
                                   "stream; " + std::to_string(size()) + " records end at byte " +
                                   std::to_string(index_.end()) + ")");
  }
  return Get(i, record);
}

Status RecordFile::GetMany(const std::vector<uint64_t>& indices,
                           std::vector<std::string>* records) const {
  records->resize(indices.size());
  Reader reader(*this);
  for (size_t k = 0; k < indices.size(); ++k) {
    if (k > 0 && indices[k] < indices[k - 1]) {
      return Status::InvalidArgument(path() + ": GetMany needs ascending record indices (" +
                                     std::to_string(indices[k]) + " follows " +
                                     std::to_string(indices[k - 1]) + ")");
    }
    TFQ_RETURN_IF_ERROR(GetWith(indices[k], &reader, &(*records)[k]));
  }
  return Status::OK();
}

}  // namespace tfq::tfrecord
