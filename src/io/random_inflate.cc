#include "io/random_inflate.h"

#include <algorithm>

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
  size_t left = gzip_ ? 8 : 4;
  while (left > 0) {
    bool got = false;
    TFQ_RETURN_IF_ERROR(FillInput(&got));
    if (!got) return Corrupt("the stream ends inside a member trailer (the file was cut short)");
    const size_t k = std::min(left, in_size_ - in_used_);
    in_used_ += k;
    left -= k;
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
    *made += step.produced;
    out_ += step.produced;
    bytes_inflated_ += step.produced;
    switch (step.outcome) {
      case Inflater::Outcome::kEnd:
        if (step.overread > 0) {  // read again from the file, from the stream's end
          in_end_ = CompressedOffset() - step.overread;
          in_size_ = in_used_ = 0;
        }
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
  out->clear();
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
  out->resize(n);
  size_t made = 0;
  TFQ_RETURN_IF_ERROR(Inflate(out->data(), n, &made));
  out->resize(made);
  return Status::OK();
}

}  // namespace tfq
