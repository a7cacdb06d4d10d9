#include "inspect/scan.h"

#include <algorithm>

#include "common/cpus.h"
#include "tfrecord/open.h"
#include "tfrecord/parallel_count.h"

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
  FileReport report;
  report.path = path;
  if (options.headers_only) {
    const std::optional<tfrecord::HeaderTally> tally = tfrecord::CountRecordsInParallel(
        path, options.compression, options.reader, UsableCpus());
    if (tally.has_value()) {
      report.opened = true;
      report.compression = Compression::kNone;
      report.file_bytes = report.stream_bytes = tally->end_offset;
      report.records = tally->records;
      report.payload_bytes = tally->payload_bytes;
      report.min_record_bytes = tally->min_payload_bytes;
      report.max_record_bytes = tally->max_payload_bytes;
      return report;
    }
  }
  report.opened = true;  // from here on the file was opened (the parallel count read it too)
  Result<tfrecord::OpenedInput> opened =
      tfrecord::OpenRecordInput(path, options.compression, options.decompression,
                                options.headers_only ? ReadPattern::kSkipping : ReadPattern::kReadAhead);
  if (!opened.ok()) {
    report.opened = false;
    report.status = opened.status();
    if (on_problem) on_problem(report.status);
    return report;
  }
  report.compression = opened->compression;
  tfrecord::RecordReader reader(std::move(opened->stream), options.reader);

  // What the reader dropped is reported before the record after it, so problems come in order.
  auto report_skips = [&] {
    std::vector<std::string> messages = reader.TakeSkipMessages();
    if (on_problem) {
      for (std::string& m : messages) on_problem(Status::Corruption(std::move(m)));
    }
  };
  std::string_view record;
  for (;;) {
    const bool got = options.headers_only ? reader.Skip() : reader.Read(&record);
    report_skips();
    if (!got) break;
    const uint64_t size = options.headers_only
                              ? reader.record_framed_size() - tfrecord::kFramingOverhead
                              : record.size();
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
  if (report.status.ok()) report.status = reader.status();
  report.skipped = reader.skipped();
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
