#include "io/random_inflate.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "io/buffered_input_stream.h"

namespace tfq {
namespace {

constexpr size_t kInputChunk = size_t{64} << 10;

}  // namespace

PointInflater::PointInflater(const RandomAccessFile& file, const AccessPointIndex& index)
    : file_(file), index_(index), gzip_(index.compression == Compression::kGzip), inflater_(NewInflater()) {}

Status PointInflater::Corrupt(const std::string& what) const {
  return Status::Corruption(file_.name() + ": corrupt " + (gzip_ ? "gzip" : "zlib") +
                            " data at compressed byte " + std::to_string(CompressedOffset()) +
                            " (read from an access point): " + what);
}

Status PointInflater::Start(const AccessPoint& point) {
  if (!inflater_->Reset(DeflateWrapper::kRaw)) {
    return Status::ResourceExhausted(file_.name() + ": cannot start decompression (out of memory)");
  }
  started_ = true;
  raw_ = true;
  ended_ = false;
  out_ = point.uncompressed_offset;
  in_size_ = in_used_ = 0;
  in_end_ = point.compressed_offset - (point.bits > 0 ? 1 : 0);
  if (point.bits > 0) {
    bool got = false;
    TFQ_RETURN_IF_ERROR(FillInput(&got));
    if (!got) return Corrupt("the file ends at an access point (is the index stale?)");
    const int byte = static_cast<unsigned char>(in_[in_used_++]);
    inflater_->Prime(point.bits, byte >> (8 - point.bits));
  }
  inflater_->SetWindow(point.window);
  return Status::OK();
}

Status PointInflater::FillInput(bool* got) {
  *got = in_used_ < in_size_;
  if (*got) return Status::OK();
  in_.resize(kInputChunk);
  size_t n = 0;
  TFQ_RETURN_IF_ERROR(file_.Read(in_end_, in_.size(), in_.data(), &n));
  in_end_ += n;
  in_size_ = n;
  in_used_ = 0;
  *got = n > 0;
  return Status::OK();
}

Status PointInflater::SkipTrailer() {
  const size_t size = gzip_ ? 8 : 4;
  unsigned char trailer[8];
  size_t have = 0;
  while (have < size) {
    bool got = false;
    TFQ_RETURN_IF_ERROR(FillInput(&got));
    if (!got) return Corrupt("the stream ends inside a member trailer (the file was cut short)");
    const size_t k = std::min(size - have, in_size_ - in_used_);
    std::memcpy(trailer + have, in_.data() + in_used_, k);
    in_used_ += k;
    have += k;
  }
  sum_.trailer_read = true;
  if (gzip_) {  // CRC-32 and ISIZE, little-endian
    auto le32 = [&](size_t at) {
      return uint32_t{trailer[at]} | uint32_t{trailer[at + 1]} << 8 | uint32_t{trailer[at + 2]} << 16 |
             uint32_t{trailer[at + 3]} << 24;
    };
    sum_.trailer_crc = le32(0);
    sum_.trailer_size = le32(4);
  } else {  // zlib: the Adler-32, big-endian
    sum_.trailer_crc = uint32_t{trailer[0]} << 24 | uint32_t{trailer[1]} << 16 | uint32_t{trailer[2]} << 8 |
                       uint32_t{trailer[3]};
  }
  return Status::OK();
}

Status PointInflater::Inflate(char* dst, size_t n, size_t* made) {
  *made = 0;
  while (*made < n && !ended_) {
    bool got = false;
    TFQ_RETURN_IF_ERROR(FillInput(&got));
    // Without input, the inflater may still hold output it decoded (ISA-L buffers some).
    const Inflater::Step step = inflater_->Inflate(Available(), dst + *made, n - *made);
    in_used_ += step.consumed;
    if (summing_) Sum(dst + *made, out_, step.produced);
    *made += step.produced;
    out_ += step.produced;
    bytes_inflated_ += step.produced;
    switch (step.outcome) {
      case Inflater::Outcome::kEnd:
        if (step.overread > 0) {  // read again from the file, from the stream's end
          in_end_ = CompressedOffset() - step.overread;
          in_size_ = in_used_ = 0;
        }
        ++sum_.member_ends;
        sum_.last_member_end = out_;
        if (raw_) TFQ_RETURN_IF_ERROR(SkipTrailer());
        raw_ = false;
        // Another gzip member may follow (`cat a.gz b.gz`); a zlib stream is one stream.
        TFQ_RETURN_IF_ERROR(FillInput(&got));
        if (!got || !gzip_) {
          ended_ = true;
          break;
        }
        if (!inflater_->Reset(DeflateWrapper::kGzip)) {
          return Status::ResourceExhausted(file_.name() + ": out of memory while decompressing");
        }
        continue;
      case Inflater::Outcome::kOk:
        if (step.consumed > 0 || step.produced > 0) continue;
        if (!got) return Corrupt("the stream ends before its trailer (the file was cut short)");
        return Status::Internal(file_.name() + ": inflate made no progress at compressed byte " +
                                std::to_string(CompressedOffset()));
      case Inflater::Outcome::kNeedsWindow:
        return Corrupt("the stream needs a preset dictionary");
      case Inflater::Outcome::kNoMemory:
        return Status::ResourceExhausted(file_.name() + ": out of memory while decompressing");
      case Inflater::Outcome::kBadData:
        return Corrupt(inflater_->error());
    }
  }
  return Status::OK();
}

Status PointInflater::Read(uint64_t offset, size_t n, std::string* out) {
  out->resize(n);
  size_t got = 0;
  Status s = Read(offset, out->data(), n, &got);
  out->resize(got);
  return s;
}

void PointInflater::SumRange(uint64_t begin, uint64_t end) {
  summing_ = true;
  sum_ = TrailerSum();
  sum_.crc = gzip_ ? 0 : 1;  // the empty range's CRC-32 or Adler-32
  sum_.begin = begin;
  sum_.end = std::max(begin, end);
}

void PointInflater::Sum(const char* bytes, uint64_t at, size_t n) {
  // Only bytes inflated in order from `begin` count: a reader that jumps starts the sum over.
  const uint64_t next = sum_.begin + sum_.summed;
  if (at > next || at + n <= next || next >= sum_.end) return;
  const size_t skip = static_cast<size_t>(next - at);
  const size_t take = static_cast<size_t>(std::min<uint64_t>(n - skip, sum_.end - next));
  sum_.crc = gzip_ ? GzipCrc32(sum_.crc, bytes + skip, take)
                  : static_cast<uint32_t>(adler32_z(sum_.crc, reinterpret_cast<const Bytef*>(bytes + skip), take));
  sum_.summed += take;
}

Status PointInflater::Read(uint64_t offset, char* dst, size_t n, size_t* got) {
  *got = 0;
  const AccessPoint* point = index_.PointAtOrBefore(offset);
  if (point == nullptr) return Status::OK();  // an empty stream
  if (!started_ || offset < out_ || point->uncompressed_offset > out_) {
    TFQ_RETURN_IF_ERROR(Start(*point));
  }
  while (out_ < offset && !ended_) {
    discard_.resize(kInputChunk * 4);
    size_t made = 0;
    TFQ_RETURN_IF_ERROR(
        Inflate(discard_.data(), static_cast<size_t>(std::min<uint64_t>(discard_.size(), offset - out_)), &made));
  }
  if (out_ < offset) return Status::OK();  // the offset is past the end
  return Inflate(dst, n, got);
}

namespace {

// The buffering half of PointInflatingStream.
class PointInflatingBuffer final : public BufferedInputStream {
 public:
  PointInflatingBuffer(std::shared_ptr<const RandomAccessFile> file, std::shared_ptr<const AccessPointIndex> index)
      : BufferedInputStream(kChunk), file_(std::move(file)), index_(std::move(index)), inflater_(*file_, *index_) {}
  const std::string& name() const override { return file_->name(); }
  PointInflater* inflater() { return &inflater_; }
  uint64_t size() const { return index_->uncompressed_size; }

