#include "inspect/scan.h"

#include <algorithm>

#include "tfrecord/open.h"

namespace tfq::inspect {
namespace {

// Record size extremes of an empty set are null, not 0.
nlohmann::json SizeOrNull(uint64_t records, uint64_t size) {
  return records ? nlohmann::json(size) : nlohmann::json(nullptr);
}

}  // namespace

bool IsDataProblem(const Status& s) {
  return s.code() == StatusCode::kCorruption || s.code() == StatusCode::kInvalidData;
}

FileReport ScanFile(const std::string& path, const ScanOptions& options,
                    const RecordCallback& on_record, const ProblemCallback& on_problem) {
  Result<tfrecord::OpenedInput> opened =
      tfrecord::OpenRecordInput(path, options.compression, options.decompression,
                                options.headers_only ? ReadPattern::kSkipping : ReadPattern::kReadAhead);
  if (!opened.ok()) {
    FileReport report;
    report.path = path;
    report.status = opened.status();
    if (on_problem) on_problem(report.status);
    return report;
  }
  tfrecord::RecordReader reader(std::move(opened->stream), options.reader);
  FileReport report = ScanRange(reader, options, UINT64_MAX, on_record, on_problem);
  report.path = path;
  report.compression = opened->compression;
  return report;
}

FileReport ScanRange(tfrecord::RecordReader& reader, const ScanOptions& options, uint64_t stop,
                     const RecordCallback& on_record, const ProblemCallback& on_problem) {
  FileReport report;
  report.path = reader.name();
  report.opened = true;
  // What the reader dropped is reported before the record after it, so problems come in order.
  auto report_skips = [&] {
    std::vector<std::string> messages = reader.TakeSkipMessages();
    if (on_problem) {
      for (std::string& m : messages) on_problem(Status::Corruption(std::move(m)));
    }
  };
  const std::string& path = reader.name();
  uint64_t boundary = reader.stream().position();  // the end of the last record read
  std::string_view record;
  while (boundary < stop) {
    const bool got = options.headers_only ? reader.Skip() : reader.Read(&record);
    report_skips();
    if (!got) break;
    boundary = reader.record_offset() + reader.record_framed_size();
    const uint64_t size = reader.record_framed_size() - tfrecord::kFramingOverhead;
    report.min_record_bytes = report.records == 0 ? size : std::min(report.min_record_bytes, size);
    report.max_record_bytes = std::max(report.max_record_bytes, size);
    ++report.records;
    report.payload_bytes += size;
    if (options.headers_only || !on_record) continue;
    Status s = on_record(record, reader);
    if (s.ok()) continue;
    if (!IsDataProblem(s)) {
      report.status = std::move(s);
      break;
    }
    ++report.record_problems;
    if (on_problem) {
      on_problem(s.WithPrefix(path + ": record " + std::to_string(reader.record_index()) +
                              " (byte " + std::to_string(reader.record_offset()) + ")"));
    }
  }
  report.skipped = reader.skipped();
  if (boundary >= stop && report.status.ok() && reader.status().ok()) {
    // Stopped at a record boundary: the reader's stream may already hold the next record.
    report.stream_bytes = report.file_bytes = boundary;
    return report;
  }
  if (report.status.ok()) report.status = reader.status();
  const tfrecord::ReadError error = reader.error();
  report.rest_unread = (error == tfrecord::ReadError::kLengthCrcMismatch ||
                        error == tfrecord::ReadError::kRecordTooLarge) &&
                       reader.stream().position() > 0;
  if (report.rest_unread && report.status.code() == StatusCode::kCorruption) {
    // At byte 0 the message already asks whether this is a TFRecord file at all.
    report.status = Status::Corruption(
        report.status.message() +
        "; the rest of the file was not read (--resync scans on for the next valid record)");
  }
  if (on_problem && !reader.status().ok()) on_problem(report.status);
  report.stream_bytes = reader.stream().position();
  report.file_bytes = reader.stream().source_bytes_read();
  return report;
}

uint64_t FileReport::damaged_records() const {
  const bool ended_by_damage = IsDataProblem(status);
  return record_problems + skipped.corrupt_records + skipped.resyncs + (ended_by_damage ? 1 : 0);
}

bool FileReport::unreadable() const {
  return !status.ok() && !IsDataProblem(status) && status.code() != StatusCode::kCancelled &&
         status.code() != StatusCode::kBrokenPipe;
}

nlohmann::json FileReport::ToJson() const {
  if (!opened) return {{"path", path}, {"error", status.message()}};
  nlohmann::json j = {{"path", path},
                      {"compression", CompressionName(compression)},
                      {"file_bytes", file_bytes},
                      {"stream_bytes", stream_bytes},
                      {"records", records},
                      {"payload_bytes", payload_bytes},
                      {"min_record_bytes", SizeOrNull(records, min_record_bytes)},
                      {"max_record_bytes", SizeOrNull(records, max_record_bytes)},
                      {"record_problems", record_problems},
                      {"damaged_records", damaged_records()},
                      {"rest_unread", rest_unread},
                      {"skipped_corrupt_records", skipped.corrupt_records},
                      {"resyncs", skipped.resyncs},
                      {"resync_bytes", skipped.resync_bytes}};
  j["error"] = status.ok() ? nlohmann::json(nullptr) : nlohmann::json(status.message());
  return j;
}

nlohmann::json TotalsJson(const std::vector<FileReport>& reports) {
  uint64_t records = 0, file_bytes = 0, stream_bytes = 0, payload = 0, problems = 0, skipped = 0;
  uint64_t damaged = 0;
  uint64_t min_rec = 0, max_rec = 0;
  bool any = false;
  int errors = 0;
  for (const auto& r : reports) {
    if (r.records > 0) {
      min_rec = any ? std::min(min_rec, r.min_record_bytes) : r.min_record_bytes;
      max_rec = std::max(max_rec, r.max_record_bytes);
      any = true;
    }
    records += r.records;
    file_bytes += r.file_bytes;
    stream_bytes += r.stream_bytes;
    payload += r.payload_bytes;
    problems += r.record_problems;
    skipped += r.skipped.corrupt_records;
    damaged += r.damaged_records();
    errors += r.status.ok() ? 0 : 1;
  }
  return {{"files", reports.size()},        {"records", records},
          {"file_bytes", file_bytes},       {"stream_bytes", stream_bytes},
          {"payload_bytes", payload},       {"min_record_bytes", SizeOrNull(records, min_rec)},
          {"max_record_bytes", SizeOrNull(records, max_rec)},    {"record_problems", problems},
          {"skipped_corrupt_records", skipped}, {"damaged_records", damaged},
          {"files_with_errors", errors}};
}

}  // namespace tfq::inspect
