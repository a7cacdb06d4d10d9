#include "io/random_inflate.h"

#include <algorithm>
#include <climits>

namespace tfq {
namespace {

constexpr size_t kInputChunk = size_t{64} << 10;
constexpr int kRawWindowBits = -MAX_WBITS;
constexpr int kGzipWindowBits = 16 + MAX_WBITS;

}  // namespace

PointInflater::PointInflater(const RandomAccessFile& file, const AccessPointIndex& index)
    : file_(file), index_(index), gzip_(index.compression == Compression::kGzip) {}

PointInflater::~PointInflater() {
  if (z_ready_) inflateEnd(&z_);
}

Status PointInflater::Corrupt(const std::string& what) const {
  return Status::Corruption(file_.name() + ": corrupt " + (gzip_ ? "gzip" : "zlib") +
                            " data at compressed byte " + std::to_string(CompressedOffset()) +
                            " (read from an access point): " + what);
}

Status PointInflater::Start(const AccessPoint& point) {
  const int rc = z_ready_ ? inflateReset2(&z_, kRawWindowBits) : inflateInit2(&z_, kRawWindowBits);
  if (rc != Z_OK) {
    return Status::ResourceExhausted(file_.name() + ": cannot start decompression (zlib error " +
                                     std::to_string(rc) + ")");
  }
  z_ready_ = true;
  started_ = true;
  raw_ = true;
  ended_ = false;
  out_ = point.uncompressed_offset;
  z_.avail_in = 0;
  in_end_ = point.compressed_offset - (point.bits > 0 ? 1 : 0);
  if (point.bits > 0) {
    bool got = false;
    TFQ_RETURN_IF_ERROR(FillInput(&got));
    if (!got) return Corrupt("the file ends at an access point (is the index stale?)");
    const int byte = *z_.next_in;
    ++z_.next_in;
    --z_.avail_in;
    inflatePrime(&z_, point.bits, byte >> (8 - point.bits));
  }
  if (!point.window.empty()) {
    inflateSetDictionary(&z_, reinterpret_cast<const Bytef*>(point.window.data()),
                         static_cast<uInt>(point.window.size()));
  }
  return Status::OK();
}

Status PointInflater::FillInput(bool* got) {
  *got = z_.avail_in > 0;
  if (*got) return Status::OK();
  in_.resize(kInputChunk);
  size_t n = 0;
  TFQ_RETURN_IF_ERROR(file_.Read(in_end_, in_.size(), in_.data(), &n));
  in_end_ += n;
  z_.next_in = reinterpret_cast<Bytef*>(in_.data());
  z_.avail_in = static_cast<uInt>(n);
  *got = n > 0;
  return Status::OK();
}

Status PointInflater::SkipTrailer() {
  size_t left = gzip_ ? 8 : 4;
  while (left > 0) {
    bool got = false;
    TFQ_RETURN_IF_ERROR(FillInput(&got));
    if (!got) return Corrupt("the stream ends inside a member trailer (the file was cut short)");
    const size_t k = std::min<size_t>(left, z_.avail_in);
    z_.next_in += k;
    z_.avail_in -= static_cast<uInt>(k);
    left -= k;
  }
  return Status::OK();
}

Status PointInflater::Inflate(char* dst, size_t n, size_t* made) {
  *made = 0;
  while (*made < n && !ended_) {
    bool got = false;
    TFQ_RETURN_IF_ERROR(FillInput(&got));
    if (!got) return Corrupt("the stream ends before its trailer (the file was cut short)");
    const uInt room = static_cast<uInt>(std::min<size_t>(n - *made, UINT_MAX));
    z_.next_out = reinterpret_cast<Bytef*>(dst + *made);
    z_.avail_out = room;
    const uInt input_before = z_.avail_in;
    const int rc = inflate(&z_, Z_NO_FLUSH);
    const size_t produced = room - z_.avail_out;
    *made += produced;
    out_ += produced;
    bytes_inflated_ += produced;
    if (rc == Z_STREAM_END) {
      if (raw_) TFQ_RETURN_IF_ERROR(SkipTrailer());
      raw_ = false;
      // Another gzip member may follow (`cat a.gz b.gz`); a zlib stream is one stream.
      TFQ_RETURN_IF_ERROR(FillInput(&got));
      if (!got || !gzip_) {
        ended_ = true;
        break;
      }
      inflateReset2(&z_, kGzipWindowBits);
      continue;
    }
    if (rc == Z_OK || (rc == Z_BUF_ERROR && (produced > 0 || z_.avail_in < input_before))) continue;
    if (rc == Z_NEED_DICT) return Corrupt("the stream needs a preset dictionary");
    if (rc == Z_MEM_ERROR) return Status::ResourceExhausted(file_.name() + ": out of memory while decompressing");
    return Corrupt(z_.msg != nullptr ? z_.msg : "inflate error " + std::to_string(rc));
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