 private:
  static constexpr size_t kChunk = size_t{256} << 10;

  Status Refill(char* dst, size_t capacity, size_t* produced) override {
    Status s = inflater_.Read(next_, dst, capacity, produced);
    next_ += *produced;
    return s;
  }
  uint64_t SkipUnread(uint64_t n) override {
    const uint64_t k = next_ >= size() ? 0 : std::min(n, size() - next_);
    next_ += k;
    return k;
  }

  const std::shared_ptr<const RandomAccessFile> file_;
  const std::shared_ptr<const AccessPointIndex> index_;
  PointInflater inflater_;
  uint64_t next_ = 0;  // uncompressed offset of the next byte to buffer
};

}  // namespace

PointInflatingStream::PointInflatingStream(std::shared_ptr<const RandomAccessFile> file,
                                           std::shared_ptr<const AccessPointIndex> index) {
  auto buffered = std::make_unique<PointInflatingBuffer>(std::move(file), std::move(index));
  inflater_ = buffered->inflater();
  buffered_ = std::move(buffered);
}

PointInflatingStream::~PointInflatingStream() = default;

void PointInflatingStream::FinishSum() {
  const TrailerSum& s = inflater_->sum();
  std::string discard;
  while (!s.complete()) {
    const uint64_t next = s.begin + s.summed;
    const size_t before = static_cast<size_t>(s.summed);
    if (!inflater_->Read(next, std::min<uint64_t>(s.end - next, 1 << 20), &discard).ok() || discard.empty()) return;
    if (s.summed == before) return;  // not in order: the range was not read from its start
  }
}

}  // namespace tfq
