// The AVX-512 variant of block_scan.h: 64 bytes per compare, straight into a bit mask, and the
// quote parity with one carry-less multiply (PCLMULQDQ). Chosen at run time (block_scan.cc) on
// CPUs with AVX-512BW and PCLMULQDQ.
//
// The instructions are enabled per function (target attributes), not for the file, so that no
// inline function this file instantiates (from a header) can be compiled with them and then
// picked by the linker for callers that run on any CPU.
#if defined(__x86_64__)

#include <immintrin.h>

#include "csv/block_scan.h"

namespace tfq::csv::internal {
namespace {

#define TFQ_AVX512 __attribute__((target("avx512bw,pclmul"), always_inline)) inline

// Bit i: the XOR of bits 0..i, as a carry-less product with all ones.
TFQ_AVX512 uint64_t PrefixXor(uint64_t x) {
  const __m128i product = _mm_clmulepi64_si128(_mm_cvtsi64_si128(static_cast<long long>(x)),
                                               _mm_set1_epi8(-1), 0);
  return static_cast<uint64_t>(_mm_cvtsi128_si64(product));
}

TFQ_AVX512 void Classify(const char* p, char delim, uint64_t quote_enable, uint64_t* carry,
                         BlockMasks* out) {
  const __m512i bytes = _mm512_loadu_si512(p);
  out->quote = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('"')) & quote_enable;
  out->inside = PrefixXor(out->quote) ^ *carry;
  out->delim = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(delim));
  out->lf = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('\n'));
  out->cr = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('\r'));
  *carry = static_cast<uint64_t>(static_cast<int64_t>(out->inside) >> 63);
}

#undef TFQ_AVX512

}  // namespace

__attribute__((target("avx512bw,pclmul"))) void ClassifyBlocksAvx512(
    const char* p, size_t len, char delim, bool quoting, uint64_t* in_quote, BlockMasks* out) {
  const uint64_t quote_enable = quoting ? ~uint64_t{0} : 0;
  uint64_t carry = *in_quote;
  size_t i = 0;
  for (; i + kBlockBytes <= len; i += kBlockBytes) {
    Classify(p + i, delim, quote_enable, &carry, out++);
  }
  *in_quote = carry;
  // A last, partial block: the baseline's byte-exact tail handling, from the same carry.
  if (i < len) ClassifyBlocksBaseline(p + i, len - i, delim, quoting, in_quote, out);
}

}  // namespace tfq::csv::internal

#endif  // __x86_64__
