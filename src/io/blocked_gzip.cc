#include "io/blocked_gzip.h"

#include <string.h>  // memmem

#include <algorithm>
#include <cstring>
#include <vector>

namespace tfq {
namespace {

constexpr uint8_t kLayoutVersion = 1;
constexpr uint16_t kPayloadBytes = 9;
constexpr uint8_t kFlagExtra = 0x04;
constexpr char kFlushMarker[4] = {0, 0, '\xff', '\xff'};  // an empty stored block's LEN, NLEN

void PutLe(std::string* s, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s->push_back(static_cast<char>(v >> (8 * i)));
}

uint32_t GetLe(const char* p, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

// The flush markers in [begin, end) of `file`: their count, and the compressed offset after
// every `every`-th (where block k * every starts). kNotFound past `max_markers`: a hostile file
// of markers alone would otherwise fill memory with them.
Status FindFlushMarkers(const RandomAccessFile& file, uint64_t begin, uint64_t end, uint64_t every,
                        uint64_t max_markers, uint64_t* count, std::vector<uint64_t>* every_after) {
  constexpr size_t kChunk = size_t{4} << 20;
  constexpr size_t kKeep = sizeof kFlushMarker - 1;  // a marker may straddle two chunks
  std::string buffer(kChunk + kKeep, '\0');
  size_t kept = 0;  // bytes at the front of buffer carried over from the last chunk
  *count = 0;
  for (uint64_t at = begin; at < end;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, end - at));
    TFQ_RETURN_IF_ERROR(file.ReadExactly(at, n, buffer.data() + kept));
    const char* base = buffer.data();
    const size_t have = kept + n;
    const uint64_t base_offset = at - kept;
    for (size_t pos = 0;;) {
      const void* hit = memmem(base + pos, have - pos, kFlushMarker, sizeof kFlushMarker);
      if (hit == nullptr) break;
      pos = static_cast<size_t>(static_cast<const char*>(hit) - base) + sizeof kFlushMarker;
      if (++*count > max_markers) return Status::NotFound(file.name() + ": more flush markers than blocks could make");
      if (*count % every == 0) every_after->push_back(base_offset + pos);
    }
    kept = std::min(kKeep, have);
    std::memmove(buffer.data(), base + have - kept, kept);
    at += n;
  }
  return Status::OK();
}

}  // namespace

std::string BlockedGzipHeader(char xfl, const GzipBlockLayout& layout) {
  std::string h("\x1f\x8b\x08", 3);
  h.push_back(static_cast<char>(kFlagExtra));
  PutLe(&h, 0, 4);  // mtime
  h.push_back(xfl);
  h.push_back('\x03');  // OS: Unix
  PutLe(&h, 4 + kPayloadBytes, 2);  // XLEN
  h += "TQ";
  PutLe(&h, kPayloadBytes, 2);
  h.push_back(static_cast<char>(kLayoutVersion));
  PutLe(&h, layout.block_bytes, 4);
  PutLe(&h, layout.independent_every, 4);
  return h;
}

Result<BlockedGzipStart> ParseBlockedGzipHeader(std::string_view b) {
  if (b.size() < 10 || b[0] != '\x1f' || b[1] != '\x8b' || b[2] != 8) {
    return Status::Corruption("not a gzip header");
  }
  // tfq writes the extra field and nothing else; any other header is another writer's.
  if (static_cast<uint8_t>(b[3]) != kFlagExtra) return Status::NotFound("no tfq block layout");
  if (b.size() < 12) return Status::Corruption("a truncated gzip header");
  const size_t xlen = GetLe(b.data() + 10, 2);
  if (b.size() < 12 + xlen) return Status::Corruption("a truncated gzip header");
  std::string_view extra = b.substr(12, xlen);
  while (extra.size() >= 4) {
    const size_t len = GetLe(extra.data() + 2, 2);
    if (extra.size() < 4 + len) return Status::Corruption("a malformed gzip extra field");
    if (extra.substr(0, 2) == "TQ" && len == kPayloadBytes && static_cast<uint8_t>(extra[4]) == kLayoutVersion) {
      BlockedGzipStart start;
      start.layout.block_bytes = GetLe(extra.data() + 5, 4);
      start.layout.independent_every = GetLe(extra.data() + 9, 4);
      start.data_offset = 12 + xlen;
      if (start.layout.block_bytes == 0 || start.layout.independent_every == 0) break;
      return start;
    }
    extra.remove_prefix(4 + len);
  }
  return Status::NotFound("no tfq block layout");
}

Result<AccessPointIndex> BlockedGzipAccessPoints(const RandomAccessFile& file) {
  const uint64_t size = file.size();
  std::string head(static_cast<size_t>(std::min<uint64_t>(size, 1024)), '\0');
  TFQ_RETURN_IF_ERROR(file.ReadExactly(0, head.size(), head.data()));
  Result<BlockedGzipStart> start = ParseBlockedGzipHeader(head);
  if (!start.ok()) return Status::NotFound(file.name() + ": " + start.status().message());
  constexpr uint64_t kTrailer = 8;
  if (size < start->data_offset + kTrailer) return Status::NotFound(file.name() + ": too short");
  char trailer[kTrailer];
  TFQ_RETURN_IF_ERROR(file.ReadExactly(size - kTrailer, kTrailer, trailer));
  const uint32_t size_mod_2_32 = GetLe(trailer + 4, 4);

  // A block of 256 KiB compresses to a few hundred bytes at the least (zeros: 275 with zlib 6),
  // so a marker every 64 bytes on average is more than blocks could make.
  const uint64_t every = start->layout.independent_every;
  uint64_t markers = 0;
  std::vector<uint64_t> point_offsets;  // where blocks every, 2 * every, ... start
  TFQ_RETURN_IF_ERROR(FindFlushMarkers(file, start->data_offset, size - kTrailer, every, size / 64 + 1,
                                       &markers, &point_offsets));
  // Every block but the last ends with a marker, the last holds at most a block: the markers add
  // up only if what the trailer's size leaves for the last block fits in one.
  const uint64_t block = start->layout.block_bytes;
  const uint64_t full = markers * block;
  const uint32_t last = size_mod_2_32 - static_cast<uint32_t>(full);
  if (last > block) return Status::NotFound(file.name() + ": its flush markers do not add up to its size");

  AccessPointIndex index;
  index.compression = Compression::kGzip;
  TFQ_ASSIGN_OR_RETURN(index.file, FingerprintOf(file));
  index.uncompressed_size = full + last;
  index.span = block * every;
  index.points.push_back(AccessPoint{0, start->data_offset, 0, {}});
  for (size_t i = 0; i < point_offsets.size(); ++i) {
    const uint64_t offset = (i + 1) * every * block;
    if (offset >= index.uncompressed_size) break;
    index.points.push_back(AccessPoint{offset, point_offsets[i], 0, {}});
  }
  return index;
}

}  // namespace tfq
