// What a JPEG file is, read from its markers without decoding anything (ITU-T T.81 Annex B).
//
// tfq reads the header itself, before TurboJPEG sees the file, for three reasons: to refuse what
// libjpeg-turbo 2.1.5 cannot decode with a clear message (12-bit, lossless, hierarchical), which
// also keeps those files from poisoning a decompress handle; to catch a file whose header is
// followed by no image data, which TurboJPEG 2.1.5 "decodes" with only a warning; and to learn
// what TurboJPEG does not say (progressive or arithmetic coding, the Adobe marker that tells
// whether CMYK values are inverted, the EXIF orientation).
#ifndef TFQ_IMAGE_JPEG_HEADER_H_
#define TFQ_IMAGE_JPEG_HEADER_H_

#include <cstddef>
#include <string_view>

#include "common/status.h"

namespace tfq::image {

// The colour space of the stored components, decided as libjpeg decides it (JFIF and Adobe
// markers first, then component ids, then the component count).
enum class JpegColor { kGray, kYCbCr, kRgb, kCmyk, kYcck };

const char* JpegColorName(JpegColor c);

struct JpegInfo {
  int width = 0;
  int height = 0;
  int components = 0;  // 1, 3 or 4
  JpegColor color = JpegColor::kGray;
  bool progressive = false;  // SOF2/SOF10
  bool arithmetic = false;   // SOF9/SOF10
  // Progressive, or sequential with one scan per component: libjpeg then keeps every DCT
  // coefficient of the full-size image in memory, whatever the scaling factor.
  bool multi_scan = false;
  int h_samp[4] = {};  // sampling factors per component (1..4)
  int v_samp[4] = {};
  bool jfif = false;
  bool adobe = false;        // an APP14 "Adobe" marker: CMYK/YCCK values are stored inverted
  int adobe_transform = -1;  // its colour transform code, -1 without the marker
  int orientation = 1;       // EXIF orientation of the first APP1 "Exif" segment, 1..8
  size_t scan_offset = 0;    // byte offset of the first SOS marker
};

// "4:4:4", "4:2:2", "4:2:0", "4:4:0", "4:1:1", "gray" or "other": the chroma subsampling the
// sampling factors describe (chroma components 1x1 and luma HxV; CMYK files count all four).
const char* JpegSubsamplingName(const JpegInfo& info);

// Parses the markers from SOI up to the first SOS. Errors:
//   kInvalidData  not a JPEG; 12-bit or 16-bit samples; lossless or hierarchical coding; other
//                 than 1, 3 or 4 components; a height given only by a DNL marker;
//   kCorruption   the file ends inside the header ("truncated JPEG: ..."), a header with no image
//                 data, malformed segments.
Result<JpegInfo> ParseJpegHeader(std::string_view bytes);

// The most scans tfq decodes in one file. libjpeg-turbo 2.1.5 has no limit, and each scan of a
// progressive file is a pass over every DCT block, so a small file of thousands of (empty) scans
// costs minutes; real encoders write at most a few dozen. 500 is libjpeg-turbo 3's tjbench limit.
constexpr int kMaxJpegScans = 500;

// Counts the SOS markers from `first_scan` (JpegInfo::scan_offset) by walking the markers between
// scans and stepping over entropy-coded data with memchr; stops once the count passes
// `stop_above`. Linear in the file size, allocates nothing; a truncated file counts what it has.
int CountJpegScans(std::string_view bytes, size_t first_scan, int stop_above = kMaxJpegScans);

}  // namespace tfq::image

#endif  // TFQ_IMAGE_JPEG_HEADER_H_
