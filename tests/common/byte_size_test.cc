#include "common/byte_size.h"

#include <doctest/doctest.h>

namespace tfq {

TEST_CASE("sizes parse with decimal and binary units") {
  CHECK(ParseByteSize("4096").value() == 4096);
  CHECK(ParseByteSize("64KiB").value() == 65536);
  CHECK(ParseByteSize("256MB").value() == 256000000);
  CHECK(ParseByteSize("1g").value() == 1073741824);
  CHECK(ParseByteSize("1.5GiB").value() == 1610612736);
  CHECK(ParseByteSize("512 MiB").value() == 536870912);
}

TEST_CASE("bad sizes are usage errors that say what is accepted") {
  for (const char* bad : {"", "MB", "-5", "12 parsecs", "1e30TB"}) {
    CAPTURE(bad);
    auto r = ParseByteSize(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("sizes format for people") {
  CHECK(FormatByteSize(512) == "512 B");
  CHECK(FormatByteSize(1536) == "1.5 KiB");
  CHECK(FormatByteSize(uint64_t{3} << 30) == "3.0 GiB");
}

}  // namespace tfq
