// The facts printed with every benchmark result, so that a number is never read without knowing
// what produced it: the CPU, how many cores the process may use, the CRC32C implementation in use,
// how tfq was built and which version it is.
#ifndef TFQ_BENCH_MACHINE_H_
#define TFQ_BENCH_MACHINE_H_

#include <string>
#include <string_view>
#include <vector>

namespace tfq::bench {

struct MachineInfo {
  std::string cpu_model;   // "Intel(R) Xeon(R) ..." from /proc/cpuinfo, or "unknown"
  size_t cores = 1;        // CPUs this process may run on (its affinity mask)
  std::string crc32c;      // crc32c::ImplementationName(): "sse4.2" or "portable"
  std::string gzip;        // the library that inflates gzip/zlib (io/inflater.h): "isa-l 2.30.0"
  std::string build_type;  // CMAKE_BUILD_TYPE of this tfq: "Release", "Debug", ...
  std::string sanitizer;   // the -fsanitize list of a sanitizer build, "" otherwise
  bool optimized = true;   // compiled with optimization (__OPTIMIZE__)
  std::string tfq_version;
  std::string compiler;    // "g++ 12.2.0"
  std::string kernel;      // "Linux 6.1.0-18-amd64" (uname -sr)
};

// The machine running this process. Reads /proc/cpuinfo; never fails (unknown facts say so).
MachineInfo CurrentMachine();

// The CPU model named in the text of /proc/cpuinfo: the first "model name" line (x86), else
// "Model" or "Hardware" (ARM boards), else "" when none is present.
std::string CpuModelFromCpuinfo(std::string_view cpuinfo);

// Why numbers from this build should not be trusted or compared, one sentence each: a Debug or
// unoptimized build, a sanitizer build. Empty for an optimized, uninstrumented build.
std::vector<std::string> BuildWarnings(const MachineInfo& machine);

}  // namespace tfq::bench

#endif  // TFQ_BENCH_MACHINE_H_
