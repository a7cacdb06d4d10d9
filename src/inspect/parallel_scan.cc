#include "inspect/parallel_scan.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include <zlib.h>

#include "io/access_points.h"
#include "io/blocked_gzip.h"
#include "io/file_streams.h"
#include "io/object_store.h"
#include "io/random_access_file.h"
#include "io/random_inflate.h"
#include "io/shared_sequential_stream.h"
#include "tfrecord/format.h"
#include "tfrecord/open.h"

namespace tfq::inspect {
namespace {

// How far into its stretch a worker looks for a header. Records are found within one record's
// length; a stretch with none in this window (records larger than this) is read from the
// confirmed boundary instead. Bounded because the search costs a CRC per byte.
constexpr uint64_t kHeaderSearchBytes = uint64_t{1} << 20;

// A gzip or zlib file cut into stretches of its uncompressed bytes, read one of two ways:
// - through access points (io/access_points.h) that still describe it, stored beside it or
//   announced by tfq's gzip layout: stretches start near their own offsets, at points;
// - without any (a file another writer made): inflated once, in order, by whichever worker
//   needs the next bytes (io/shared_sequential_stream.h), while the others check and parse what
//   is inflated already. It is cut by the size its gzip trailer gives, or a guess for zlib.
struct IndexedFile {
  Compression compression = Compression::kGzip;
  std::shared_ptr<const RandomAccessFile> file;
  std::shared_ptr<const AccessPointIndex> index;       // read through its access points; or
  std::shared_ptr<SharedSequentialStream> inflated;  // inflated once for every stretch
};

// A gzip or zlib file without access points is cut into stretches of this many uncompressed
// bytes: the inflated bytes from the first stretch not merged to the last one read are held,
// about 2 * threads + 2 stretches. (Their sinks are folded together as they wait for the
// trailer check.)
constexpr uint64_t kInflatedUnitBytes = uint64_t{4} << 20;
// A zlib stream does not say how long it is: it is cut as if it expanded this much, more than
// TFRecord data does (images about 1x, numbers and text 2-5x, at most 37x in the test corpus).
// A file that expands more has the rest read on one thread; one that expands less ends before
// its last stretches, which then find nothing.
constexpr uint64_t kZlibExpansionGuess = 16;

// Stretches of an indexed file held at once (their sinks: statistics, for --stats) while its
// member trailer is checked, where an uncompressed file's are merged as they come: larger
// stretches beyond that. 64 keep 16 threads busy and hold about twice the sinks an uncompressed
// file's window holds at 16 threads.
constexpr size_t kMaxIndexedUnits = 64;

// The least compressed size of a gzip file whose own access points are looked for
// (io/blocked_gzip.h): below it the file is read whole, as one stretch would read it.
constexpr uint64_t kMinBlockScanBytes = uint64_t{1} << 20;

struct Unit {
  size_t file = 0;
  bool whole = true;       // the whole file, read by ScanFile
  uint64_t begin = 0;      // a stretch: nominal bounds [begin, end)
  uint64_t end = 0;
  // Results.
  std::optional<uint64_t> start;  // a stretch: where its read began (a plausible header)
  TrailerSum sum;                 // a stretch of an indexed file: its first read's checksum
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

// Whether the decompression limit could refuse some prefix of the file: checked between
// consecutive access points at their worst (the next point's output over this point's input),
// so that a file cut into stretches is one a serial read would never refuse.
bool LimitMayRefuse(const AccessPointIndex& index, const DecompressionLimit& limit) {
  if (limit.unlimited()) return false;
  const std::vector<AccessPoint>& points = index.points;
  for (size_t i = 0; i < points.size(); ++i) {
    const uint64_t out_next = i + 1 < points.size() ? points[i + 1].uncompressed_offset : index.uncompressed_size;
    if (!limit.Exceeded(out_next, points[i].compressed_offset).empty()) return true;
  }
  return false;
}

// Whether `path` can be cut into stretches read on several threads: an uncompressed regular file,
// a gzip or zlib file with access points (set in *indexed), or, when `share_inflation`, one
// without any (*indexed with `inflated`). *size is set to the uncompressed size to cut by.
bool IsSplittable(const std::string& path, const ScanOptions& options, bool share_inflation, uint64_t* size,
                  std::optional<IndexedFile>* indexed) {
  // An object is read whole, as one stream of ranged GETs.
  if (path == "-" || options.reader.on_corruption == tfrecord::CorruptionPolicy::kResync ||
      IsObjectStoreUrl(path)) {
    return false;
  }
  // Not a regular file (a pipe, a directory) or unreadable: read whole, which names the problem.
  Result<std::unique_ptr<RandomAccessFile>> file = RandomAccessFile::Open(path);
  if (!file.ok()) return false;
  char header[tfrecord::kHeaderSize];
  size_t got = 0;
  const bool has_header = (*file)->Read(0, tfrecord::kHeaderSize, header, &got).ok() && got == tfrecord::kHeaderSize;
  // kAuto: a first header that verifies is how OpenRecordInput recognises an uncompressed file.
  const bool verifies = has_header && tfrecord::HeaderCrcValid(header);
  Compression compression = options.compression;
  if (compression == Compression::kAuto && has_header && !verifies) {
    compression = SniffCompression(std::string_view(header, tfrecord::kHeaderSize));
  }
  if (compression == Compression::kNone || (compression == Compression::kAuto && verifies)) {
    *size = (*file)->size();
    return true;
  }
  if (compression != Compression::kGzip && compression != Compression::kZlib) return false;
  Result<AccessPointIndex> index = ReadAccessPointIndexFor(**file, compression, AccessPointIndexPath(path));
  // Without an index beside it, a gzip file tfq wrote announces points of its own; finding them
  // reads the compressed bytes once more, which only a file large enough to be cut repays.
  if (!index.ok() && index.status().code() == StatusCode::kNotFound && compression == Compression::kGzip &&
      (*file)->size() >= kMinBlockScanBytes) {
    index = BlockedGzipAccessPoints(**file);
  }
  if (!index.ok() && index.status().code() == StatusCode::kNotFound && share_inflation) {
    // The size to cut by: a gzip trailer's (the length mod 2^32, or the last member's), or for
    // zlib, which has none, a guess. What lies past it is read as one more stretch, and a guess
    // too large makes stretches past the end, which find nothing.
    if (compression == Compression::kGzip) {
      char isize[4];
      if (!(*file)->ReadExactly((*file)->size() - 4, 4, isize).ok()) return false;
      *size = uint64_t{static_cast<uint8_t>(isize[0])} | uint64_t{static_cast<uint8_t>(isize[1])} << 8 |
              uint64_t{static_cast<uint8_t>(isize[2])} << 16 | uint64_t{static_cast<uint8_t>(isize[3])} << 24;
    } else {
      *size = (*file)->size() * kZlibExpansionGuess;
    }
    Result<tfrecord::OpenedInput> in =
        tfrecord::OpenRecordInput(path, compression, options.decompression, ReadPattern::kSequential);
    if (!in.ok()) return false;
    // The limit is checked after each inflate step, whose size follows how the stream is read: a
    // serial read, in smaller steps, could meet it where these blocks pass. So no output so far
    // may exceed it against the input before its block, or the file is read again serially.
    const DecompressionLimit limit = options.decompression;
    SharedSequentialStream::BlockBound bound;
    if (!limit.unlimited()) {
      bound = [limit](uint64_t output, uint64_t input) { return limit.Exceeded(output, input).empty(); };
    }
    *indexed = IndexedFile{compression, std::move(file).value(), nullptr,
                           std::make_shared<SharedSequentialStream>(std::move(in->stream), size_t{1} << 20,
                                                                    std::move(bound))};
    return true;
  }
  if (!index.ok() || LimitMayRefuse(*index, options.decompression)) return false;
  *size = index->uncompressed_size;
  *indexed = IndexedFile{compression, std::move(file).value(),
                         std::make_shared<const AccessPointIndex>(std::move(index).value()), nullptr};
  return true;
}

// Stretches of an indexed file: from access point to access point, about unit_bytes each (more
// for a file that would need more than kMaxIndexedUnits), or the whole file as one.
std::vector<std::pair<uint64_t, uint64_t>> PointUnitRanges(const AccessPointIndex& index, uint64_t unit_bytes) {
  const uint64_t size = index.uncompressed_size;
  if (unit_bytes == 0 || size < 2 * unit_bytes) return {{0, size}};
  const uint64_t unit = std::max(unit_bytes, size / kMaxIndexedUnits + 1);
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  uint64_t begin = 0;
  for (const AccessPoint& p : index.points) {
    if (p.uncompressed_offset >= begin + unit && p.uncompressed_offset < size) {
      ranges.emplace_back(begin, p.uncompressed_offset);
      begin = p.uncompressed_offset;
    }
  }
  ranges.emplace_back(begin, size);
  if (ranges.size() < 2) return {{0, size}};
  return ranges;
}

// The stream a stretch reads: the file's bytes, or through the access points of an indexed file;
// `serial` reads an indexed file as ScanFile does (inflating from the start), for the messages a
// serial run gives.
Result<std::unique_ptr<InputStream>> OpenStretch(const std::string& path, const ScanOptions& options,
                                                 const std::optional<IndexedFile>& indexed, bool serial) {
  const ReadPattern pattern = options.headers_only ? ReadPattern::kSkipping : ReadPattern::kSequential;
  if (!indexed) return OpenInputFile(path, pattern);
  if (!serial && indexed->inflated) return indexed->inflated->NewReader();
  if (!serial) return std::unique_ptr<InputStream>(std::make_unique<PointInflatingStream>(indexed->file, indexed->index));
  TFQ_ASSIGN_OR_RETURN(tfrecord::OpenedInput in,
                       tfrecord::OpenRecordInput(path, indexed->compression, options.decompression, pattern));
  return std::move(in.stream);
}

// Whether the stretches' checksums show the file's one gzip member (or zlib stream) whole: each
// stretch summed all of its range, no member ended before the end of the stream, and the
// combined CRC-32 and length (Adler-32, for zlib) are the trailer's.
bool MemberVerified(const std::vector<Unit*>& units, uint64_t size, Compression compression) {
  const bool gzip = compression == Compression::kGzip;
  uint32_t crc = gzip ? 0 : 1;
  uint64_t length = 0;
  const TrailerSum* trailer = nullptr;
  for (const Unit* u : units) {
    const TrailerSum& s = u->sum;
    if (!s.complete() || s.begin != length) return false;
    if (s.member_ends > 1 || (s.member_ends == 1 && s.last_member_end != size)) return false;
    if (s.trailer_read) trailer = &s;
    crc = static_cast<uint32_t>(gzip ? crc32_combine(crc, s.crc, static_cast<z_off_t>(s.summed))
                                     : adler32_combine(crc, s.crc, static_cast<z_off_t>(s.summed)));
    length += s.summed;
  }
  return trailer != nullptr && length == size && crc == trailer->trailer_crc &&
         (!gzip || static_cast<uint32_t>(length) == trailer->trailer_size);
}

// Reads the stretch of `unit` from `from` (a record boundary: record `index`) or, without one,
// from the first plausible header at or after unit->begin, to the first boundary at or past
// unit->end. Fills the unit's results; a fresh sink each time. An indexed file's stretch read from its start through its access points also sums its range
// for the trailer check (unit->sum), inflating on past where its records stopped if need be;
// `serial` reads an indexed file as ScanFile does instead.
void ReadStretch(const std::string& path, const std::optional<IndexedFile>& indexed, bool serial,
                 const ScanOptions& options, const SinkFactory& make_sink, uint64_t cap,
                 std::optional<uint64_t> from, uint64_t index, Unit* unit) {
  unit->sink = make_sink ? make_sink() : nullptr;
  unit->problems.clear();
  unit->unlisted = 0;
  unit->start.reset();
  unit->report = FileReport{};
  unit->report.path = path;
  const uint64_t offset = from.value_or(unit->begin);
  Result<std::unique_ptr<InputStream>> stream = OpenStretch(path, options, indexed, serial);
  PointInflatingStream* points = nullptr;
  if (stream.ok() && indexed && indexed->index && !serial && offset == unit->begin) {
    points = static_cast<PointInflatingStream*>(stream->get());
    points->SumRange(unit->begin, unit->end);
  }
  auto finish_sum = [&] {
    if (points == nullptr) return;
    points->FinishSum();
    unit->sum = points->sum();
  };
  uint64_t skipped = 0;
  if (stream.ok() && (!(*stream)->Skip(offset, &skipped).ok() || skipped != offset)) {
    stream = Status::IoError(path + ": the file is shorter than when the scan began");
    points = nullptr;
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
    const size_t found = (*stream)->Peek(search, &window).ok()
                             ? tfrecord::FindPlausibleHeader(window.substr(0, search),
                                                             options.reader.max_record_bytes)
                             : std::string_view::npos;
    if (found == std::string_view::npos) {
      finish_sum();
      return;
    }
    (*stream)->Consume(found);
  }
  unit->start = (*stream)->position();
  tfrecord::RecordReader reader(std::move(*stream), options.reader);
  reader.StartAt(index, 0);  // the stream was skipped to the offset: only the index needs telling
  unit->report = ScanRange(reader, options, unit->end, ToSink(unit->sink.get()), Collector(unit, cap));
  unit->report.path = path;
  finish_sum();  // while the reader still holds the stream
}

void ReadUnit(const std::vector<std::string>& paths, const std::vector<std::optional<IndexedFile>>& indexed,
              const ScanOptions& options, const SinkFactory& make_sink, uint64_t cap, Unit* unit) {
  const std::string& path = paths[unit->file];
  if (!unit->whole) {
    // The first stretch starts at a known boundary, record 0; the others guess.
    const std::optional<uint64_t> from =
        unit->begin == 0 ? std::optional<uint64_t>(0) : std::nullopt;
    ReadStretch(path, indexed[unit->file], /*serial=*/false, options, make_sink, cap, from, 0, unit);
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
  std::vector<std::optional<IndexedFile>> indexed(paths.size());
  // A compressed file without access points is inflated by one thread at a time, so cutting it pays
  // only where there is work besides inflating (not for headers alone) and whole files would
  // leave threads idle; and where results depend on the cut (statistics), the cut must not depend
  // on the thread count: then only a lone input file is cut.
  const bool share_inflation =
      !options.headers_only &&
      (parallel.cut_for_one_thread ? paths.size() == 1 : paths.size() < static_cast<size_t>(threads));
  for (size_t f = 0; f < paths.size(); ++f) {
    std::vector<std::pair<uint64_t, uint64_t>> ranges = {{0, 0}};
    if (cut && IsSplittable(paths[f], options, share_inflation, &sizes[f], &indexed[f])) {
      if (indexed[f] && indexed[f]->index) {
        ranges = PointUnitRanges(*indexed[f]->index, parallel.unit_bytes);
      } else if (indexed[f]) {
        const uint64_t unit = std::min(parallel.unit_bytes, kInflatedUnitBytes);
        ranges = ScanUnitRanges(sizes[f], unit);
      } else {
        ranges = ScanUnitRanges(sizes[f], parallel.unit_bytes);
      }
    }
    if (ranges.size() == 1) indexed[f].reset();  // read whole by ScanFile
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
        ReadUnit(paths, indexed, options, make_sink, cap, unit);
        queue.Finish(unit);
      }
    });
  }

