#include "bench/machine.h"

#include <sys/utsname.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/cpus.h"
#include "crc32c/crc32c.h"
#include "io/inflater.h"

// CMake passes these in (src/bench/CMakeLists.txt; TFQ_SANITIZER_BUILD from the top level when
// TFQ_SANITIZE is set). The fallbacks keep the file compiling on its own.
#ifndef TFQ_BUILD_TYPE
#define TFQ_BUILD_TYPE ""
#endif
#ifndef TFQ_VERSION
#define TFQ_VERSION "unknown"
#endif

namespace tfq::bench {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The value of the first "key : value" line whose key is `key`, or "".
std::string ValueOf(std::string_view text, std::string_view key) {
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || Trim(line.substr(0, colon)) != key) continue;
    const std::string_view value = Trim(line.substr(colon + 1));
    if (!value.empty()) return std::string(value);
  }
  return "";
}

}  // namespace

std::string CpuModelFromCpuinfo(std::string_view cpuinfo) {
  for (std::string_view key : {"model name", "Model", "Hardware"}) {
    std::string value = ValueOf(cpuinfo, key);
    if (!value.empty()) return value;
  }
  return "";
}

MachineInfo CurrentMachine() {
  MachineInfo m;
  std::ifstream in("/proc/cpuinfo");
  std::stringstream text;
  text << in.rdbuf();
  m.cpu_model = CpuModelFromCpuinfo(text.str());
  if (m.cpu_model.empty()) m.cpu_model = "unknown";
  m.cores = static_cast<size_t>(UsableCpus());
  m.crc32c = crc32c::ImplementationName();
  m.gzip = InflateLibrary();
  m.build_type = TFQ_BUILD_TYPE;
#ifdef TFQ_SANITIZER_BUILD
  m.sanitizer = TFQ_SANITIZER_BUILD;
#endif
#ifndef __OPTIMIZE__
  m.optimized = false;
#endif
  m.tfq_version = TFQ_VERSION;
#if defined(__clang__)
  m.compiler = std::string("clang++ ") + __clang_version__;
#elif defined(__GNUC__)
  m.compiler = std::string("g++ ") + __VERSION__;
#endif
  utsname u;
  if (uname(&u) == 0) m.kernel = std::string(u.sysname) + " " + u.release;
  return m;
}

std::vector<std::string> BuildWarnings(const MachineInfo& machine) {
  std::vector<std::string> warnings;
  if (machine.build_type == "Debug") {
    warnings.push_back("this tfq is a Debug build: its numbers say nothing about a Release build");
  } else if (!machine.optimized) {
    warnings.push_back("this tfq was compiled without optimization: its numbers are not representative");
  }
  if (!machine.sanitizer.empty()) {
    warnings.push_back("this tfq is a sanitizer build (" + machine.sanitizer +
                       "): instrumentation slows it down several times");
  }
  return warnings;
}

}  // namespace tfq::bench
