// The AVX2 variant of block_scan.h: 32 bytes per compare, and the quote parity with one
// carry-less multiply (PCLMULQDQ) instead of six shift-XOR steps. Chosen at run time
// (block_scan.cc) on CPUs with AVX2 and PCLMULQDQ.
//
// The instructions are enabled per function (target attributes), not for the file, so that no
// inline function this file instantiates (from a header) can be compiled with them and then
// picked by the linker for callers that run on any CPU.
#if defined(__x86_64__)

#include <immintrin.h>

#include "csv/block_scan.h"

namespace tfq::csv::internal {
namespace {

#define TFQ_AVX2 __attribute__((target("avx2,pclmul"), always_inline)) inline

TFQ_AVX2 uint64_t Match(__m256i lo, __m256i hi, char byte) {
  const __m256i needle = _mm256_set1_epi8(byte);
  const auto low = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, needle)));
  const auto high = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, needle)));
  return uint64_t{low} | uint64_t{high} << 32;
}

// Bit i: the XOR of bits 0..i, as a carry-less product with all ones.
TFQ_AVX2 uint64_t PrefixXor(uint64_t x) {
  const __m128i product = _mm_clmulepi64_si128(_mm_cvtsi64_si128(static_cast<long long>(x)),
                                               _mm_set1_epi8(-1), 0);
  return static_cast<uint64_t>(_mm_cvtsi128_si64(product));
}

TFQ_AVX2 void Classify(const char* p, char delim, uint64_t quote_enable, uint64_t* carry,
                       BlockMasks* out) {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  out->quote = Match(lo, hi, '"') & quote_enable;
  out->inside = PrefixXor(out->quote) ^ *carry;
  out->delim = Match(lo, hi, delim);
  out->lf = Match(lo, hi, '\n');
  out->cr = Match(lo, hi, '\r');
  *carry = static_cast<uint64_t>(static_cast<int64_t>(out->inside) >> 63);
}

#undef TFQ_AVX2

}  // namespace

__attribute__((target("avx2,pclmul"))) void ClassifyBlocksAvx2(
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
