// SSE2 resize kernels (part of the x86-64 baseline, so no CPU check is needed). Both multiply
// 16-bit pairs with pmaddwd: the vertical pass pairs two source rows, the horizontal pass
// takes eight taps of one output at a time.
#include "image/resize_kernels.h"

#if defined(__SSE2__)
#include <emmintrin.h>

#include <cstring>

namespace tfq::image::kernels {
namespace {

inline __m128i Load(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

// Adds w0 * a[i] + w1 * b[i] for 16 pixels to four accumulators of 4 pixels each.
inline void MultiplyAddRows(__m128i a, __m128i b, __m128i w, __m128i acc[4]) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i lo = _mm_unpacklo_epi8(a, b);  // a0 b0 a1 b1 ... a7 b7
  const __m128i hi = _mm_unpackhi_epi8(a, b);
  acc[0] = _mm_add_epi32(acc[0], _mm_madd_epi16(_mm_unpacklo_epi8(lo, zero), w));
  acc[1] = _mm_add_epi32(acc[1], _mm_madd_epi16(_mm_unpackhi_epi8(lo, zero), w));
  acc[2] = _mm_add_epi32(acc[2], _mm_madd_epi16(_mm_unpacklo_epi8(hi, zero), w));
  acc[3] = _mm_add_epi32(acc[3], _mm_madd_epi16(_mm_unpackhi_epi8(hi, zero), w));
}

inline __m128i PairWeights(int16_t w0, int16_t w1) {
  return _mm_set1_epi32(static_cast<int32_t>(static_cast<uint16_t>(w0)) | static_cast<int32_t>(w1) << 16);
}

// Output pixels [x, x + 16).
inline void VerticalBlock16(const uint8_t* const* rows, const int16_t* coeffs, int taps, int x, uint8_t* out) {
  __m128i acc[4];
  for (__m128i& a : acc) a = _mm_set1_epi32(kRound);
  int k = 0;
  for (; k + 1 < taps; k += 2) {
    MultiplyAddRows(Load(rows[k] + x), Load(rows[k + 1] + x), PairWeights(coeffs[k], coeffs[k + 1]), acc);
  }
  if (k < taps) MultiplyAddRows(Load(rows[k] + x), _mm_setzero_si128(), PairWeights(coeffs[k], 0), acc);
  for (__m128i& a : acc) a = _mm_srai_epi32(a, AxisWeights::kBits);
  // Saturating packs clamp to 0..255, as Clamp8 does.
  const __m128i px = _mm_packus_epi16(_mm_packs_epi32(acc[0], acc[1]), _mm_packs_epi32(acc[2], acc[3]));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out + x), px);
}

void VerticalRowSse2(const uint8_t* const* rows, const int16_t* coeffs, int taps, int n, uint8_t* out) {
  int x = 0;
  for (; x + 16 <= n; x += 16) VerticalBlock16(rows, coeffs, taps, x, out);
  if (x == n) return;
  // The tail: one more block ending at n, overlapping the last (see resize_kernels_avx2.cc).
  if (n >= 16) {
    VerticalBlock16(rows, coeffs, taps, n - 16, out);
  } else {
    VerticalRange(rows, coeffs, taps, x, n, out);
  }
}

// The sum of 8-tap blocks of one output, as four partial sums.
inline __m128i DotProduct(const uint8_t* p, const int16_t* c, int stride) {
  const __m128i zero = _mm_setzero_si128();
  __m128i acc = zero;
  for (int k = 0; k < stride; k += 8) {
    const __m128i v = _mm_unpacklo_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + k)), zero);
    acc = _mm_add_epi32(acc, _mm_madd_epi16(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + k))));
  }
  return acc;
}

void HorizontalRow1Sse2(const uint8_t* in, int in_len, int offset, const AxisWeights& w, uint8_t* out) {
  const int stride = w.stride;
  // Wide loads read `stride` bytes from each output's start: the last outputs may need the
  // portable loop to stay inside the row.
  int wide_end = w.out_size;
  while (wide_end > 0 && w.start[wide_end - 1] - offset + stride > in_len) --wide_end;
  int x = 0;
  for (; x + 4 <= wide_end; x += 4) {
    __m128i s[4];
    for (int j = 0; j < 4; ++j) {
      s[j] =
          DotProduct(in + (w.start[x + j] - offset), &w.coeffs[static_cast<size_t>(x + j) * stride], stride);
    }
    // Transpose-and-add: lane j of r is the total of s[j].
    const __m128i t0 = _mm_add_epi32(_mm_unpacklo_epi32(s[0], s[1]), _mm_unpackhi_epi32(s[0], s[1]));
    const __m128i t1 = _mm_add_epi32(_mm_unpacklo_epi32(s[2], s[3]), _mm_unpackhi_epi32(s[2], s[3]));
    __m128i r = _mm_add_epi32(_mm_unpacklo_epi64(t0, t1), _mm_unpackhi_epi64(t0, t1));
    r = _mm_srai_epi32(_mm_add_epi32(r, _mm_set1_epi32(kRound)), AxisWeights::kBits);
    r = _mm_packus_epi16(_mm_packs_epi32(r, r), r);
    const int32_t four = _mm_cvtsi128_si32(r);
    std::memcpy(out + x, &four, 4);
  }
  for (; x < w.out_size; ++x) out[x] = HorizontalOne(in, offset, w, x);
}

const Kernels kSse2 = {"sse2", VerticalRowSse2, HorizontalRow1Sse2};

}  // namespace

const Kernels* Sse2() { return &kSse2; }

}  // namespace tfq::image::kernels

#else

namespace tfq::image::kernels {
const Kernels* Sse2() { return nullptr; }
}  // namespace tfq::image::kernels

#endif
