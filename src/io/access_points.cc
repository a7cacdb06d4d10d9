// The .tfqgzidx encoding and the file fingerprint (io/access_points.h).
#include "io/access_points.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace tfq {
namespace {

constexpr std::string_view kMagic = "tfqgzidx";
constexpr uint32_t kVersion = 1;

uint32_t Crc32(std::string_view bytes, uint32_t crc = 0) {
  return static_cast<uint32_t>(
      crc32_z(crc, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

template <typename T>
void Put(T v, std::string* out) {
  char bytes[sizeof v];
  std::memcpy(bytes, &v, sizeof v);  // little-endian hosts only, as tfrecord/format.h
  out->append(bytes, sizeof v);
}

// Reads fixed-size fields from the front of a view; any read past the end makes ok() false.
class Fields {
 public:
  explicit Fields(std::string_view bytes) : rest_(bytes) {}
  template <typename T>
  T Get() {
    T v{};
    if (rest_.size() < sizeof v) {
      ok_ = false;
      return v;
    }
    std::memcpy(&v, rest_.data(), sizeof v);
    rest_.remove_prefix(sizeof v);
    return v;
  }
  std::string_view Bytes(uint64_t n) {
    if (rest_.size() < n) {
      ok_ = false;
      return {};
    }
    std::string_view v = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return v;
  }
  bool ok() const { return ok_; }
  size_t left() const { return rest_.size(); }

 private:
  std::string_view rest_;
  bool ok_ = true;
};

}  // namespace

Result<FileFingerprint> FingerprintOf(const RandomAccessFile& file) {
  FileFingerprint f;
  f.size = file.size();
  std::string buf(static_cast<size_t>(std::min(f.size, FileFingerprint::kEndBytes)), '\0');
  size_t got = 0;
  TFQ_RETURN_IF_ERROR(file.Read(0, buf.size(), buf.data(), &got));
  f.head_crc = Crc32(std::string_view(buf.data(), got));
  TFQ_RETURN_IF_ERROR(file.Read(f.size - buf.size(), buf.size(), buf.data(), &got));
  f.tail_crc = Crc32(std::string_view(buf.data(), got));
  return f;
}

const AccessPoint* AccessPointIndex::PointAtOrBefore(uint64_t uncompressed_offset) const {
  auto after = std::upper_bound(points.begin(), points.end(), uncompressed_offset,
                                [](uint64_t off, const AccessPoint& p) {
                                  return off < p.uncompressed_offset;
                                });
  return after == points.begin() ? nullptr : &*(after - 1);
}

std::string AccessPointIndexPath(const std::string& compressed_path) {
  return compressed_path + ".tfqgzidx";
}

std::string EncodeAccessPointIndex(const AccessPointIndex& index) {
  std::string out(kMagic);
  Put<uint32_t>(kVersion, &out);
  Put<uint32_t>(index.compression == Compression::kZlib ? 2 : 1, &out);
  Put<uint64_t>(index.file.size, &out);
  Put<uint32_t>(index.file.head_crc, &out);
  Put<uint32_t>(index.file.tail_crc, &out);
  Put<uint64_t>(index.uncompressed_size, &out);
  Put<uint64_t>(index.span, &out);
  Put<uint64_t>(index.points.size(), &out);
  for (const AccessPoint& p : index.points) {
    Put<uint64_t>(p.uncompressed_offset, &out);
    Put<uint64_t>(p.compressed_offset, &out);
    Put<uint8_t>(static_cast<uint8_t>(p.bits), &out);
    Put<uint32_t>(static_cast<uint32_t>(p.window.size()), &out);
    out += p.window;
  }
  Put<uint32_t>(Crc32(out), &out);
  return out;
}

Result<AccessPointIndex> DecodeAccessPointIndex(std::string_view bytes, const std::string& name) {
  auto bad = [&](const std::string& what) {
    return Status::Corruption(name + ": not a usable access-point index (" + what +
                              "); delete it and write it again (tfq inspect --index-beside)");
  };
  if (bytes.substr(0, kMagic.size()) != kMagic) return bad("no tfqgzidx magic");
  if (bytes.size() < kMagic.size() + 4 + 4) return bad("truncated");
  const std::string_view body = bytes.substr(0, bytes.size() - 4);
  Fields crc_field(bytes.substr(body.size()));
  if (crc_field.Get<uint32_t>() != Crc32(body)) return bad("checksum mismatch: damaged or cut short");
  Fields f(body.substr(kMagic.size()));
  const uint32_t version = f.Get<uint32_t>();
  if (version != kVersion) return bad("version " + std::to_string(version) + ", expected 1");
  AccessPointIndex index;
  const uint32_t compression = f.Get<uint32_t>();
  if (compression != 1 && compression != 2) return bad("unknown compression");
  index.compression = compression == 2 ? Compression::kZlib : Compression::kGzip;
  index.file.size = f.Get<uint64_t>();
  index.file.head_crc = f.Get<uint32_t>();
  index.file.tail_crc = f.Get<uint32_t>();
  index.uncompressed_size = f.Get<uint64_t>();
  index.span = f.Get<uint64_t>();
  const uint64_t count = f.Get<uint64_t>();
  // Each point takes at least 21 bytes: a count beyond what is there is not believed.
  if (!f.ok() || count > f.left() / 21) return bad("truncated");
  index.points.resize(static_cast<size_t>(count));
  uint64_t previous = 0;
  for (AccessPoint& p : index.points) {
    p.uncompressed_offset = f.Get<uint64_t>();
    p.compressed_offset = f.Get<uint64_t>();
    p.bits = f.Get<uint8_t>();
    const uint32_t window = f.Get<uint32_t>();
    if (!f.ok() || window > kInflateWindowBytes || p.bits > 7) return bad("malformed point");
    p.window = std::string(f.Bytes(window));
    if (!f.ok()) return bad("truncated");
    if (p.uncompressed_offset < previous || p.uncompressed_offset > index.uncompressed_size ||
        p.compressed_offset > index.file.size) {
      return bad("points out of order");
    }
    previous = p.uncompressed_offset;
  }
  if (f.left() != 0) return bad("trailing bytes");
  return index;
}

Result<AccessPointIndex> ReadAccessPointIndexFor(const RandomAccessFile& file, Compression compression,
                                                 const std::string& points_path) {
  TFQ_ASSIGN_OR_RETURN(std::string bytes, RandomAccessFile::ReadAll(points_path));
  TFQ_ASSIGN_OR_RETURN(AccessPointIndex decoded, DecodeAccessPointIndex(bytes, points_path));
  TFQ_ASSIGN_OR_RETURN(FileFingerprint now, FingerprintOf(file));
  if (decoded.compression != compression || !(decoded.file == now)) {
    return Status::Corruption(points_path + ": stale: it was built for another version of " + file.name() +
                              " (" + std::to_string(decoded.file.size) + " bytes then, " +
                              std::to_string(now.size) + " now, or different first or last bytes)");
  }
  return decoded;
}

}  // namespace tfq