  ScanResult result;
  result.sink = make_sink ? make_sink() : nullptr;
  // The sink first: what it noted (a SequenceExample found) is most often its first record's.
  auto hand_over = [&](Unit& unit) {
    if (result.sink && unit.sink) result.sink->Append(*unit.sink);
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
    file.compression = indexed[f] ? indexed[f]->compression : Compression::kNone;
    uint64_t boundary = 0, index = 0;  // confirmed: where the stretches so far ended, records framed
    bool ended = false;                // an error ended the file: the rest is not read
    // An indexed file's stretches wait until its trailer is checked: each one's checksum is in
    // only once every stretch was read.
    std::vector<Unit*> held;     // to hand over, in order: those before an error ended the file
    std::vector<Unit*> stretches;  // every stretch, for the checksum (each was read once from its start)
    // A file inflated once may have thousands of stretches held: the sink of one whose note cannot
    // be said (it noted nothing, or a held sink before it noted something: its Append prints
    // nothing) is folded into the last held sink at once, in input order, as handing both over
    // would have merged them.
    const bool fold = indexed[f] && indexed[f]->inflated && make_sink;
    Unit* fold_into = nullptr;
    auto clean = [](const Unit& u) { return u.report.status.ok() && u.problems.empty() && u.unlisted == 0; };
    // Takes a stretch read into the file's results; `exact`: it was read from the confirmed
    // boundary already.
    auto take = [&](Unit& unit, bool exact) {
      if (indexed[f]) held.push_back(&unit);
      // The first stretch starts at a known boundary, record 0: whatever it found is exact,
      // unless it was read through access points, whose messages differ from a serial read's.
      auto note_unsaid = [&] {
        return unit.sink != nullptr && unit.sink->NamesRecordAfter(*result.sink) &&
               (fold_into == nullptr || unit.sink->NamesRecordAfter(*fold_into->sink));
      };
      const bool confirmed = exact ||
          (unit.begin == 0 && (!indexed[f] || !indexed[f]->index || clean(unit))) ||
          (unit.start == boundary && clean(unit) && !note_unsaid());
      if (!confirmed) {
        ReadStretch(paths[f], indexed[f], /*serial=*/false, options, make_sink, cap, boundary, index, &unit);
        // A damaged stretch read through access points is read once more as a serial run reads
        // it (inflating from the start), so that its messages are word for word that run's. (A
        // file inflated once for every thread is read by the serial run's own stream already.)
        if (indexed[f] && indexed[f]->index && !clean(unit)) {
          ReadStretch(paths[f], indexed[f], /*serial=*/true, options, make_sink, cap, boundary, index, &unit);
          ++result.stretches_read_from_start;
        }
      }
      AppendReport(unit.report, &file);
      if (!indexed[f]) hand_over(unit);
      if (fold && unit.sink) {
        if (fold_into != nullptr && !unit.sink->NamesRecordAfter(*fold_into->sink)) {
          fold_into->sink->Append(*unit.sink);
          unit.sink.reset();
        } else {
          fold_into = &unit;
        }
      }
      ended = !unit.report.status.ok();
      boundary = unit.report.stream_bytes;
      index += unit.report.records + unit.report.skipped.corrupt_records;
    };
    for (; i < units.size() && units[i].file == f; ++i) {
      Unit& unit = queue.WaitFor(i);
      // No stretch from here on reads before this one's start, nor does a second read of it,
      // which starts at the boundary (before the start only past the end of the stream).
      if (indexed[f] && indexed[f]->inflated) indexed[f]->inflated->Release(std::min(unit.begin, boundary));
      if (indexed[f]) stretches.push_back(&unit);
      if (ended) {
        unit.sink.reset();
        continue;
      }
      take(unit, /*exact=*/false);
    }
    // A file inflated once was cut by its trailer's size, which is its length mod 2^32, or the
    // last member's length only: what follows the last stretch is read as one more, here.
    Unit rest;
    if (indexed[f] && indexed[f]->inflated && !ended) {
      rest.file = f;
      rest.whole = false;
      rest.begin = boundary;
      rest.end = UINT64_MAX;
      ReadStretch(paths[f], indexed[f], /*serial=*/false, options, make_sink, cap, boundary, index, &rest);
      take(rest, /*exact=*/true);
    }
    if (indexed[f]) {
      uint64_t inflated = 0;
      const uint64_t file_size = indexed[f]->file->size();
      const bool verified =
          indexed[f]->inflated
              // Ended early, a serial read would say how far into the compressed bytes it got,
              // which only a read from the start can tell.
              ? !ended && indexed[f]->inflated->Finish(&inflated).ok() && indexed[f]->inflated->within_bound()
              : MemberVerified(stretches, sizes[f], indexed[f]->compression);
      indexed[f].reset();  // its memory
      if (verified) {
        for (Unit* unit : held) hand_over(*unit);
        // Read to its end, the file was read whole, trailer included. (Ended early, the last
        // stretch was read again as a serial read reads it, and says how far that got.)
        if (!ended) file.file_bytes = file_size;
        ++result.compressed_files_cut;
      } else {
        // Damage only the gzip trailer can show, or another member: what a serial run says.
        for (Unit* unit : held) unit->sink.reset();
        Unit whole;
        whole.file = f;
        whole.sink = make_sink ? make_sink() : nullptr;
        file = ScanFile(paths[f], options, ToSink(whole.sink.get()), Collector(&whole, cap));
        hand_over(whole);
      }
    }
    result.reports.push_back(std::move(file));
  }
  return result;
}

}  // namespace tfq::inspect
