// JpegDecoder: TurboJPEG decompression with libjpeg-turbo 2.1.5's traps handled.
//
//  - After any failed call a TurboJPEG decompress handle is left in a state where every later
//    file fails ("Invalid JPEG file structure: two SOI markers"), so the handle is re-created
//    after every non-zero return.
//  - Damaged data is reported as a warning, not an error: a truncated file "decodes" with
//    "Premature end of JPEG file" and grey rows where the data ran out. Warnings that mean lost
//    data (premature end of file or of a data segment, bad Huffman or arithmetic codes, lost
//    restart markers, garbage in the middle of the data) fail the decode unless allow_partial;
//    warnings that lose nothing (garbage after the last scan, a bad ICC marker, ...) are accepted.
//    The first warning decides: the decode runs with TJFLAG_STOPONWARNING and, when the first
//    warning is acceptable, once more to completion.
//  - Callers check ParseJpegHeader first, which refuses 12-bit, lossless and header-only files and
//    tells whether the colour space is CMYK/YCCK (those decode to DecodeFormat::kCmyk only).
//
// Thread safety: none. Give each thread its own decoder; it owns its handle and is cheap to keep.
#ifndef TFQ_IMAGE_JPEG_DECODER_H_
#define TFQ_IMAGE_JPEG_DECODER_H_

#include <string_view>

#include "common/status.h"
#include "image/image.h"
#include "image/jpeg_header.h"
#include "image/jpeg_scale.h"

namespace tfq::image {

enum class DecodeFormat { kGray, kRgb, kCmyk };

class JpegDecoder {
 public:
  JpegDecoder();
  ~JpegDecoder();
  JpegDecoder(const JpegDecoder&) = delete;
  JpegDecoder& operator=(const JpegDecoder&) = delete;

  // Whether DecodeToYuv can decode this file: a YCbCr or gray JPEG whose chroma subsampling
  // TurboJPEG names. Sets *subsampling.
  bool CanDecodeToYuv(std::string_view bytes, const JpegInfo& info, Subsampling* subsampling);

  // Decodes at `scale` into the file's own planes (no colour conversion, no chroma upsampling).
  // `info` is ParseJpegHeader's result for `bytes`. *partial is set when allow_partial accepted
  // damaged data.
  Status DecodeToYuv(std::string_view bytes, const JpegInfo& info, JpegScale scale, bool allow_partial,
                     YuvImage* out, bool* partial);

  // Decodes at `scale` into packed pixels: kGray (any but CMYK/YCCK), kRgb (any but CMYK/YCCK),
  // kCmyk (CMYK/YCCK files only; the values are as stored, see JpegInfo::adobe).
  Status DecodeToPixels(std::string_view bytes, const JpegInfo& info, JpegScale scale, DecodeFormat format,
                        bool allow_partial, Image* out, bool* partial);

  // Converts a planar image to packed RGB with TurboJPEG's colour conversion (gray is replicated).
  Status YuvToRgb(const YuvImage& yuv, Image* out);

 private:
  template <typename Call>
  Status Run(Call call, bool allow_partial, bool* partial);
  Status ResetHandle();

  void* handle_ = nullptr;  // tjhandle, created lazily
};

}  // namespace tfq::image

#endif  // TFQ_IMAGE_JPEG_DECODER_H_
