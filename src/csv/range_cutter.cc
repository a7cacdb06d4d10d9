#include "csv/range_cutter.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

namespace tfq::csv {
namespace {

constexpr uint32_t kUnknown = 0;
constexpr uint32_t kOutside = 1;
constexpr uint32_t kInside = 2;
constexpr uint32_t kFailed = 3;

// Read past a range's end with its own bytes, in the same read: most records end within this.
constexpr size_t kFirstOverhang = 4096;
// The least read-ahead for a record that crosses a range's end, whatever the range size (tests
// cut ranges of a few bytes).
constexpr size_t kMinMaxOverhang = size_t{64} << 10;

// The parity of the quotes in p[0, n), 0 or 1: the only part of cutting that touches every byte
// of a range. Each vector lane keeps the parity of the quotes it saw (0x00 or 0xFF).
uint32_t QuoteParity(const char* p, size_t n) {
  uint32_t parity = 0;
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  __m128i lanes = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    lanes = _mm_xor_si128(lanes, _mm_cmpeq_epi8(v, quote));
  }
  parity = static_cast<uint32_t>(std::popcount(static_cast<unsigned>(_mm_movemask_epi8(lanes))));
#endif
  for (; i < n; ++i) parity += p[i] == '"';
  return parity & 1u;
}

// The last cut p in (lo, hi) of d, or lo, scanning back from hi; in_at_hi is the quote state
// at hi.
size_t LastCut(const char* d, size_t lo, size_t hi, bool quoting, bool in_at_hi) {
  bool inside = in_at_hi;
  for (size_t p = hi - 1; p > lo; --p) {
    if (quoting && d[p] == '"') inside = !inside;  // now the state at p
    const char prev = d[p - 1];
    if (!inside && (prev == '\n' || (prev == '\r' && d[p] != '\n'))) return p;
  }
  return lo;
}

// The first cut p in [lo, hi) of d (1 <= lo; d[0, hi) readable), or hi. *in is the quote state at lo on entry, at the returned
// position on return.
size_t FirstCut(const char* d, size_t lo, size_t hi, bool quoting, bool* in) {
  bool inside = *in;
  size_t p = lo;
  for (; p < hi; ++p) {
    const char prev = d[p - 1];
    if (!inside && (prev == '\n' || (prev == '\r' && d[p] != '\n'))) break;
    if (quoting && d[p] == '"') inside = !inside;
  }
  *in = inside;
  return p;
}

}  // namespace

RangeCutter::RangeCutter(ReadAt read, uint64_t size, uint64_t start,
                         const ChunkPosition& at_start, const ParseOptions& options,
                         const ChunkerOptions& chunk_options)
    : read_(std::move(read)), size_(size), start_(std::min(start, size)), source_(at_start.source),
      first_line_(at_start.first_line), first_record_(at_start.first_record),
      quoting_(options.quoting), range_bytes_(std::max<size_t>(chunk_options.target_bytes, 1)),
      max_overhang_(std::max(range_bytes_, kMinMaxOverhang)),
      max_record_bytes_(std::max(chunk_options.max_record_bytes, range_bytes_)),
      num_ranges_((size_ - start_ + range_bytes_ - 1) / range_bytes_),
      state_(new std::atomic<uint32_t>[num_ranges_ + 1]) {
  for (size_t k = 0; k <= num_ranges_; ++k) state_[k].store(kUnknown, std::memory_order_relaxed);
  state_[0].store(kOutside, std::memory_order_relaxed);  // `start` follows a cut
}

uint32_t RangeCutter::StateAt(size_t k) const {
  std::atomic<uint32_t>& s = state_[k];
  uint32_t v;
  while ((v = s.load(std::memory_order_acquire)) == kUnknown) s.wait(kUnknown, std::memory_order_acquire);
  return v;
}

void RangeCutter::Publish(size_t k, uint32_t state) const {
  state_[k].store(state, std::memory_order_release);
  state_[k].notify_all();
}

