// Antialiased separable resampling of 8-bit images (1 or 3 interleaved channels), following the
// method of Pillow's ImagingResample: each output sample is a weighted sum of the source samples
// under a filter centred on it, and when shrinking, the filter is stretched by the reduction
// factor so that it averages every source pixel it covers (that is what makes it antialiased;
// a fixed-support filter like OpenCV's INTER_LINEAR aliases).
//
// The weights of each axis are computed once per (filter, source size, region, output size) in
// 14-bit fixed point, padded to the same number of taps for every output sample, so the inner
// loops are plain integer multiply-adds the compiler vectorises. The vertical pass runs across
// whole rows (vectorised); the horizontal pass is run on whichever side of the vertical pass
// makes it cheaper. Like Pillow, the intermediate image is rounded to 8 bits.
#ifndef TFQ_IMAGE_RESIZE_H_
#define TFQ_IMAGE_RESIZE_H_

#include <cstdint>
#include <vector>

#include "image/image.h"

namespace tfq::image {

enum class Filter {
  kBox,       // support 0.5: the mean of the covered pixels when shrinking (area averaging)
  kTriangle,  // support 1: bilinear, antialiased when shrinking (Pillow's BILINEAR); the default
  kLanczos3,  // support 3: sharpest, may ring slightly (Pillow's LANCZOS, libvips' lanczos3)
};

const char* FilterName(Filter f);

// A part of the source in pixel units, edges may be fractional: (0, 0, width, height) is the whole
// image. Resizing a region is how a centre crop is done without losing the filter's context.
struct Region {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  double width() const { return x1 - x0; }
  double height() const { return y1 - y0; }
};

// Fixed-point weights of one axis: output sample i is
//   sum over k < taps of coeffs[i * stride + k] * in[start[i] + k], divided by 2^kBits.
// Every output's weights sum to exactly 2^kBits, so a constant input stays constant.
struct AxisWeights {
  static constexpr int kBits = 14;
  int in_size = 0;
  int out_size = 0;
  int taps = 0;
  int stride = 0;               // taps rounded up to a multiple of 8 (for 8-wide SIMD loads)
  std::vector<int32_t> start;   // non-decreasing; start[i] + taps <= in_size
  std::vector<int16_t> coeffs;  // out_size * stride, zeros where an output needs fewer taps
};

// Weights for resizing the source span [in0, in1) of an axis of `in_size` pixels to `out_size`
// samples (in0 >= 0, in1 <= in_size, in0 < in1, out_size >= 1).
void ComputeAxisWeights(Filter filter, int in_size, double in0, double in1, int out_size, AxisWeights* w);

// The filter's value at x (in units of source pixels at scale 1).
double FilterValue(Filter filter, double x);

// Resizes one image after another, reusing its weights (a dataset has a handful of common photo
// sizes; the last few weight tables of each axis are kept) and scratch buffers.
// Thread safety: none; one per thread.
class Resizer {
 public:
  // Resizes `region` of `src` into all of `dst` (its width and height say the output size);
  // channels must match and be 1 or 3. `region` must lie within src and be non-empty.
  void Resize(const ImageView& src, const Region& region, Filter filter, const MutableImageView& dst);

 private:
  struct CachedWeights {
    bool valid = false;
    Filter filter{};
    double in0 = 0, in1 = 0;
    AxisWeights w;
  };
  struct WeightCache {
    static constexpr int kEntries = 8;
    CachedWeights entries[kEntries];
    int next = 0;  // the entry replaced next (round robin)
  };
  static const AxisWeights& Weights(WeightCache* cache, Filter f, int in_size, double in0, double in1,
                                    int out_size);

  WeightCache x_, y_;  // separate, so that looking up one axis never evicts the other's table
  std::vector<uint8_t> tmp_;
  std::vector<const uint8_t*> rows_;
};

}  // namespace tfq::image

#endif  // TFQ_IMAGE_RESIZE_H_
