// The baseline variant of block_scan.h (SSE2 on x86-64, portable elsewhere) and the run-time
// choice among the variants.
#include "csv/block_scan.h"

#include <atomic>

#include "csv/scan_inl.h"

namespace tfq::csv::internal {

void ClassifyBlocksBaseline(const char* p, size_t len, char delim, bool quoting,
                            uint64_t* in_quote, BlockMasks* out) {
  const uint64_t quote_enable = quoting ? ~uint64_t{0} : 0;
  uint64_t carry = *in_quote;
  for (size_t i = 0; i < len; i += kBlockBytes, ++out) {
    const size_t n = len - i < kBlockBytes ? len - i : kBlockBytes;
    const ByteClasses m = ClassifyTail(p + i, n, delim, '"');
    out->quote = m.quote & quote_enable;
    out->inside = PrefixXor(out->quote) ^ carry;
    out->delim = m.delim;
    out->lf = m.lf;
    out->cr = m.cr;
    carry = TopBitToMask(out->inside);
  }
  *in_quote = carry;
}

namespace {

constexpr ClassifyVariant kBaseline{"baseline", ClassifyBlocksBaseline};
#if defined(__x86_64__)
constexpr ClassifyVariant kAvx2{"avx2", ClassifyBlocksAvx2};
constexpr ClassifyVariant kAvx512{"avx512bw", ClassifyBlocksAvx512};

bool CpuHas(bool avx512) {
  __builtin_cpu_init();  // we may run before libgcc's own constructor has filled in the features
  if (!__builtin_cpu_supports("pclmul")) return false;
  return avx512 ? __builtin_cpu_supports("avx512bw") : __builtin_cpu_supports("avx2");
}
#endif

ClassifyVariant Best() {
#if defined(__x86_64__)
  if (CpuHas(true)) return kAvx512;
  if (CpuHas(false)) return kAvx2;
#endif
  return kBaseline;
}

// As crc32c.cc: a trampoline that resolves the choice once and replaces itself; racing threads
// store the same value, and the pointer names code only, so relaxed order is enough.
void ResolveAndClassify(const char* p, size_t len, char delim, bool quoting, uint64_t* in_quote,
                        BlockMasks* out);
std::atomic<ClassifyBlocksFn> g_classify{&ResolveAndClassify};

void ResolveAndClassify(const char* p, size_t len, char delim, bool quoting, uint64_t* in_quote,
                        BlockMasks* out) {
  const ClassifyBlocksFn best = Best().fn;
  g_classify.store(best, std::memory_order_relaxed);
  best(p, len, delim, quoting, in_quote, out);
}

}  // namespace

void ClassifyBlocks(const char* p, size_t len, char delim, bool quoting, uint64_t* in_quote,
                    BlockMasks* out) {
  g_classify.load(std::memory_order_relaxed)(p, len, delim, quoting, in_quote, out);
}

std::vector<ClassifyVariant> ClassifyVariants() {
  std::vector<ClassifyVariant> variants = {kBaseline};
#if defined(__x86_64__)
  if (CpuHas(false)) variants.push_back(kAvx2);
  if (CpuHas(true)) variants.push_back(kAvx512);
#endif
  return variants;
}

}  // namespace tfq::csv::internal
