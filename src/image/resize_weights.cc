// Filter kernels and the per-axis weight tables of the resizer.
#include <algorithm>
#include <cmath>

#include "image/resize.h"

namespace tfq::image {
namespace {

constexpr double kPi = 3.14159265358979323846;

double Support(Filter f) {
  switch (f) {
    case Filter::kBox: return 0.5;
    case Filter::kTriangle: return 1.0;
    case Filter::kLanczos3: return 3.0;
  }
  return 1.0;
}

double Sinc(double x) {
  if (x == 0.0) return 1.0;
  x *= kPi;
  return std::sin(x) / x;
}

}  // namespace

const char* FilterName(Filter f) {
  switch (f) {
    case Filter::kBox: return "box";
    case Filter::kTriangle: return "triangle";
    case Filter::kLanczos3: return "lanczos3";
  }
  return "?";
}

double FilterValue(Filter filter, double x) {
  switch (filter) {
    case Filter::kBox:
      // Half-open, so that a sample exactly between two pixels belongs to one of them.
      return x > -0.5 && x <= 0.5 ? 1.0 : 0.0;
    case Filter::kTriangle: x = std::fabs(x); return x < 1.0 ? 1.0 - x : 0.0;
    case Filter::kLanczos3: return x > -3.0 && x < 3.0 ? Sinc(x) * Sinc(x / 3.0) : 0.0;
  }
  return 0.0;
}

void ComputeAxisWeights(Filter filter, int in_size, double in0, double in1, int out_size, AxisWeights* w) {
  const double scale = (in1 - in0) / out_size;
  // Shrinking stretches the filter by the reduction factor; enlarging keeps it at scale 1.
  const double filter_scale = std::max(scale, 1.0);
  const double support = Support(filter) * filter_scale;
  const double inv_filter_scale = 1.0 / filter_scale;

  // First pass: the exact (clipped) span of every output, to know the common tap count.
  w->in_size = in_size;
  w->out_size = out_size;
  w->start.resize(out_size);
  std::vector<int> first(out_size), count(out_size);
  int taps = 1;
  for (int i = 0; i < out_size; ++i) {
    double center = in0 + (i + 0.5) * scale;
    int lo = std::max(static_cast<int>(std::floor(center - support + 0.5)), 0);
    int hi = std::min(static_cast<int>(std::floor(center + support + 0.5)), in_size);
    if (hi <= lo) {  // a region narrower than one pixel at the very edge: take the nearest pixel
      lo = std::clamp(static_cast<int>(center), 0, in_size - 1);
      hi = lo + 1;
    }
    first[i] = lo;
    count[i] = hi - lo;
    taps = std::max(taps, hi - lo);
  }
  w->taps = taps;
  w->stride = (taps + 7) / 8 * 8;
  w->coeffs.assign(static_cast<size_t>(out_size) * w->stride, 0);

  std::vector<double> k(taps);
  const double one = 1 << AxisWeights::kBits;
  for (int i = 0; i < out_size; ++i) {
    double center = in0 + (i + 0.5) * scale;
    double total = 0;
    for (int j = 0; j < count[i]; ++j) {
      k[j] = FilterValue(filter, (first[i] + j + 0.5 - center) * inv_filter_scale);
      total += k[j];
    }
    // Shift the window left where the padded taps would run past the end; the leading taps are 0.
    int start = std::min(first[i], in_size - taps);
    int offset = first[i] - start;
    w->start[i] = start;
    int16_t* c = &w->coeffs[static_cast<size_t>(i) * w->stride + offset];
    if (total == 0.0) {  // cannot happen for these filters, but never divide by zero
      c[count[i] / 2] = static_cast<int16_t>(one);
      continue;
    }
    int sum = 0, largest = 0;
    for (int j = 0; j < count[i]; ++j) {
      c[j] = static_cast<int16_t>(std::lround(k[j] / total * one));
      sum += c[j];
      if (c[j] > c[largest]) largest = j;
    }
    // Give the rounding residue to the largest weight, so the weights sum to exactly one.
    c[largest] = static_cast<int16_t>(c[largest] + (static_cast<int>(one) - sum));
  }
}

}  // namespace tfq::image
