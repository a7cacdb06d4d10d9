// Test images made inside the tests: JPEGs through TurboJPEG (and libjpeg where TurboJPEG 2.1.5
// has no switch: plain CMYK, arithmetic coding, no Adobe marker), PNGs through libpng, and byte
// edits of them (EXIF segments, damaged headers).
#ifndef TFQ_TESTS_IMAGE_TEST_IMAGES_H_
#define TFQ_TESTS_IMAGE_TEST_IMAGES_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "image/image.h"

namespace tfq::image::testing {

// A w x h image with `channels` channels whose pixel (x, y) channel c is fn(x, y, c).
Image MakePattern(int w, int h, int channels, const std::function<int(int, int, int)>& fn);

// A smooth colour gradient with some texture: compresses well, decodes close to itself.
Image Gradient(int w, int h, int channels);

// Encodes with TurboJPEG: 1 channel -> grayscale JPEG, 3 -> YCbCr with `subsampling`
// (a TJSAMP_* value), 4 -> YCCK (values stored as given). `progressive` uses TJFLAG_PROGRESSIVE.
std::string EncodeJpeg(const Image& image, int quality = 95, int subsampling = 0, bool progressive = false);

// Encodes a 4-channel image as a plain CMYK JPEG with libjpeg (no YCCK transform), with or
// without the Adobe APP14 marker.
std::string EncodeCmykJpeg(const Image& cmyk, bool adobe_marker, int quality = 95);

// Encodes RGB with libjpeg's arithmetic coding.
std::string EncodeArithmeticJpeg(const Image& rgb, int quality = 95);

// Encodes RGB as Y'CbCr with the given sampling factors per component (h0 v0 h1 v1 h2 v2),
// including ones TurboJPEG has no name for.
std::string EncodeJpegWithSampling(const Image& rgb, const int hv[6], int quality = 95);

// Inserts an APP1 Exif segment holding just an orientation tag right after SOI.
std::string WithExifOrientation(const std::string& jpeg, int orientation, bool little_endian = true);

// The raw TIFF block (no "Exif\0\0" prefix) of such a segment.
std::string ExifTiff(int orientation, bool little_endian, uint16_t type = 3);

struct PngSpec {
  int color_type = 2;  // PNG_COLOR_TYPE_*
  int bit_depth = 8;
  bool interlaced = false;
  std::vector<uint8_t> trns;  // palette alpha entries, or for gray/RGB one 16-bit sample per channel
};

// Encodes `samples` (w x h x channels of the colour type, one value per sample, already in the
// bit depth's range; palette images give indices) with the palette `palette` (RGB triples).
std::string EncodePng(int w, int h, const PngSpec& spec, const std::vector<uint16_t>& samples,
                      const std::vector<uint8_t>& palette = {});

// Offset of the first marker `code` (the byte after 0xFF) in a JPEG's header, or npos.
size_t FindMarker(const std::string& jpeg, int code);

// Decodes any JPEG with TurboJPEG to `channels` (1 or 3) at full size (for checking outputs).
Image DecodeJpegForTest(const std::string& jpeg, int channels);

// Mean absolute difference per sample of two equally shaped images.
double MeanAbsDiff(const Image& a, const Image& b);

}  // namespace tfq::image::testing

#endif  // TFQ_TESTS_IMAGE_TEST_IMAGES_H_
