// Pixel-format conversions between packed images: CMYK to RGB, RGB to gray, gray to RGB, and
// alpha composited on white. No colour management: ICC profiles and PNG gamma are ignored, as
// TensorFlow's decoders ignore them.
#ifndef TFQ_IMAGE_COLOR_H_
#define TFQ_IMAGE_COLOR_H_

#include "image/image.h"

namespace tfq::image {

// 4-channel CMYK to RGB: R = (255 - C)(255 - K) / 255, and likewise for G (M) and B (Y).
// `inverted` says the file stores 255 - ink, as every Adobe (APP14) CMYK JPEG does; without the
// marker the values are ink amounts. `out` may not alias `in`.
void CmykToRgb(const ImageView& in, bool inverted, Image* out);

// 3-channel RGB to gray with the ITU-R BT.601 weights libjpeg uses (0.299, 0.587, 0.114).
void RgbToGray(const ImageView& in, Image* out);

// 1-channel gray to 3-channel RGB (R = G = B).
void GrayToRgb(const ImageView& in, Image* out);

// 2-channel gray+alpha or 4-channel RGBA composited on a white background, dropping alpha:
// out = (c * a + 255 * (255 - a)) / 255, rounded.
void CompositeOnWhite(const ImageView& in, Image* out);

// Converts between 1 and 3 channels (or copies) so that `out` has `channels` channels.
void ConvertChannels(const ImageView& in, int channels, Image* out);

}  // namespace tfq::image

#endif  // TFQ_IMAGE_COLOR_H_
