// ImageConverter: one image's bytes in, the bytes to store out. This is the whole per-image job of
// `tfq convert`: sniff, decode (at a reduced DCT scale when that suffices), resize, orient,
// encode, with every failure returned as a Status that names what is wrong; callers add the path.
//
//   ConvertOptions o;
//   o.resize = {ResizeMode::kExact, 224, 224};
//   TFQ_RETURN_IF_ERROR(ValidateConvertOptions(o));
//   ImageConverter converter(o);           // one per thread
//   ConvertedImage out;                    // reuse it: its buffers keep their capacity
//   Status s = converter.Convert(bytes, &out);
//
// Decoding policy (docs/images.md has the reasons):
//  - kind from magic bytes; JPEG and PNG decode, other kinds fail with kInvalidData naming them;
//  - JPEG: decoded at the smallest DCT scale that covers the region being resized
//    (ScaleSet::kPowersOfTwo by default); YCbCr and gray files go through Y'CbCr planes, which
//    are resized and encoded without ever becoming RGB; CMYK/YCCK convert to RGB (Adobe files
//    inverted); RGB-coded files decode to RGB;
//  - PNG: 8-bit gray or RGB, alpha composited on white;
//  - the pixel count about to be allocated is checked against max_pixels before decoding;
//  - damaged data (a truncated JPEG decodes partly, with a warning) fails unless allow_partial.
#ifndef TFQ_IMAGE_CONVERT_H_
#define TFQ_IMAGE_CONVERT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "image/geometry.h"
#include "image/image.h"
#include "image/jpeg_scale.h"
#include "image/resize.h"
#include "image/sniff.h"

namespace tfq::image {

struct ConverterState;  // convert_internal.h

enum class OutputFormat { kJpeg, kPng, kRaw };

// "JPEG", "PNG", "RAW": the values of the image/format feature.
const char* OutputFormatName(OutputFormat f);

// When the input's bytes are stored unchanged (after checking that they decode) instead of being
// decoded and encoded again.
enum class KeepOriginal {
  kNever,  // re-encode every image
  // Keep a JPEG that re-encoding would only degrade: no resize asked, JPEG output, the file's
  // channels those asked (3: Y'CbCr or RGB-coded, 1: gray; so never CMYK/YCCK), no EXIF
  // orientation to apply, and every byte of it decodes (a damaged file accepted by allow_partial
  // is re-encoded, so that the stored image decodes). Everything else is re-encoded.
  // tensorflow/models' build_image_data.py keeps JPEG files too; `tfq convert`'s default.
  kUnchangedJpeg,
  kAlways,  // keep every image that decodes; the processing options below are ignored
};

// "never", "jpeg", "always": for the manifest.
const char* KeepOriginalName(KeepOriginal k);

struct ConvertOptions {
  ResizeSpec resize;  // default: keep the size
  Filter filter = Filter::kTriangle;
  int quality = 90;                             // JPEG output, 1..100
  Subsampling subsampling = Subsampling::k420;  // JPEG output with 3 channels: k420 or k444
  int channels = 3;                             // 3 (RGB) or 1 (gray)
  OutputFormat format = OutputFormat::kJpeg;
  int png_compression_level = 6;  // zlib level 0..9
  // Which inputs are stored unchanged after checking that they decode. JPEGs are checked at 1/8
  // scale: every byte of entropy-coded data is still decoded, which is what finds damage.
  KeepOriginal keep_original = KeepOriginal::kNever;
  // Apply the EXIF orientation. Off by default: TensorFlow's decode_jpeg/decode_image ignore it,
  // so a dataset made with it on no longer matches what tf.io reads from the original files.
  bool auto_orient = false;
  // Largest image, in pixels, that may be allocated for decoding. A JPEG counts at the DCT scale
  // it is decoded at (a 280-megapixel JPEG shrunk to 224x224 is decoded at 1/8), except that
  // progressive and multi-scan JPEGs count at full size because libjpeg holds all their DCT
  // coefficients. The default is Pillow's decompression-bomb limit (2 x 89478485).
  uint64_t max_pixels = 178956970;
  // Accept a JPEG whose data is truncated or damaged (the missing part is grey) instead of failing.
  bool allow_partial = false;
  // Which DCT scaling factors JPEG decoding may use (see jpeg_scale.h).
  ScaleSet dct_scales = ScaleSet::kPowersOfTwo;
};

// kInvalidArgument naming the offending option.
Status ValidateConvertOptions(const ConvertOptions& options);

struct ConvertedImage {
  std::string bytes;  // the encoded image (or, for kRaw, height * width * channels pixels)
  int height = 0;     // of the stored image (the input's as stored when kept)
  int width = 0;
  int channels = 0;             // 1 or 3; when kept, the file's: JPEG 1, 3 or 4 (CMYK), PNG 1..4
  const char* format = "";      // "JPEG", "PNG" or "RAW"
  const char* colorspace = "";  // "RGB" or "GRAY"; kept (KeepOriginal::kAlways) also "CMYK"
  ImageKind source_kind = ImageKind::kUnknown;
  int source_width = 0;  // the input as stored
  int source_height = 0;
  bool partial = false;  // allow_partial accepted damaged data
  bool kept = false;     // bytes are the input's (see KeepOriginal)
};

class ImageConverter {
 public:
  // `options` must have passed ValidateConvertOptions.
  explicit ImageConverter(const ConvertOptions& options);
  ~ImageConverter();
  ImageConverter(const ImageConverter&) = delete;
  ImageConverter& operator=(const ImageConverter&) = delete;

  // Converts one image. On failure *out is unspecified and the Status says what is wrong
  // (kInvalidData: not a supported image or unsupported variant; kCorruption: damaged or
  // truncated; kResourceExhausted: over max_pixels). Never throws, prints or aborts.
  Status Convert(std::string_view input, ConvertedImage* out);

  const ConvertOptions& options() const { return options_; }

 private:
  ConvertOptions options_;
  std::unique_ptr<ConverterState> state_;
};

// One-off conversion with a temporary converter (tests, tools); prefer a long-lived converter.
Result<ConvertedImage> ConvertImage(std::string_view input, const ConvertOptions& options);

}  // namespace tfq::image

#endif  // TFQ_IMAGE_CONVERT_H_
