// Internal to convert*.cc: the per-converter state and the steps shared by the JPEG and PNG paths.
#ifndef TFQ_IMAGE_CONVERT_INTERNAL_H_
#define TFQ_IMAGE_CONVERT_INTERNAL_H_

#include <string_view>

#include "image/convert.h"
#include "image/jpeg_decoder.h"
#include "image/jpeg_encoder.h"
#include "image/png_codec.h"
#include "image/resize.h"

namespace tfq::image {

// Every buffer a conversion needs, kept between images so that steady state does not allocate.
struct ConverterState {
  JpegDecoder jpeg_decoder;
  JpegEncoder jpeg_encoder;
  PngDecoder png_decoder;
  Resizer resizer;         // packed images and Y planes
  Resizer chroma_resizer;  // chroma planes, whose geometry differs from the Y plane's
  YuvImage yuv_decoded, yuv_resized, yuv_oriented;
  Image decoded, converted, resized, oriented;
};

// Where the output comes from, in stored (not EXIF-rotated) coordinates.
struct Layout {
  int orientation = 1;  // applied after resizing; 1 = none
  int out_width = 0;    // the output as displayed (after orientation)
  int out_height = 0;
  int stored_out_width = 0;  // the output before orientation
  int stored_out_height = 0;
  Region stored_region;  // the part of the stored image that becomes the output
};

Layout MakeLayout(int stored_width, int stored_height, int orientation, const ResizeSpec& spec);

// kResourceExhausted when the output would be over the pixel limit (a 1-pixel-high image
// enlarged to --shorter-side N is N times wider than tall).
Status CheckOutputSize(const Layout& layout, uint64_t max_pixels);

// Resizes `region` of packed `pixels` (options.channels channels) to the layout's output,
// orients it and encodes it into *out.
Status FinishPixels(ConverterState& st, const ConvertOptions& options, const ImageView& pixels,
                    const Region& region, const Layout& layout, ConvertedImage* out);

// The JPEG path (convert_jpeg.cc).
Status ConvertJpeg(ConverterState& st, const ConvertOptions& options, std::string_view input,
                   ConvertedImage* out);

}  // namespace tfq::image

#endif  // TFQ_IMAGE_CONVERT_INTERNAL_H_
