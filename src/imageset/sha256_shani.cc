// SHA-256 block function with the x86 SHA extensions (SHA256RNDS2/MSG1/MSG2). Compiled with
// -msha -msse4.1 (src/imageset/CMakeLists.txt) and called only after a CPU check.
//
// The instructions keep the eight working variables as two vectors, {A,B,E,F} and {C,D,G,H}
// (highest lane first), so the state is rearranged on entry and exit; each SHA256RNDS2 does two
// rounds, with the round constants already added to the message words.
#include <immintrin.h>

#include "imageset/sha256.h"

namespace tfq::imageset::internal {

const uint32_t* Sha256RoundConstants();

namespace {

// Byte order within each 32-bit word: the message is big-endian.
inline __m128i ByteSwapMask() { return _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL); }

// One message's state as the SHA instructions want it ({A,B,E,F} and {C,D,G,H}).
struct Lanes {
  __m128i abef, cdgh;
};

inline Lanes LoadState(const uint32_t state[8]) {
  const __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
  const __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
  const __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  const __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  return {_mm_alignr_epi8(cdab, efgh, 8), _mm_blend_epi16(efgh, cdab, 0xF0)};
}

inline void StoreState(const Lanes& l, uint32_t state[8]) {
  const __m128i feba = _mm_shuffle_epi32(l.abef, 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(l.cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}

// The message schedule of one block: w holds W[t-16..t-1] in four vectors.
struct Schedule {
  __m128i w[4];
  void Load(const uint8_t* data, __m128i swap) {
    for (int i = 0; i < 4; ++i) {
      w[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i)), swap);
    }
  }
  // Rounds 4g..4g+3 of `l`, computing W[4g..4g+3] first when g >= 4.
  inline void Rounds(int g, const uint32_t* k, Lanes& l) {
    __m128i& cur = w[g & 3];
    if (g >= 4) {
      // W[t..t+3] from W[t-16..t-1]: cur holds W[t-16..t-13] before it is replaced.
      const __m128i prev1 = w[(g - 1) & 3], prev2 = w[(g - 2) & 3], prev3 = w[(g - 3) & 3];
      __m128i t = _mm_sha256msg1_epu32(cur, prev3);
      t = _mm_add_epi32(t, _mm_alignr_epi8(prev1, prev2, 4));
      cur = _mm_sha256msg2_epu32(t, prev1);
    }
    __m128i msg = _mm_add_epi32(cur, _mm_loadu_si128(reinterpret_cast<const __m128i*>(k + 4 * g)));
    l.cdgh = _mm_sha256rnds2_epu32(l.cdgh, l.abef, msg);
    msg = _mm_shuffle_epi32(msg, 0x0E);
    l.abef = _mm_sha256rnds2_epu32(l.abef, l.cdgh, msg);
  }
};

}  // namespace

void Sha256BlocksShaNi(uint32_t state[8], const uint8_t* data, size_t blocks) {
  const uint32_t* k = Sha256RoundConstants();
  const __m128i swap = ByteSwapMask();
  Lanes l = LoadState(state);
  for (; blocks > 0; --blocks, data += 64) {
    const Lanes in = l;
    Schedule s;
    s.Load(data, swap);
    for (int g = 0; g < 16; ++g) s.Rounds(g, k, l);
    l.abef = _mm_add_epi32(l.abef, in.abef);
    l.cdgh = _mm_add_epi32(l.cdgh, in.cdgh);
  }
  StoreState(l, state);
}

}  // namespace tfq::imageset::internal
