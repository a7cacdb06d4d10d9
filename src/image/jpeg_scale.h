// Choosing the DCT scaling factor for a JPEG decode.
//
// libjpeg can decode at n/8 of the stored size by running a smaller inverse DCT, which is both the
// cheapest way to shrink a photo and a good antialiasing filter. tfq decodes at the smallest
// factor that still covers the region it will resize, then resizes the rest of the way with a
// proper filter (as Pillow's draft() and libvips' shrink-on-load do).
#ifndef TFQ_IMAGE_JPEG_SCALE_H_
#define TFQ_IMAGE_JPEG_SCALE_H_

namespace tfq::image {

struct JpegScale {
  int num = 1;
  int denom = 1;
  friend bool operator==(const JpegScale&, const JpegScale&) = default;
};

// Which factors may be chosen. libjpeg-turbo has SIMD inverse DCTs only for 1/1, 1/2 and 1/4
// (1/8 keeps only the DC coefficient); the other n/8 factors run plain C code and, measured on the
// ImageNet sample, decode slower than the full-size decode they are meant to save. So the
// default is the powers of two. kFullSizeOnly never scales (for the most faithful resize).
enum class ScaleSet { kPowersOfTwo, kAllEighths, kFullSizeOnly };

// The size TurboJPEG decodes a `dim`-pixel axis to at `s` (rounded up, as TJSCALED does).
int ScaledDim(int dim, JpegScale s);

// The smallest factor s <= 1 in `set` with region_width * s >= out_width and
// region_height * s >= out_height, where the region is the part of the stored image that will be
// resized to out_width x out_height. 1/1 when no smaller factor covers (enlargement).
JpegScale ChooseJpegScale(double region_width, double region_height, int out_width, int out_height,
                          ScaleSet set);

// The smallest factor, 1/8: enough to verify that a file decodes, since the entropy-coded data
// is decoded in full whatever the scale.
JpegScale SmallestJpegScale();

}  // namespace tfq::image

#endif  // TFQ_IMAGE_JPEG_SCALE_H_
