#include "image/color.h"

#include <cstring>

namespace tfq::image {
namespace {

// x * y / 255, rounded, for x, y in 0..255 (exact for every pair).
inline uint8_t MulDiv255(int x, int y) {
  int t = x * y + 128;
  return static_cast<uint8_t>((t + (t >> 8)) >> 8);
}

}  // namespace

void CmykToRgb(const ImageView& in, bool inverted, Image* out) {
  out->Reset(in.width, in.height, 3);
  const int flip = inverted ? 0 : 255;  // value ^ 255 == 255 - value
  for (int y = 0; y < in.height; ++y) {
    const uint8_t* s = in.row(y);
    uint8_t* d = out->row(y);
    for (int x = 0; x < in.width; ++x, s += 4, d += 3) {
      int k = s[3] ^ flip;
      d[0] = MulDiv255(s[0] ^ flip, k);
      d[1] = MulDiv255(s[1] ^ flip, k);
      d[2] = MulDiv255(s[2] ^ flip, k);
    }
  }
}

void RgbToGray(const ImageView& in, Image* out) {
  out->Reset(in.width, in.height, 1);
  for (int y = 0; y < in.height; ++y) {
    const uint8_t* s = in.row(y);
    uint8_t* d = out->row(y);
    for (int x = 0; x < in.width; ++x, s += 3) {
      // 16-bit fixed point, the coefficients libjpeg's rgb_gray_convert uses.
      d[x] = static_cast<uint8_t>((19595 * s[0] + 38470 * s[1] + 7471 * s[2] + 32768) >> 16);
    }
  }
}

void GrayToRgb(const ImageView& in, Image* out) {
  out->Reset(in.width, in.height, 3);
  for (int y = 0; y < in.height; ++y) {
    const uint8_t* s = in.row(y);
    uint8_t* d = out->row(y);
    for (int x = 0; x < in.width; ++x, d += 3) d[0] = d[1] = d[2] = s[x];
  }
}

void CompositeOnWhite(const ImageView& in, Image* out) {
  const int color = in.channels - 1;
  out->Reset(in.width, in.height, color);
  for (int y = 0; y < in.height; ++y) {
    const uint8_t* s = in.row(y);
    uint8_t* d = out->row(y);
    for (int x = 0; x < in.width; ++x, s += in.channels, d += color) {
      int a = s[color];
      for (int c = 0; c < color; ++c) d[c] = static_cast<uint8_t>(MulDiv255(s[c], a) + (255 - a));
    }
  }
}

void ConvertChannels(const ImageView& in, int channels, Image* out) {
  if (in.channels == channels) {
    out->Reset(in.width, in.height, channels);
    for (int y = 0; y < in.height; ++y) std::memcpy(out->row(y), in.row(y), out->stride());
  } else if (channels == 3) {
    GrayToRgb(in, out);
  } else {
    RgbToGray(in, out);
  }
}

}  // namespace tfq::image
