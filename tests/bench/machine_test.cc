#include "bench/machine.h"

#include <doctest/doctest.h>

namespace tfq::bench {
namespace {

TEST_CASE("CpuModelFromCpuinfo: x86 model name, first processor") {
  const char* text =
      "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel\t\t: 85\n"
      "model name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\nflags\t\t: fpu sse4_2\n\n"
      "processor\t: 1\nmodel name\t: Other\n";
  CHECK(CpuModelFromCpuinfo(text) == "Intel(R) Xeon(R) CPU @ 2.20GHz");
}

TEST_CASE("CpuModelFromCpuinfo: ARM boards") {
  CHECK(CpuModelFromCpuinfo("processor : 0\nBogoMIPS : 108.00\n\nHardware : BCM2835\n"
                            "Model : Raspberry Pi 4 Model B Rev 1.4\n") ==
        "Raspberry Pi 4 Model B Rev 1.4");
  CHECK(CpuModelFromCpuinfo("processor : 0\nHardware : Qualcomm\n") == "Qualcomm");
}

TEST_CASE("CpuModelFromCpuinfo: nothing known") {
  CHECK(CpuModelFromCpuinfo("") == "");
  CHECK(CpuModelFromCpuinfo("processor : 0\nmodel name :\n") == "");
}

TEST_CASE("CurrentMachine: the facts are filled in") {
  const MachineInfo m = CurrentMachine();
  CHECK(!m.cpu_model.empty());
  CHECK(m.cores >= 1);
  CHECK((m.crc32c == "sse4.2" || m.crc32c == "portable"));
  CHECK(!m.tfq_version.empty());
  CHECK((m.gzip.rfind("isa-l ", 0) == 0 || m.gzip.rfind("zlib ", 0) == 0));
}

TEST_CASE("BuildWarnings: Release is quiet, Debug and sanitizers are not") {
  MachineInfo m;
  m.build_type = "Release";
  CHECK(BuildWarnings(m).empty());
  m.build_type = "Debug";
  REQUIRE(BuildWarnings(m).size() == 1);
  CHECK(BuildWarnings(m)[0].find("Debug build") != std::string::npos);
  m.build_type = "RelWithDebInfo";
  m.sanitizer = "address,undefined";
  REQUIRE(BuildWarnings(m).size() == 1);
  CHECK(BuildWarnings(m)[0].find("address,undefined") != std::string::npos);
  m.optimized = false;
  CHECK(BuildWarnings(m).size() == 2);
}

}  // namespace
}  // namespace tfq::bench
