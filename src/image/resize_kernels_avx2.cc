// AVX2 resize kernels, compiled with -mavx2 (this file only). Nothing here may run before the
// CPU check in resize_kernels.cc, which is why the check is not in this file.
// Same arithmetic as the SSE2 kernels (pmaddwd on 16-bit pairs), twice as wide.
#include "image/resize_kernels.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include <cstring>

namespace tfq::image::kernels {
namespace {

inline __m256i PairWeights256(int16_t w0, int16_t w1) {
  return _mm256_set1_epi32(static_cast<int32_t>(static_cast<uint16_t>(w0)) | static_cast<int32_t>(w1) << 16);
}

// Adds w0 * a[i] + w1 * b[i] for 32 pixels to four accumulators. The unpacks work within each
// 128-bit lane and the packs at the end undo them lane by lane, so pixel order is preserved.
inline void MultiplyAddRows(__m256i a, __m256i b, __m256i w, __m256i acc[4]) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i lo = _mm256_unpacklo_epi8(a, b);
  const __m256i hi = _mm256_unpackhi_epi8(a, b);
  acc[0] = _mm256_add_epi32(acc[0], _mm256_madd_epi16(_mm256_unpacklo_epi8(lo, zero), w));
  acc[1] = _mm256_add_epi32(acc[1], _mm256_madd_epi16(_mm256_unpackhi_epi8(lo, zero), w));
  acc[2] = _mm256_add_epi32(acc[2], _mm256_madd_epi16(_mm256_unpacklo_epi8(hi, zero), w));
  acc[3] = _mm256_add_epi32(acc[3], _mm256_madd_epi16(_mm256_unpackhi_epi8(hi, zero), w));
}

inline __m256i Load32(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }

// Output pixels [x, x + 32).
inline void VerticalBlock32(const uint8_t* const* rows, const int16_t* coeffs, int taps, int x, uint8_t* out) {
  __m256i acc[4];
  for (__m256i& a : acc) a = _mm256_set1_epi32(kRound);
  int k = 0;
  for (; k + 1 < taps; k += 2) {
    MultiplyAddRows(Load32(rows[k] + x), Load32(rows[k + 1] + x), PairWeights256(coeffs[k], coeffs[k + 1]), acc);
  }
  if (k < taps) MultiplyAddRows(Load32(rows[k] + x), _mm256_setzero_si256(), PairWeights256(coeffs[k], 0), acc);
  for (__m256i& a : acc) a = _mm256_srai_epi32(a, AxisWeights::kBits);
  const __m256i px = _mm256_packus_epi16(_mm256_packs_epi32(acc[0], acc[1]), _mm256_packs_epi32(acc[2], acc[3]));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + x), px);
}

void VerticalRowAvx2(const uint8_t* const* rows, const int16_t* coeffs, int taps, int n, uint8_t* out) {
  int x = 0;
  for (; x + 32 <= n; x += 32) VerticalBlock32(rows, coeffs, taps, x, out);
  if (x == n) return;
  // The tail: one more block ending at n, overlapping the last (each pixel is computed alone, so
  // the overlap writes the same values again); rows of fewer than 32 pixels go the portable way.
  if (n >= 32) {
    VerticalBlock32(rows, coeffs, taps, n - 32, out);
  } else {
    VerticalRange(rows, coeffs, taps, x, n, out);
  }
}

// Lane i of the result is the sum of the eight lanes of v[i].
inline __m256i SumEach(const __m256i v[8]) {
  const __m256i h0123 = _mm256_hadd_epi32(_mm256_hadd_epi32(v[0], v[1]), _mm256_hadd_epi32(v[2], v[3]));
  const __m256i h4567 = _mm256_hadd_epi32(_mm256_hadd_epi32(v[4], v[5]), _mm256_hadd_epi32(v[6], v[7]));
  return _mm256_add_epi32(_mm256_permute2x128_si256(h0123, h4567, 0x20),
                          _mm256_permute2x128_si256(h0123, h4567, 0x31));
}

inline void StoreEight(__m256i sums, uint8_t* out) {
  sums = _mm256_srai_epi32(_mm256_add_epi32(sums, _mm256_set1_epi32(kRound)), AxisWeights::kBits);
  const __m128i s16 = _mm_packs_epi32(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_packus_epi16(s16, s16));
}

inline __m128i Load8(const uint8_t* p) { return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)); }

void HorizontalRow1Avx2(const uint8_t* in, int in_len, int offset, const AxisWeights& w, uint8_t* out) {
  const int stride = w.stride;
  int wide_end = w.out_size;
  while (wide_end > 0 && w.start[wide_end - 1] - offset + stride > in_len) --wide_end;
  int x = 0;
  if (stride == 8) {
    // Two outputs per register: 8 taps of output x in the low lane, of x + 1 in the high lane.
    for (; x + 8 <= wide_end; x += 8) {
      __m256i v[4];
      for (int j = 0; j < 4; ++j) {
        const int a = x + 2 * j;
        const __m128i px =
            _mm_unpacklo_epi64(Load8(in + (w.start[a] - offset)), Load8(in + (w.start[a + 1] - offset)));
        const __m256i c =
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&w.coeffs[static_cast<size_t>(a) * 8]));
        v[j] = _mm256_madd_epi16(_mm256_cvtepu8_epi16(px), c);
      }
      // hadd twice: lane 0 holds outputs x, x+2, x+4, x+6 and lane 1 x+1, x+3, x+5, x+7.
      const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(v[0], v[1]), _mm256_hadd_epi32(v[2], v[3]));
      StoreEight(_mm256_permutevar8x32_epi32(h, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)), out + x);
    }
  } else {
    for (; x + 8 <= wide_end; x += 8) {
      __m256i v[8];
      for (int j = 0; j < 8; ++j) {
        const uint8_t* p = in + (w.start[x + j] - offset);
        const int16_t* c = &w.coeffs[static_cast<size_t>(x + j) * stride];
        __m256i acc = _mm256_setzero_si256();
        int k = 0;
        for (; k + 16 <= stride; k += 16) {
          const __m256i px = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k)));
          acc = _mm256_add_epi32(
              acc, _mm256_madd_epi16(px, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + k))));
        }
        if (k < stride) {  // 8 taps left
          const __m128i px = _mm_cvtepu8_epi16(Load8(p + k));
          const __m128i m = _mm_madd_epi16(px, _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + k)));
          acc = _mm256_add_epi32(acc, _mm256_zextsi128_si256(m));
        }
        v[j] = acc;
      }
      StoreEight(SumEach(v), out + x);
    }
  }
  for (; x < w.out_size; ++x) out[x] = HorizontalOne(in, offset, w, x);
}

const Kernels kAvx2 = {"avx2", VerticalRowAvx2, HorizontalRow1Avx2};

}  // namespace

const Kernels* Avx2Unchecked() { return &kAvx2; }

}  // namespace tfq::image::kernels

#else

namespace tfq::image::kernels {
const Kernels* Avx2Unchecked() { return nullptr; }
}  // namespace tfq::image::kernels

#endif
