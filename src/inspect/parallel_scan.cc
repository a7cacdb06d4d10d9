#include "inspect/parallel_scan.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "io/file_streams.h"
#include "tfrecord/format.h"

namespace tfq::inspect {
namespace {

// How far into its stretch a worker looks for a header. Records are found within one record's
// length; a stretch with none in this window (records larger than this) is read from the
// confirmed boundary instead. Bounded because the search costs a CRC per byte.
constexpr uint64_t kHeaderSearchBytes = uint64_t{1} << 20;

struct Unit {
  size_t file = 0;
  bool whole = true;       // the whole file, read by ScanFile
  uint64_t begin = 0;      // a stretch: nominal bounds [begin, end)
  uint64_t end = 0;
  // Results.
  std::optional<uint64_t> start;  // a stretch: where its read began (a plausible header)
  FileReport report;
  std::unique_ptr<RecordSink> sink;
  std::vector<Status> problems;
  uint64_t unlisted = 0;
  bool done = false;
};

// Collects a unit's problems, keeping at most `cap` messages of damaged data.
ProblemCallback Collector(Unit* unit, uint64_t cap) {
  return [unit, cap](const Status& s) {
    if (IsDataProblem(s) && unit->problems.size() >= cap) {
      ++unit->unlisted;
      return;
    }
    unit->problems.push_back(s);
  };
}

RecordCallback ToSink(RecordSink* sink) {
  if (sink == nullptr) return nullptr;
  return [sink](std::string_view record, const tfrecord::RecordReader& reader) {
    return sink->Add(record, reader);
  };
}

// Whether `path` is an uncompressed regular file that can be read from any offset; *size is set.
bool IsSplittable(const std::string& path, const ScanOptions& options, uint64_t* size) {
  if (path == "-" || options.reader.on_corruption == tfrecord::CorruptionPolicy::kResync) return false;
  if (options.compression != Compression::kAuto && options.compression != Compression::kNone) {
    return false;
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  char header[tfrecord::kHeaderSize];
  const bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  // kAuto: a first header that verifies is how OpenRecordInput recognises an uncompressed file.
  const bool plain = options.compression == Compression::kNone ||
                     (pread(fd, header, tfrecord::kHeaderSize, 0) ==
                          static_cast<ssize_t>(tfrecord::kHeaderSize) &&
                      tfrecord::HeaderCrcValid(header));
  close(fd);
  *size = regular ? static_cast<uint64_t>(st.st_size) : 0;
  return regular && plain;
}

// Reads the stretch of `unit` from `from` (a record boundary: record `index`) or, without one,
// from the first plausible header at or after unit->begin, to the first boundary at or past
// unit->end. Fills the unit's results; a fresh sink each time.
void ReadStretch(const std::string& path, const ScanOptions& options, const SinkFactory& make_sink,
                 uint64_t cap, std::optional<uint64_t> from, uint64_t index, Unit* unit) {
  unit->sink = make_sink ? make_sink() : nullptr;
  unit->problems.clear();
  unit->unlisted = 0;
  unit->start.reset();
  unit->report = FileReport{};
  unit->report.path = path;
  const uint64_t offset = from.value_or(unit->begin);
  Result<std::unique_ptr<InputStream>> stream = OpenInputFile(
      path, options.headers_only ? ReadPattern::kSkipping : ReadPattern::kSequential);
  uint64_t skipped = 0;
  if (stream.ok() && (!(*stream)->Skip(offset, &skipped).ok() || skipped != offset)) {
    stream = Status::IoError(path + ": the file is shorter than when the scan began");
  }
  if (!stream.ok()) {
    if (!from.has_value()) return;  // a guess: read again from the confirmed boundary
    unit->report.status = stream.status();
    unit->problems.push_back(stream.status());
    return;
  }
  if (!from.has_value()) {
    std::string_view window;
    const uint64_t search =
        std::min(kHeaderSearchBytes, unit->end - unit->begin) + tfrecord::kHeaderSize - 1;
    if (!(*stream)->Peek(search, &window).ok()) return;
    const size_t found = tfrecord::FindPlausibleHeader(window.substr(0, search),
                                                       options.reader.max_record_bytes);
    if (found == std::string_view::npos) return;
    (*stream)->Consume(found);
  }
  unit->start = (*stream)->position();
  tfrecord::RecordReader reader(std::move(*stream), options.reader);
  reader.StartAt(index, 0);  // the stream was skipped to the offset: only the index needs telling
  unit->report = ScanRange(reader, options, unit->end, ToSink(unit->sink.get()), Collector(unit, cap));
  unit->report.path = path;
}

void ReadUnit(const std::vector<std::string>& paths, const ScanOptions& options,
              const SinkFactory& make_sink, uint64_t cap, Unit* unit) {
  const std::string& path = paths[unit->file];
  if (!unit->whole) {
    // The first stretch starts at a known boundary, record 0; the others guess.
    const std::optional<uint64_t> from =
        unit->begin == 0 ? std::optional<uint64_t>(0) : std::nullopt;
    ReadStretch(path, options, make_sink, cap, from, 0, unit);
    return;
  }
  unit->sink = make_sink ? make_sink() : nullptr;
  unit->report = ScanFile(path, options, ToSink(unit->sink.get()), Collector(unit, cap));
}

// Adds a stretch's report to its file's, as if one reader had gone on.
void AppendReport(const FileReport& part, FileReport* file) {
  if (part.records > 0) {
    file->min_record_bytes = file->records == 0 ? part.min_record_bytes
                                                : std::min(file->min_record_bytes, part.min_record_bytes);
    file->max_record_bytes = std::max(file->max_record_bytes, part.max_record_bytes);
  }
  file->records += part.records;
  file->payload_bytes += part.payload_bytes;
  file->record_problems += part.record_problems;
  file->skipped.corrupt_records += part.skipped.corrupt_records;
  file->skipped.resyncs += part.skipped.resyncs;
  file->skipped.resync_bytes += part.skipped.resync_bytes;
  file->stream_bytes = part.stream_bytes;
  file->file_bytes = part.file_bytes;
  file->status = part.status;
  file->rest_unread = part.rest_unread;
}

// Units in input order, and the hand-over between the workers and the merging thread: a worker
// takes the next unit only while fewer than `window` units are read or waiting to be merged.
class UnitQueue {
 public:
  UnitQueue(std::vector<Unit>* units, size_t window) : units_(units), window_(window) {}

  Unit* Take() {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return next_ >= units_->size() || next_ < merged_ + window_; });
    return next_ < units_->size() ? &(*units_)[next_++] : nullptr;
  }
  void Finish(Unit* unit) {
    std::lock_guard lock(mu_);
    unit->done = true;
    changed_.notify_all();
  }
  // Waits until unit i is read; the units before it must have been merged.
  Unit& WaitFor(size_t i) {
    std::unique_lock lock(mu_);
    merged_ = i;
    changed_.notify_all();
    changed_.wait(lock, [&] { return (*units_)[i].done; });
    return (*units_)[i];
  }

