#include "image/sniff.h"

#include <cstdio>
#include <string>

namespace tfq::image {
namespace {

bool StartsWith(std::string_view bytes, std::string_view magic, size_t at = 0) {
  return bytes.size() >= at + magic.size() && bytes.substr(at, magic.size()) == magic;
}

using namespace std::string_view_literals;

}  // namespace

ImageKind SniffImageKind(std::string_view b) {
  if (StartsWith(b, "\xFF\xD8\xFF"sv)) return ImageKind::kJpeg;
  if (StartsWith(b, "\x89PNG\r\n\x1A\n"sv)) return ImageKind::kPng;
  if (StartsWith(b, "GIF87a"sv) || StartsWith(b, "GIF89a"sv)) return ImageKind::kGif;
  if (StartsWith(b, "RIFF"sv) && StartsWith(b, "WEBP"sv, 8)) return ImageKind::kWebp;
  if (StartsWith(b, "II*\0"sv) || StartsWith(b, "MM\0*"sv)) return ImageKind::kTiff;
  if (StartsWith(b, "\0\0\0\x0CjP  \r\n\x87\n"sv) || StartsWith(b, "\xFF\x4F\xFF\x51"sv)) {
    return ImageKind::kJpeg2000;
  }
  if (StartsWith(b, "\xFF\x0A"sv) || StartsWith(b, "\0\0\0\x0CJXL \r\n\x87\n"sv)) return ImageKind::kJpegXl;
  if (StartsWith(b, "ftyp"sv, 4)) {
    // ISO base media file: the major brand says which image format it carries.
    std::string_view brand = b.size() >= 12 ? b.substr(8, 4) : std::string_view();
    if (brand == "avif" || brand == "avis") return ImageKind::kAvif;
    if (brand == "heic" || brand == "heix" || brand == "hevc" || brand == "hevx" || brand == "heim" ||
        brand == "heis" || brand == "mif1" || brand == "msf1") {
      return ImageKind::kHeif;
    }
  }
  // "BM" alone is two printable letters; also require the reserved header words to be zero.
  if (StartsWith(b, "BM"sv) && b.size() >= 14 && b[6] == 0 && b[7] == 0 && b[8] == 0 && b[9] == 0) {
    return ImageKind::kBmp;
  }
  return ImageKind::kUnknown;
}

const char* ImageKindName(ImageKind kind) {
  switch (kind) {
    case ImageKind::kJpeg: return "JPEG";
    case ImageKind::kPng: return "PNG";
    case ImageKind::kGif: return "GIF";
    case ImageKind::kBmp: return "BMP";
    case ImageKind::kWebp: return "WebP";
    case ImageKind::kTiff: return "TIFF";
    case ImageKind::kHeif: return "HEIF/HEIC";
    case ImageKind::kAvif: return "AVIF";
    case ImageKind::kJpeg2000: return "JPEG 2000";
    case ImageKind::kJpegXl: return "JPEG XL";
    case ImageKind::kUnknown: break;
  }
  return "unknown";
}

Status UnsupportedImageError(ImageKind kind, std::string_view bytes) {
  if (bytes.empty()) return Status::InvalidData("empty file (0 bytes)");
  if (kind != ImageKind::kUnknown) {
    return Status::InvalidData(std::string("unsupported image format: ") + ImageKindName(kind) +
                               " (only JPEG and PNG are decoded)");
  }
  std::string msg = "not an image (neither JPEG nor PNG): starts with";
  for (size_t i = 0; i < bytes.size() && i < 8; ++i) {
    char hex[4];
    std::snprintf(hex, sizeof(hex), " %02x", static_cast<unsigned char>(bytes[i]));
    msg += hex;
  }
  return Status::InvalidData(std::move(msg));
}

}  // namespace tfq::image
