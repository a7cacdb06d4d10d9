// Run-time dispatch: the first call to Extend picks the fastest variant this CPU supports and
// stores it, so every later call is one indirect call with no feature test.
#include "crc32c/crc32c.h"

#include <atomic>

#include "crc32c/crc32c_internal.h"

namespace tfq::crc32c {
namespace {

using ExtendFn = uint32_t (*)(uint32_t crc, const void* data, size_t n);

constexpr Implementation kPortable{"portable", internal::ExtendPortable};
#if defined(__x86_64__)
constexpr Implementation kSse42{"sse4.2", internal::ExtendSse42};
#endif

// The SSE4.2 variant also needs PCLMULQDQ (to combine its parallel streams). Every x86-64 CPU
// since 2010 has both; the few with SSE4.2 alone (Nehalem) use the portable code.
bool CpuHasSse42() {
#if defined(__x86_64__)
  __builtin_cpu_init();  // we may run before libgcc's own constructor has filled in the features
  return __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("pclmul");
#else
  return false;
#endif
}

const Implementation& Best() {
#if defined(__x86_64__)
  if (CpuHasSse42()) return kSse42;
#endif
  return kPortable;
}

// Starts as a trampoline that resolves the choice and replaces itself. The pointer is
// constant-initialised, so calls made by other files' static constructors are safe too; two
// threads racing on the first call both store the same value. Relaxed order is enough because
// the pointer only ever names code, never data that another thread must see initialised.
uint32_t ResolveAndExtend(uint32_t crc, const void* data, size_t n);
std::atomic<ExtendFn> g_extend{&ResolveAndExtend};

uint32_t ResolveAndExtend(uint32_t crc, const void* data, size_t n) {
  ExtendFn best = Best().extend;
  g_extend.store(best, std::memory_order_relaxed);
  return best(crc, data, n);
}

}  // namespace

uint32_t Extend(uint32_t crc, const void* data, size_t n) {
  return g_extend.load(std::memory_order_relaxed)(crc, data, n);
}

const char* ImplementationName() { return Best().name; }

std::vector<Implementation> AvailableImplementations() {
  std::vector<Implementation> impls = {kPortable};
#if defined(__x86_64__)
  if (CpuHasSse42()) impls.push_back(kSse42);
#endif
  return impls;
}

}  // namespace tfq::crc32c