 private:
  std::vector<Unit>* units_;
  const size_t window_;
  std::mutex mu_;
  std::condition_variable changed_;
  size_t next_ = 0;
  size_t merged_ = 0;
};

}  // namespace

std::vector<std::pair<uint64_t, uint64_t>> ScanUnitRanges(uint64_t size, uint64_t unit_bytes) {
  if (unit_bytes == 0 || size < 2 * unit_bytes) return {{0, size}};
  const uint64_t n = size / unit_bytes;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (uint64_t k = 0; k < n; ++k) {
    ranges.emplace_back(k * unit_bytes, k + 1 == n ? size : (k + 1) * unit_bytes);
  }
  return ranges;
}

ScanResult ScanFiles(const std::vector<std::string>& paths, const ScanOptions& options,
                     const ParallelScanOptions& parallel, const SinkFactory& make_sink,
                     const ProblemCallback& on_problem) {
  const int threads = std::max(1, parallel.threads);
  const bool cut = threads > 1 || parallel.cut_for_one_thread;
  std::vector<Unit> units;
  std::vector<uint64_t> sizes(paths.size(), 0);
  for (size_t f = 0; f < paths.size(); ++f) {
    const auto ranges = cut && IsSplittable(paths[f], options, &sizes[f])
                            ? ScanUnitRanges(sizes[f], parallel.unit_bytes)
                            : std::vector<std::pair<uint64_t, uint64_t>>{{0, 0}};
    for (const auto& [begin, end] : ranges) {
      Unit& u = units.emplace_back();
      u.file = f;
      u.whole = ranges.size() == 1;
      u.begin = begin;
      u.end = end;
    }
  }
  const uint64_t cap = parallel.max_problem_messages;
  UnitQueue queue(&units, 2 * static_cast<size_t>(threads) + 2);
  std::vector<std::jthread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      while (Unit* unit = queue.Take()) {
        ReadUnit(paths, options, make_sink, cap, unit);
        queue.Finish(unit);
      }
    });
  }

  ScanResult result;
  result.sink = make_sink ? make_sink() : nullptr;
  // The sink first: what it noted (a SequenceExample found) is most often its first record's.
  auto hand_over = [&](Unit& unit) {
    if (result.sink) result.sink->Append(*unit.sink);
    unit.sink.reset();
    for (const Status& s : unit.problems) {
      if (on_problem) on_problem(s);
    }
    if (unit.unlisted > 0 && parallel.on_unlisted) parallel.on_unlisted(unit.unlisted);
    unit.problems = {};
  };
  size_t i = 0;
  for (size_t f = 0; f < paths.size(); ++f) {
    Unit& first = queue.WaitFor(i);
    if (first.whole) {
      hand_over(first);
      result.reports.push_back(std::move(first.report));
      ++i;
      continue;
    }
    FileReport file;
    file.path = paths[f];
    file.opened = true;
    file.compression = Compression::kNone;
    uint64_t boundary = 0, index = 0;  // confirmed: where the stretches so far ended, records framed
    bool ended = false;                // an error ended the file: the rest is not read
    for (; i < units.size() && units[i].file == f; ++i) {
      Unit& unit = queue.WaitFor(i);
      if (ended) {
        unit.sink.reset();
        continue;
      }
      // The first stretch starts at a known boundary, record 0: whatever it found is exact.
      const bool confirmed =
          unit.begin == 0 ||
          (unit.start == boundary && unit.report.status.ok() && unit.problems.empty() &&
           unit.unlisted == 0 &&
           (unit.sink == nullptr || !unit.sink->NamesRecordAfter(*result.sink)));
      if (!confirmed) {
        ReadStretch(paths[f], options, make_sink, cap, boundary, index, &unit);
      }
      AppendReport(unit.report, &file);
      hand_over(unit);
      ended = !unit.report.status.ok();
      boundary = unit.report.stream_bytes;
      index += unit.report.records + unit.report.skipped.corrupt_records;
    }
    result.reports.push_back(std::move(file));
  }
  return result;
}

}  // namespace tfq::inspect
