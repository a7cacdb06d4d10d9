// The portable resize kernels and the run-time choice of a variant.
#include "image/resize_kernels.h"

namespace tfq::image::kernels {

void VerticalRange(const uint8_t* const* rows, const int16_t* coeffs, int taps, int begin, int end,
                   uint8_t* out) {
  // Row chunks keep the accumulators in L1; the compiler vectorises the inner loops.
  constexpr int kChunk = 1024;
  int32_t acc[kChunk];
  for (int x0 = begin; x0 < end; x0 += kChunk) {
    const int m = end - x0 < kChunk ? end - x0 : kChunk;
    for (int i = 0; i < m; ++i) acc[i] = kRound;
    for (int k = 0; k < taps; ++k) {
      const int16_t wk = coeffs[k];
      if (wk == 0) continue;
      const uint8_t* in = rows[k] + x0;
      for (int i = 0; i < m; ++i) acc[i] += static_cast<int16_t>(in[i]) * wk;
    }
    for (int i = 0; i < m; ++i) out[x0 + i] = Clamp8(acc[i]);
  }
}

namespace {

void VerticalRowPortable(const uint8_t* const* rows, const int16_t* coeffs, int taps, int n, uint8_t* out) {
  VerticalRange(rows, coeffs, taps, 0, n, out);
}

void HorizontalRow1Portable(const uint8_t* in, int in_len, int offset, const AxisWeights& w, uint8_t* out) {
  for (int x = 0; x < w.out_size; ++x) out[x] = HorizontalOne(in, offset, w, x);
}

const Kernels kPortable = {"portable", VerticalRowPortable, HorizontalRow1Portable};

}  // namespace

const Kernels* Portable() { return &kPortable; }

const Kernels* Avx2() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return supported ? Avx2Unchecked() : nullptr;
#else
  return nullptr;
#endif
}

const Kernels& Best() {
  static const Kernels* best = [] {
    if (const Kernels* k = Avx2()) return k;
    if (const Kernels* k = Sse2()) return k;
    return Portable();
  }();
  return *best;
}

}  // namespace tfq::image::kernels
