// `tfq inspect --index`, `--index-beside` and `--check-index`: the offsets index of DALI's
// tfrecord2idx (FILE.idx) and, for gzip/zlib files, the access points (FILE.tfqgzidx) that make
// their records reachable without inflating from the start (tfrecord/record_index.h).
#include <algorithm>
#include <cstdio>

#include "common/json_output.h"
#include "inspect.h"
#include "io/access_points.h"
#include "io/random_access_file.h"
#include "tfrecord/record_index.h"

namespace tfq::app {
namespace {

tfrecord::IndexBuildOptions BuildOptionsOf(const inspect::ScanOptions& scan) {
  tfrecord::IndexBuildOptions build;
  build.compression = scan.compression;
  build.max_record_bytes = scan.reader.max_record_bytes;
  build.decompression = scan.decompression;
  return build;
}

// A missing index is a failed check too, said as such.
Status Missing(const Status& s, const std::string& index_path) {
  if (s.code() != StatusCode::kNotFound) return s;
  return Status::Corruption(index_path + ": missing (write it with tfq inspect --index-beside)");
}

// The access points stored for `path` against those of a fresh walk: the same file (fingerprint),
// the same points.
Status CompareAccessPoints(const AccessPointIndex& stored, const AccessPointIndex& actual,
                           const std::string& name) {
  if (!(stored.file == actual.file) || stored.compression != actual.compression) {
    return Status::Corruption(name + ": stale: it was built for another version of the file (" +
                              std::to_string(stored.file.size) + " bytes then, " +
                              std::to_string(actual.file.size) + " now, or different first or last bytes)");
  }
  if (stored.uncompressed_size != actual.uncompressed_size) {
    return Status::Corruption(name + ": it says the stream has " + std::to_string(stored.uncompressed_size) +
                              " bytes, the file has " + std::to_string(actual.uncompressed_size));
  }
  const size_t common = std::min(stored.points.size(), actual.points.size());
  for (size_t k = 0; k < common; ++k) {
    const AccessPoint& a = stored.points[k];
    const AccessPoint& b = actual.points[k];
    if (a.uncompressed_offset != b.uncompressed_offset || a.compressed_offset != b.compressed_offset ||
        a.bits != b.bits || a.window != b.window) {
      return Status::Corruption(name + ": access point " + std::to_string(k) + " (byte " +
                                std::to_string(a.uncompressed_offset) + ") does not match the file");
    }
  }
  if (stored.points.size() != actual.points.size()) {
    return Status::Corruption(name + ": it has " + std::to_string(stored.points.size()) +
                              " access points, the file " + std::to_string(actual.points.size()));
  }
  return Status::OK();
}

// One file's --check-index: OK, or the first problem found.
Status CheckIndexes(const std::string& path, tfrecord::IndexBuildOptions build, uint64_t* records,
                    bool* compressed) {
  // The stored access points' span, so that a fresh walk places its points where they should be.
  const std::string points_path = AccessPointIndexPath(path);
  Result<std::string> point_bytes = RandomAccessFile::ReadAll(points_path);
  std::optional<AccessPointIndex> stored_points;
  if (point_bytes.ok()) {
    Result<AccessPointIndex> decoded = DecodeAccessPointIndex(point_bytes.value(), points_path);
    if (decoded.ok()) {
      build.access_point_span = decoded->span;
      stored_points = std::move(decoded).value();
    } else {
      point_bytes = decoded.status();
    }
  }
  TFQ_ASSIGN_OR_RETURN(tfrecord::BuiltIndexes built, tfrecord::BuildIndexes(path, build));
  *records = built.records.size();
  *compressed = built.access_points.has_value();
  const std::string index_path = tfrecord::DaliIndexPath(path);
  Result<tfrecord::RecordIndex> stored = tfrecord::ReadDaliIndex(index_path);
  if (!stored.ok()) return Missing(stored.status(), index_path);
  TFQ_RETURN_IF_ERROR(tfrecord::CompareIndexes(stored.value(), built.records, index_path));
  if (!built.access_points.has_value()) return Status::OK();
  if (!stored_points.has_value()) return Missing(point_bytes.status(), points_path);
  return CompareAccessPoints(*stored_points, *built.access_points, points_path);
}

}  // namespace

int RunIndex(const InspectOptions& opts, const std::vector<std::string>& paths,
             const inspect::ScanOptions& scan) {
  if (opts.index && paths.size() != 1) {
    return ReportError(Status::InvalidArgument(
        "--index prints one file's index; use --index-beside to write FILE.idx for several files"));
  }
  int exit_code = kExitOk;
  nlohmann::json files = nlohmann::json::array();
  for (const auto& path : paths) {
    Result<tfrecord::BuiltIndexes> built = tfrecord::BuildIndexes(path, BuildOptionsOf(scan));
    Status s = built.ok() ? Status::OK() : built.status();
    if (s.ok() && opts.index) {
      StdoutBuffer out;
      out.buffer() = tfrecord::FormatDaliIndex(built->records);
      s = out.Finish();
      if (!s.ok()) return ReportError(s);
      continue;
    }
    if (s.ok()) s = tfrecord::WriteIndexes(path, built.value());
    if (!s.ok()) exit_code = std::max(exit_code, ReportError(s));
    const bool compressed = s.ok() && built->access_points.has_value();
    files.push_back({{"path", path},
                     {"records", s.ok() ? nlohmann::json(built->records.size()) : nlohmann::json(nullptr)},
                     {"index", s.ok() ? nlohmann::json(tfrecord::DaliIndexPath(path)) : nlohmann::json(nullptr)},
                     {"access_points", compressed ? nlohmann::json(AccessPointIndexPath(path)) : nlohmann::json(nullptr)},
                     {"error", s.ok() ? nlohmann::json(nullptr) : nlohmann::json(s.message())}});
  }
  if (opts.index_beside && opts.json) {
    std::printf("%s\n", ToJsonText(nlohmann::json({{"ok", exit_code == kExitOk}, {"files", files}})).c_str());
  }
  return exit_code;
}

int RunCheckIndex(const InspectOptions& opts, const std::vector<std::string>& paths,
                  const inspect::ScanOptions& scan) {
  int exit_code = kExitOk;
  nlohmann::json files = nlohmann::json::array();
  size_t bad = 0;
  for (const auto& path : paths) {
    uint64_t records = 0;
    bool compressed = false;
    const Status s = CheckIndexes(path, BuildOptionsOf(scan), &records, &compressed);
    if (!s.ok()) {
      ++bad;
      exit_code = std::max(exit_code, ReportError(s));
    }
    files.push_back({{"path", path},
                     {"index", tfrecord::DaliIndexPath(path)},
                     {"access_points", compressed ? nlohmann::json(AccessPointIndexPath(path)) : nlohmann::json(nullptr)},
                     {"records", records},
                     {"ok", s.ok()},
                     {"error", s.ok() ? nlohmann::json(nullptr) : nlohmann::json(s.message())}});
  }
  if (opts.json) {
    std::printf("%s\n", ToJsonText(nlohmann::json({{"ok", exit_code == kExitOk}, {"files", files}})).c_str());
  } else if (exit_code == kExitOk) {
    std::printf("OK: the indexes of %s match\n", CountOf(paths.size(), "file").c_str());
  } else {
    std::fprintf(stderr, "FAILED: the indexes of %zu of %s do not match\n", bad,
                 CountOf(paths.size(), "file").c_str());
  }
  return exit_code;
}

}  // namespace tfq::app
