#include "tfrecord/record_index.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "io/file_streams.h"
#include "io/random_access_file.h"
#include "tfrecord/open.h"
#include "tfrecord/record_reader.h"

namespace tfq::tfrecord {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The next decimal number of `text` from *pos on, skipping white space before it; false if there
// is none (or it does not fit 64 bits). *line counts the newlines passed.
bool NextNumber(std::string_view text, size_t* pos, uint64_t* line, uint64_t* value) {
  while (*pos < text.size() && IsSpace(text[*pos])) {
    if (text[*pos] == '\n') ++*line;
    ++*pos;
  }
  const char* begin = text.data() + *pos;
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), *value);
  if (ec != std::errc() || (end < text.data() + text.size() && !IsSpace(*end))) return false;
  *pos += static_cast<size_t>(end - begin);
  return true;
}

bool OnlySpaceFrom(std::string_view text, size_t pos) {
  return std::all_of(text.begin() + static_cast<ptrdiff_t>(pos), text.end(), IsSpace);
}

}  // namespace

uint64_t RecordIndex::Find(uint64_t offset) const {
  auto it = std::lower_bound(bounds_.begin(), bounds_.end() - 1, offset);
  if (it == bounds_.end() - 1 || *it != offset) return npos;
  return static_cast<uint64_t>(it - bounds_.begin());
}

std::string DaliIndexPath(const std::string& record_path) { return record_path + ".idx"; }

std::string FormatDaliIndex(const RecordIndex& index) {
  std::string text;
  text.reserve(index.size() * 16);
  for (uint64_t i = 0; i < index.size(); ++i) {
    text += std::to_string(index.offset(i));
    text += ' ';
    text += std::to_string(index.framed_size(i));
    text += '\n';
  }
  return text;
}

Result<RecordIndex> ParseDaliIndex(std::string_view text, const std::string& name) {
  RecordIndex index;
  size_t pos = 0;
  uint64_t line = 1;
  for (;;) {
    if (OnlySpaceFrom(text, pos)) return index;
    while (IsSpace(text[pos])) line += text[pos++] == '\n' ? 1 : 0;
    const uint64_t record_line = line;
    uint64_t offset = 0, size = 0;
    const uint64_t record = index.size();
    auto bad = [&](const std::string& what) {
      return Status::Corruption(name + ": line " + std::to_string(record_line) + " (record " +
                                std::to_string(record) + "): " + what +
                                "; not an index of this file (write it again: tfq inspect "
                                "--index-beside)");
    };
    if (!NextNumber(text, &pos, &line, &offset) || !NextNumber(text, &pos, &line, &size)) {
      return bad("expected \"<offset> <size>\"");
    }
    if (offset != index.end()) {
      return bad("the record starts at byte " + std::to_string(offset) + ", the one before ends at " +
                 std::to_string(index.end()));
    }
    if (size < kFramingOverhead) {
      return bad("a record of " + std::to_string(size) + " bytes is smaller than its 16 bytes of framing");
    }
    index.Add(size);
  }
}

Result<RecordIndex> ReadDaliIndex(const std::string& path) {
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, RandomAccessFile::Open(path));
  std::string text(static_cast<size_t>(file->size()), '\0');
  size_t got = 0;
  TFQ_RETURN_IF_ERROR(file->Read(0, text.size(), text.data(), &got));
  text.resize(got);
  return ParseDaliIndex(text, path);
}

Status WriteIndexFile(const std::string& path, std::string_view text) {
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<OutputStream> file, CreateOutputFile(path));
  TFQ_RETURN_IF_ERROR(file->Write(text));
  return file->Close();
}

Result<BuiltIndexes> BuildIndexes(const std::string& path, const IndexBuildOptions& options) {
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<InputStream> stream, OpenInputFile(path, ReadPattern::kSkipping));
  BuiltIndexes built;
  built.compression = options.compression;
  if (built.compression == Compression::kAuto) {
    TFQ_ASSIGN_OR_RETURN(built.compression, SniffRecordCompression(*stream));
  }
  if (built.compression != Compression::kNone) {
    built.access_points.emplace();
    built.access_points->span = options.access_point_span;
    stream = NewIndexingDecompressingStream(std::move(stream), built.compression,
                                            options.decompression, &*built.access_points);
  }
  RecordReaderOptions reader_options;
  reader_options.max_record_bytes = options.max_record_bytes;
  RecordReader reader(std::move(stream), reader_options);
  while (reader.Skip()) built.records.Add(reader.record_framed_size());
  TFQ_RETURN_IF_ERROR(reader.status());
  if (built.access_points.has_value() && path != "-") {
    Result<std::unique_ptr<RandomAccessFile>> file = RandomAccessFile::Open(path);
    if (file.ok()) {
      TFQ_ASSIGN_OR_RETURN(built.access_points->file, FingerprintOf(**file));
    }
  }
  return built;
}

Status WriteIndexes(const std::string& record_path, const BuiltIndexes& built,
                    const std::string& index_path, const std::string& access_point_path) {
  if (built.access_points.has_value()) {
    if (record_path == "-") {
      return Status::InvalidArgument("cannot write an index beside standard input");
    }
    TFQ_RETURN_IF_ERROR(WriteIndexFile(
        access_point_path.empty() ? AccessPointIndexPath(record_path) : access_point_path,
        EncodeAccessPointIndex(*built.access_points)));
  }
  return WriteIndexFile(index_path.empty() ? DaliIndexPath(record_path) : index_path,
                        FormatDaliIndex(built.records));
}

Status CompareIndexes(const RecordIndex& stored, const RecordIndex& actual, const std::string& name) {
  const uint64_t common = std::min(stored.size(), actual.size());
  for (uint64_t i = 0; i < common; ++i) {
    if (stored.offset(i) == actual.offset(i) && stored.framed_size(i) == actual.framed_size(i)) continue;
    return Status::Corruption(name + ": record " + std::to_string(i) + ": the index says byte " +
                              std::to_string(stored.offset(i)) + " (" +
                              std::to_string(stored.framed_size(i)) + " bytes), the file has byte " +
                              std::to_string(actual.offset(i)) + " (" +
                              std::to_string(actual.framed_size(i)) + " bytes)");
  }
  if (stored.size() == actual.size()) return Status::OK();
  return Status::Corruption(name + ": record " + std::to_string(common) + ": the index lists " +
                            std::to_string(stored.size()) + " records, the file has " +
                            std::to_string(actual.size()));
}

}  // namespace tfq::tfrecord
