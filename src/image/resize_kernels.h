// Internal to the resizer: the inner loops, one implementation per instruction set, chosen once
// at run time (as tfq's crc32c chooses its variant). All variants give identical results.
//
//   VerticalRow:    out[i] = clamp((sum_k coeffs[k] * rows[k][i] + round) >> kBits), i < n
//   HorizontalRow1: out[x] = clamp((sum_k w.coeffs[x * w.stride + k] * in[w.start[x] - offset + k]
//                                   + round) >> kBits), x < w.out_size; one channel.
// `in_len` is the number of readable bytes of `in`: wide loads never go past it.
#ifndef TFQ_IMAGE_RESIZE_KERNELS_H_
#define TFQ_IMAGE_RESIZE_KERNELS_H_

#include <cstdint>

#include "image/resize.h"

namespace tfq::image::kernels {

using VerticalRowFn = void (*)(const uint8_t* const* rows, const int16_t* coeffs, int taps, int n,
                               uint8_t* out);
using HorizontalRow1Fn = void (*)(const uint8_t* in, int in_len, int offset, const AxisWeights& w,
                                  uint8_t* out);

struct Kernels {
  const char* name;
  VerticalRowFn vertical;
  HorizontalRow1Fn horizontal1;
};

// The best variant this CPU runs.
const Kernels& Best();

// Individual variants, for tests that compare them. Null where not compiled in or unsupported.
const Kernels* Portable();
const Kernels* Sse2();
const Kernels* Avx2();
// The AVX2 table without the CPU check (resize_kernels_avx2.cc); only Avx2() may call it.
const Kernels* Avx2Unchecked();

// Shared helpers of the variants.
inline uint8_t Clamp8(int32_t v) {
  v >>= AxisWeights::kBits;
  return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
}
constexpr int32_t kRound = 1 << (AxisWeights::kBits - 1);

// VerticalRow for i in [begin, end) only.
void VerticalRange(const uint8_t* const* rows, const int16_t* coeffs, int taps, int begin, int end,
                   uint8_t* out);
// Output x of a one-channel horizontal pass, portably (used for the tails of the SIMD variants).
inline uint8_t HorizontalOne(const uint8_t* in, int offset, const AxisWeights& w, int x) {
  const int16_t* c = &w.coeffs[static_cast<size_t>(x) * w.stride];
  const uint8_t* p = in + (w.start[x] - offset);
  int32_t a = kRound;
  for (int k = 0; k < w.taps; ++k) a += p[k] * c[k];
  return Clamp8(a);
}

}  // namespace tfq::image::kernels

#endif  // TFQ_IMAGE_RESIZE_KERNELS_H_
