#include "image/jpeg_scale.h"

#include <cstdint>

namespace tfq::image {
namespace {

// Tolerance for regions computed in floating point: a region of 447.99999 pixels scaled by 1/2
// covers 224 output pixels.
constexpr double kEpsilon = 1e-6;

bool Allowed(int num, ScaleSet set) {
  return set == ScaleSet::kAllEighths || num == 1 || num == 2 || num == 4 || num == 8;
}

}  // namespace

int ScaledDim(int dim, JpegScale s) {
  return static_cast<int>((int64_t{dim} * s.num + s.denom - 1) / s.denom);
}

JpegScale ChooseJpegScale(double region_width, double region_height, int out_width, int out_height,
                          ScaleSet set) {
  if (set == ScaleSet::kFullSizeOnly) return {1, 1};
  // Candidates n/8 from the smallest up; TurboJPEG offers every n/8 for n = 1..16.
  for (int n = 1; n < 8; ++n) {
    if (!Allowed(n, set)) continue;
    double s = n / 8.0;
    if (region_width * s + kEpsilon >= out_width && region_height * s + kEpsilon >= out_height) {
      // Report the factor reduced, as tjGetScalingFactors lists it (1/2, not 4/8).
      int num = n, denom = 8;
      while (num % 2 == 0 && denom % 2 == 0) {
        num /= 2;
        denom /= 2;
      }
      return {num, denom};
    }
  }
  return {1, 1};
}

JpegScale SmallestJpegScale() { return {1, 8}; }

}  // namespace tfq::image
