// Throughput of each CRC32C implementation on buffers of the sizes tfq sees: record headers,
// small records, and the large payloads `tfq inspect --verify` hashes. Not run by ctest.
//
//   tfq_crc32c_perftest [seconds per measurement, default 0.5]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "crc32c/crc32c.h"

#ifndef TFQ_BUILD_TYPE
#define TFQ_BUILD_TYPE "unknown"
#endif

namespace {

using Clock = std::chrono::steady_clock;
using ExtendFn = uint32_t (*)(uint32_t, const void*, size_t);
constexpr int kSlices = 11;

// Calls fn over buf repeatedly for about `seconds`; returns bytes per second. Each call continues
// from the previous CRC so the compiler cannot drop or overlap the calls.
double Measure(ExtendFn fn, const std::vector<uint8_t>& buf, double seconds, uint32_t* sink) {
  uint32_t crc = *sink;
  uint64_t calls = 0;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration<double>(seconds);
  auto now = start;
  do {
    for (int i = 0; i < 64; ++i) crc = fn(crc, buf.data(), buf.size());  // amortise the clock read
    calls += 64;
    now = Clock::now();
  } while (now < deadline);
  *sink = crc;
  return static_cast<double>(calls * buf.size()) / std::chrono::duration<double>(now - start).count();
}

// The measuring time is cut into slices and the median slice reported: on a shared machine a
// few slices lose the CPU to other work, and the median ignores them where a mean would not.
double MedianOfSlices(ExtendFn fn, const std::vector<uint8_t>& buf, double seconds, uint32_t* sink) {
  std::vector<double> rates;
  for (int i = 0; i < kSlices; ++i) rates.push_back(Measure(fn, buf, seconds / kSlices, sink));
  std::sort(rates.begin(), rates.end());
  return rates[kSlices / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 0.5;
  if (!(seconds > 0)) {
    std::fprintf(stderr, "tfq_crc32c_perftest: error: seconds must be positive\n");
    return 2;
  }
  const size_t sizes[] = {8, 64, 4 << 10, 64 << 10, 1 << 20};
  const char* labels[] = {"8 B", "64 B", "4 KiB", "64 KiB", "1 MiB"};

  std::vector<tfq::crc32c::Implementation> impls = tfq::crc32c::AvailableImplementations();
  impls.push_back({"Extend()", tfq::crc32c::Extend});  // the dispatched entry point

  std::printf("crc32c throughput, 1 thread, %s build: median of %d slices of %.2f s, after %.2f s warm-up\n",
              TFQ_BUILD_TYPE, kSlices, seconds / kSlices, seconds / 5);
  std::printf("in use: %s\n\n%-10s", tfq::crc32c::ImplementationName(), "impl");
  for (const char* label : labels) std::printf("%14s", label);
  std::printf("\n");

  uint32_t sink = 0;
  for (const auto& impl : impls) {
    std::printf("%-10s", impl.name);
    for (size_t size : sizes) {
      std::vector<uint8_t> buf(size);
      for (size_t i = 0; i < size; ++i) buf[i] = static_cast<uint8_t>(i * 131 + 7);
      Measure(impl.extend, buf, seconds / 5, &sink);  // warm caches, branch predictors and clocks
      std::printf("%9.2f GB/s", MedianOfSlices(impl.extend, buf, seconds, &sink) / 1e9);
      std::fflush(stdout);
    }
    std::printf("\n");
  }
  std::printf("\n(checksum %08x)\n", sink);
  return 0;
}
