#include "image/jpeg_header.h"

#include <cstring>
#include <string>

#include "image/exif.h"

namespace tfq::image {
namespace {

// Marker codes (the byte after 0xFF), T.81 Table B.1.
constexpr int kSoi = 0xD8;
constexpr int kEoi = 0xD9;
constexpr int kSos = 0xDA;
constexpr int kDnl = 0xDC;
constexpr int kApp0 = 0xE0;
constexpr int kApp1 = 0xE1;
constexpr int kApp14 = 0xEE;
constexpr int kTem = 0x01;

bool IsStandalone(int m) { return m == kTem || (m >= 0xD0 && m <= 0xD7); }

// SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
bool IsStartOfFrame(int m) { return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC; }

int U8(std::string_view b, size_t at) { return static_cast<unsigned char>(b[at]); }
int U16(std::string_view b, size_t at) { return U8(b, at) << 8 | U8(b, at + 1); }

std::string At(size_t pos) { return " (byte " + std::to_string(pos) + ")"; }

Status ParseFrame(int marker, std::string_view seg, size_t pos, JpegInfo* info) {
  // Hierarchical (SOF5-7, SOF13-15) and lossless (SOF3, SOF11) coding are outside what libjpeg
  // decodes; say which rather than letting it fail with "Unsupported marker type".
  if (marker == 0xC3 || marker == 0xCB) return Status::InvalidData("lossless JPEG is not supported");
  if ((marker >= 0xC5 && marker <= 0xC7) || marker >= 0xCD) {
    return Status::InvalidData("hierarchical JPEG is not supported");
  }
  if (seg.size() < 6) return Status::Corruption("corrupt JPEG: short frame header" + At(pos));
  int precision = U8(seg, 0);
  if (precision != 8) {
    return Status::InvalidData(std::to_string(precision) + "-bit JPEG is not supported (only 8-bit samples)");
  }
  info->height = U16(seg, 1);
  info->width = U16(seg, 3);
  info->components = U8(seg, 5);
  if (info->height == 0) {
    return Status::InvalidData("JPEG whose height is given by a DNL marker is not supported");
  }
  if (info->width == 0) return Status::Corruption("corrupt JPEG: width 0 in the frame header" + At(pos));
  int n = info->components;
  if (n != 1 && n != 3 && n != 4) {
    return Status::InvalidData("JPEG with " + std::to_string(n) + " components is not supported");
  }
  if (seg.size() < 6 + 3 * static_cast<size_t>(n)) {
    return Status::Corruption("corrupt JPEG: short frame header" + At(pos));
  }
  int ids[4];
  for (int c = 0; c < n; ++c) {
    ids[c] = U8(seg, 6 + 3 * c);
    int hv = U8(seg, 7 + 3 * c);
    info->h_samp[c] = hv >> 4;
    info->v_samp[c] = hv & 15;
    if (info->h_samp[c] < 1 || info->h_samp[c] > 4 || info->v_samp[c] < 1 || info->v_samp[c] > 4) {
      return Status::Corruption("corrupt JPEG: bad sampling factors" + At(pos));
    }
  }
  info->progressive = marker == 0xC2 || marker == 0xCA;
  info->arithmetic = marker >= 0xC9;
  // The colour space is decided once the whole header is read (JFIF/Adobe markers may follow);
  // remember what the component ids say.
  if (n == 1) {
    info->color = JpegColor::kGray;
  } else if (n == 4) {
    info->color = JpegColor::kCmyk;
  } else {
    info->color = ids[0] == 'R' && ids[1] == 'G' && ids[2] == 'B' ? JpegColor::kRgb : JpegColor::kYCbCr;
  }
  return Status::OK();
}

// libjpeg's rules (jdapimin.c): JFIF means YCbCr; an Adobe transform code decides 3- and
// 4-component files; otherwise component ids decide 3-component files and 4 means CMYK.
void DecideColor(JpegInfo* info) {
  if (info->components == 3) {
    if (info->jfif) {
      info->color = JpegColor::kYCbCr;
    } else if (info->adobe) {
      info->color = info->adobe_transform == 0 ? JpegColor::kRgb : JpegColor::kYCbCr;
    }
  } else if (info->components == 4) {
    info->color = info->adobe && info->adobe_transform != 0 ? JpegColor::kYcck : JpegColor::kCmyk;
  }
}

}  // namespace

const char* JpegColorName(JpegColor c) {
  switch (c) {
    case JpegColor::kGray: return "grayscale";
    case JpegColor::kYCbCr: return "YCbCr";
    case JpegColor::kRgb: return "RGB";
    case JpegColor::kCmyk: return "CMYK";
    case JpegColor::kYcck: return "YCCK";
  }
  return "?";
}

const char* JpegSubsamplingName(const JpegInfo& info) {
  if (info.components == 1) return "gray";
  const int h = info.h_samp[0], v = info.v_samp[0];
  bool all_equal = true, chroma_single = true;
  for (int c = 1; c < info.components; ++c) {
    const bool same = info.h_samp[c] == h && info.v_samp[c] == v;
    all_equal &= same;
    // The K of a CMYK/YCCK file is sampled like the first component.
    chroma_single &= (info.h_samp[c] == 1 && info.v_samp[c] == 1) || (c == 3 && same);
  }
  if (all_equal) return "4:4:4";  // however the factors are written (1x1 or 2x2 everywhere)
  if (!chroma_single) return "other";
  if (h == 2 && v == 1) return "4:2:2";
  if (h == 2 && v == 2) return "4:2:0";
  if (h == 1 && v == 2) return "4:4:0";
  if (h == 4 && v == 1) return "4:1:1";
  return "other";
}

Result<JpegInfo> ParseJpegHeader(std::string_view b) {
  if (b.size() < 2 || U8(b, 0) != 0xFF || U8(b, 1) != kSoi) {
    return Status::InvalidData("not a JPEG file (no SOI marker)");
  }
  JpegInfo info;
  bool have_frame = false;
  bool have_exif = false;
  size_t pos = 2;
  while (true) {
    // Find the next marker: 0xFF, optional 0xFF fill bytes, then a code that is neither 0 nor 0xFF.
    // Bytes before it are garbage that libjpeg also skips (with a warning).
    while (pos < b.size() && U8(b, pos) != 0xFF) ++pos;
    while (pos < b.size() && U8(b, pos) == 0xFF) ++pos;
    if (pos >= b.size()) {
      return Status::Corruption("truncated JPEG: no image data, the file ends in the header" + At(b.size()));
    }
    int marker = U8(b, pos);
    size_t marker_pos = pos - 1;
    ++pos;
    if (marker == 0) continue;  // a stuffed 0xFF00 outside a scan: garbage
    if (marker == kSoi) return Status::Corruption("corrupt JPEG: a second SOI marker" + At(marker_pos));
    if (marker == kEoi) {
      return Status::Corruption("JPEG has no image data: end-of-image marker before any scan" +
                                At(marker_pos));
    }
    if (IsStandalone(marker)) continue;
    if (b.size() - pos < 2) {
      return Status::Corruption("truncated JPEG: no image data, the file ends in the header" + At(b.size()));
    }
    size_t length = U16(b, pos);
    if (length < 2) return Status::Corruption("corrupt JPEG: bad segment length" + At(marker_pos));
    if (b.size() - pos < length) {
      return Status::Corruption("truncated JPEG: no image data, the file ends in the header" + At(b.size()));
    }
    std::string_view seg = b.substr(pos + 2, length - 2);
    if (IsStartOfFrame(marker)) {
      if (have_frame) return Status::Corruption("corrupt JPEG: a second frame header" + At(marker_pos));
      TFQ_RETURN_IF_ERROR(ParseFrame(marker, seg, marker_pos, &info));
      have_frame = true;
    } else if (marker == kSos) {
      if (!have_frame) {
        return Status::Corruption("corrupt JPEG: a scan before the frame header" + At(marker_pos));
      }
      info.scan_offset = marker_pos;
      // A sequential file whose first scan holds every component has exactly one scan.
      info.multi_scan = info.progressive || seg.empty() || U8(seg, 0) < info.components;
      DecideColor(&info);
      return info;
    } else if (marker == kDnl) {
      return Status::Corruption("corrupt JPEG: DNL marker before the first scan" + At(marker_pos));
    } else if (marker == kApp0) {
      if (seg.substr(0, 5) == std::string_view("JFIF\0", 5)) info.jfif = true;
    } else if (marker == kApp1) {
      // Only the first Exif block counts, as in libvips: some files carry several APP1 segments.
      if (!have_exif && seg.substr(0, 6) == std::string_view("Exif\0\0", 6)) {
        have_exif = true;
        info.orientation = ParseApp1Orientation(seg);
      }
    } else if (marker == kApp14) {
      if (seg.size() >= 12 && seg.substr(0, 5) == "Adobe") {
        info.adobe = true;
        info.adobe_transform = U8(seg, 11);
      }
    }
    pos += length;
  }
}

}  // namespace tfq::image

namespace tfq::image {

int CountJpegScans(std::string_view b, size_t first_scan, int stop_above) {
  int scans = 0;
  size_t pos = first_scan;
  while (pos < b.size() && scans <= stop_above) {
    // The next marker: 0xFF then a code other than 0x00 (a stuffed byte in entropy-coded data),
    // 0xFF (fill) or RST0-7 (restart markers live inside a scan's data).
    const void* ff = std::memchr(b.data() + pos, 0xFF, b.size() - pos);
    if (ff == nullptr) break;
    pos = static_cast<size_t>(static_cast<const char*>(ff) - b.data()) + 1;
    if (pos >= b.size()) break;
    const int marker = U8(b, pos);
    if (marker == 0x00 || marker == 0xFF || (marker >= 0xD0 && marker <= 0xD7)) continue;
    ++pos;
    if (marker == kEoi) break;
    if (IsStandalone(marker)) continue;
    if (marker == kSos) ++scans;
    // Skip the segment (SOS, DHT, DQT, DRI, ... between scans); the scan's data follows SOS.
    if (b.size() - pos < 2) break;
    pos += U16(b, pos);
  }
  return scans;
}

}  // namespace tfq::image
