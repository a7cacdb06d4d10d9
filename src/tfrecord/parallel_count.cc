#include "tfrecord/parallel_count.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <thread>
#include <vector>

#include "io/file_streams.h"
#include "tfrecord/format.h"

namespace tfq::tfrecord {
namespace {

// How far into its segment a thread looks for a header. Records are found within one record's
// length; a segment with none in this stretch (records larger than this) is walked from the
// confirmed boundary instead. Bounded because the search costs a CRC per byte.
constexpr uint64_t kHeaderSearchBytes = uint64_t{1} << 20;

// One segment's speculative walk.
struct SegmentWalk {
  uint64_t begin = 0;               // nominal bounds: [begin, end)
  uint64_t end = 0;
  std::optional<uint64_t> start;    // where the walk began: a plausible header, if one was found
  HeaderTally tally;                // records from *start to the first boundary >= end
  bool clean = false;               // the walk met no framing problem
};

// Walks from the record header at `stream`'s position to the first record boundary at or past
// `stop`, or to the end of the stream. Returns false on any framing or stream problem.
bool WalkHeaders(std::unique_ptr<InputStream> stream, const RecordReaderOptions& options,
                 uint64_t stop, HeaderTally* tally) {
  RecordReader reader(std::move(stream), options);
  tally->end_offset = reader.stream().position();
  while (tally->end_offset < stop && reader.Skip()) {
    tally->Add(reader.record_framed_size() - kFramingOverhead);
    tally->end_offset = reader.record_offset() + reader.record_framed_size();
  }
  return reader.status().ok();
}

// A stream over `path` positioned at `offset`, or nullptr.
std::unique_ptr<InputStream> OpenAt(const std::string& path, uint64_t offset) {
  Result<std::unique_ptr<InputStream>> stream = OpenInputFile(path, ReadPattern::kSkipping);
  if (!stream.ok()) return nullptr;
  uint64_t skipped = 0;
  if (!(*stream)->Skip(offset, &skipped).ok() || skipped != offset) return nullptr;
  return std::move(*stream);
}

// Finds the first plausible header of segment `walk` (the first segment starts at byte 0, a
// known boundary) and walks from it to the segment's end.
void WalkSegment(const std::string& path, const RecordReaderOptions& options, SegmentWalk* walk) {
  std::unique_ptr<InputStream> stream = OpenAt(path, walk->begin);
  if (stream == nullptr) return;
  if (walk->begin > 0) {
    std::string_view window;
    const uint64_t search = std::min(kHeaderSearchBytes, walk->end - walk->begin) + kHeaderSize - 1;
    if (!stream->Peek(search, &window).ok()) return;
    window = window.substr(0, search);
    const size_t found = FindPlausibleHeader(window, options.max_record_bytes);
    if (found == std::string_view::npos) return;
    stream->Consume(found);
  }
  walk->start = stream->position();
  walk->clean = WalkHeaders(std::move(stream), options, walk->end, &walk->tally);
}

bool IsWorthSplitting(const std::string& path, Compression compression,
                      const RecordReaderOptions& options, int threads,
                      uint64_t min_bytes_per_thread, uint64_t* size) {
  if (path == "-" || threads < 2) return false;
  if (compression != Compression::kAuto && compression != Compression::kNone) return false;
  if (options.on_corruption == CorruptionPolicy::kResync) return false;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  char header[kHeaderSize];
  const bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  // kAuto: a first header that verifies is how OpenRecordInput recognises an uncompressed file.
  const bool plain = compression == Compression::kNone ||
                     (pread(fd, header, kHeaderSize, 0) == static_cast<ssize_t>(kHeaderSize) &&
                      HeaderCrcValid(header));
  close(fd);
  *size = static_cast<uint64_t>(st.st_size);
  return regular && plain && *size >= 2 * min_bytes_per_thread;
}

}  // namespace

void HeaderTally::Add(uint64_t payload) {
  min_payload_bytes = records == 0 ? payload : std::min(min_payload_bytes, payload);
  max_payload_bytes = std::max(max_payload_bytes, payload);
  payload_bytes += payload;
  ++records;
}

void HeaderTally::Append(const HeaderTally& next) {
  if (next.records > 0) {
    min_payload_bytes =
        records == 0 ? next.min_payload_bytes : std::min(min_payload_bytes, next.min_payload_bytes);
    max_payload_bytes = std::max(max_payload_bytes, next.max_payload_bytes);
  }
  records += next.records;
  payload_bytes += next.payload_bytes;
  end_offset = next.end_offset;
}

std::optional<HeaderTally> CountRecordsInParallel(const std::string& path, Compression compression,
                                                  const RecordReaderOptions& options, int threads,
                                                  uint64_t min_bytes_per_thread) {
  uint64_t size = 0;
  if (min_bytes_per_thread == 0 ||
      !IsWorthSplitting(path, compression, options, threads, min_bytes_per_thread, &size)) {
    return std::nullopt;
  }
  const uint64_t segments =
      std::min<uint64_t>(static_cast<uint64_t>(threads), size / min_bytes_per_thread);
  std::vector<SegmentWalk> walks(segments);
  for (uint64_t k = 0; k < segments; ++k) {
    walks[k].begin = size / segments * k;
    walks[k].end = k + 1 == segments ? size : size / segments * (k + 1);
  }
  {
    std::vector<std::jthread> workers;
    for (uint64_t k = 1; k < segments; ++k) {
      workers.emplace_back([&, k] { WalkSegment(path, options, &walks[k]); });
    }
    WalkSegment(path, options, &walks[0]);
  }

  // Chain the walks from byte 0: a segment's walk counts only if it began exactly where the
  // confirmed walk before it ended; otherwise that segment is walked again from there.
  HeaderTally total;
  for (const SegmentWalk& walk : walks) {
    if (walk.start == total.end_offset) {
      if (!walk.clean) return std::nullopt;
      total.Append(walk.tally);
      continue;
    }
    std::unique_ptr<InputStream> stream = OpenAt(path, total.end_offset);
    HeaderTally rewalk;
    if (stream == nullptr || !WalkHeaders(std::move(stream), options, walk.end, &rewalk)) {
      return std::nullopt;
    }
    total.Append(rewalk);
  }
  if (total.end_offset != size) return std::nullopt;  // the file changed under us
  return total;
}

}  // namespace tfq::tfrecord