Status RangeCutter::Append(uint64_t offset, size_t n, std::string* bytes, size_t* used) const {
  // The string only grows (zero-filled once, as far as needed): its size is the room, *used the
  // bytes read.
  if (bytes->size() < *used + n) bytes->resize(*used + n);
  size_t got = 0;
  Status s = read_(offset, n, bytes->data() + *used, &got);
  *used += got;
  return s;
}

Status RangeCutter::Cut(size_t k, Chunk* chunk) const {
  const uint64_t a = start_ + k * range_bytes_;
  const uint64_t b = std::min<uint64_t>(a + range_bytes_, size_);
  // The byte before the range decides whether its first byte follows a cut.
  const uint64_t from = k == 0 ? a : a - 1;
  std::string& bytes = chunk->bytes;
  size_t used = 0;  // bytes read into `bytes`, from `from`
  Status s = Append(from, static_cast<size_t>(b - from) + std::min<uint64_t>(kFirstOverhang, size_ - b), &bytes, &used);
  if (s.ok() && from + used < b) {
    s = Status::IoError(source_ + ": ends before byte " + std::to_string(b) +
                        " (was it truncated by someone else?)");
  }
  if (!s.ok()) {
    Publish(k + 1, kFailed);
    return s;
  }
  const uint32_t parity = quoting_ ? QuoteParity(bytes.data() + (a - from), static_cast<size_t>(b - a)) : 0;
  const uint32_t at_a = StateAt(k);
  if (at_a == kFailed) {
    Publish(k + 1, kFailed);
    return Status::Cancelled(source_ + ": an earlier range could not be cut");
  }
  const uint32_t at_b = parity == 0 ? at_a : (at_a == kInside ? kOutside : kInside);
  Publish(k + 1, at_b);

  // The chunk's end: the first cut at or after b, reading ahead as far as the record goes.
  bool inside = at_b == kInside;
  size_t end = static_cast<size_t>(b - from);
  if (b < size_) {
    for (;;) {
      // A cut right after the last byte read is decided once the next byte is read (a CR may
      // be half a CRLF), or is the end of the file.
      const size_t hi = used;
      end = FirstCut(bytes.data(), end, hi, quoting_, &inside);
      if (end < hi) break;
      if (from + hi == size_) break;  // the last chunk ends with the file, a record end or not
      if (from + end - b >= max_overhang_) {
        return Status::ResourceExhausted(source_ + ": a record at byte " + std::to_string(from + end) +
                                         " crosses more than " + std::to_string(max_overhang_) +
                                         " bytes past its range");
      }
      const size_t before = used;
      TFQ_RETURN_IF_ERROR(Append(from + before, std::max(before - static_cast<size_t>(b - from), kFirstOverhang), &bytes, &used));
      if (used == before) {  // the file ended before its size: it shrank
        return Status::IoError(source_ + ": ends before byte " + std::to_string(from + before + 1) +
                               " (was it truncated by someone else?)");
      }
    }
  }
  // The chunk's start: the first cut at or after a; none within the range means no record
  // starts in it, and the chunk is empty, where the next one starts.
  size_t begin = 0;
  if (k > 0) {
    bool in_at_a = at_a == kInside;
    begin = FirstCut(bytes.data(), 1, static_cast<size_t>(b - from), quoting_, &in_at_a);
    if (begin == b - from) begin = end;
  }
  // Every record within the range is shorter than the limit (a range is no longer); the one that
  // crosses its end may not be, and is for the serial reader to refuse (or take) as it would.
  if (end > b - from && begin < end) {
    const size_t last_start = LastCut(bytes.data(), begin, static_cast<size_t>(b - from), quoting_, at_b == kInside);
    if (end - last_start >= max_record_bytes_) {
      return Status::ResourceExhausted(source_ + ": a record at byte " + std::to_string(from + last_start) +
                                       " is longer than the limit of " + std::to_string(max_record_bytes_) +
                                       " bytes");
    }
  }
  chunk->lent = true;
  chunk->lent_bytes = std::string_view(bytes).substr(begin, end - begin);
  chunk->source = source_;
  chunk->index = k;
  chunk->first_line = first_line_;
  chunk->first_record = first_record_;
  chunk->first_byte = from + begin;
  return Status::OK();
}

}  // namespace tfq::csv
