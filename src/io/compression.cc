// Compression names, file-name extensions and magic-byte sniffing.
#include "io/compression.h"

#include <cctype>
#include <string>

namespace tfq {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

Result<Compression> ParseCompression(std::string_view name) {
  std::string lower = Lower(name);
  if (lower == "auto") return Compression::kAuto;
  if (lower.empty() || lower == "none") return Compression::kNone;
  if (lower == "gzip") return Compression::kGzip;
  if (lower == "zlib") return Compression::kZlib;
  return Status::InvalidArgument("unknown compression '" + std::string(name) +
                                 "' (expected auto, none, gzip or zlib)");
}

std::string_view CompressionName(Compression c) {
  switch (c) {
    case Compression::kAuto: return "auto";
    case Compression::kNone: return "none";
    case Compression::kGzip: return "gzip";
    case Compression::kZlib: return "zlib";
  }
  return "none";
}

Compression SniffCompression(std::string_view first_bytes) {
  if (first_bytes.size() < 2) return Compression::kNone;
  auto cmf = static_cast<unsigned char>(first_bytes[0]);
  auto flg = static_cast<unsigned char>(first_bytes[1]);
  if (cmf == 0x1f && flg == 0x8b) return Compression::kGzip;
  // RFC 1950: method 8 (deflate), a window of at most 32 KiB, and CMF*256+FLG divisible by 31.
  bool deflate = (cmf & 0x0f) == 8 && (cmf >> 4) <= 7;
  if (deflate && (cmf * 256 + flg) % 31 == 0) return Compression::kZlib;
  return Compression::kNone;
}

std::string DescribeLeadingBytes(std::string_view b) {
  auto starts = [&](std::string_view magic) { return b.substr(0, magic.size()) == magic; };
  if (b.empty()) return "an empty file";
  switch (SniffCompression(b)) {
    case Compression::kGzip: return "gzip data (read it with -c gzip or -c auto)";
    case Compression::kZlib: return "zlib data (read it with -c zlib or -c auto)";
    default: break;
  }
  if (starts("BZh")) return "bzip2 data, which tfq does not read (decompress it first: bunzip2)";
  if (starts(std::string_view("\xfd" "7zXZ\0", 6))) {
    return "xz data, which tfq does not read (decompress it first: unxz)";
  }
  if (starts("\x28\xb5\x2f\xfd")) return "zstd data, which tfq does not read (decompress it first: unzstd)";
  if (starts("PK\x03\x04")) return "a ZIP archive, which tfq does not read (unzip it first)";
  if (starts("\xff\xd8\xff")) return "a JPEG image (convert a folder of images with tfq convert DIR -o PREFIX)";
  if (starts("\x89PNG")) return "a PNG image (convert a folder of images with tfq convert DIR -o PREFIX)";
  bool text = true;
  for (unsigned char c : b.substr(0, 64)) {
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') text = false;
  }
  if (text) {
    return "text (a CSV or JSON lines file? convert it with tfq convert FILE -o OUT.tfrecord)";
  }
  return "uncompressed binary data (a plain TFRecord file? read it with -c none or -c auto)";
}

Compression CompressionFromExtension(std::string_view path) {
  std::string lower = Lower(path);
  if (EndsWith(lower, ".gz") || EndsWith(lower, ".gzip")) return Compression::kGzip;
  if (EndsWith(lower, ".zz") || EndsWith(lower, ".zlib")) return Compression::kZlib;
  return Compression::kNone;
}

}  // namespace tfq
