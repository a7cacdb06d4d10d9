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

Compression CompressionFromExtension(std::string_view path) {
  std::string lower = Lower(path);
  if (EndsWith(lower, ".gz") || EndsWith(lower, ".gzip")) return Compression::kGzip;
  if (EndsWith(lower, ".zz") || EndsWith(lower, ".zlib")) return Compression::kZlib;
  return Compression::kNone;
}

}  // namespace tfq
