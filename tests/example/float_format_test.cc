// AppendShortestFloat: Python protobuf's ToShortestFloat, the number text of proto-json. The
// expected strings are Python's: repr(type_checkers.ToShortestFloat(x)) without a trailing
// ".0" (python3-protobuf 3.21). tfq's implementation was also compared with that rule for every
// float32 bit pattern while it was written.
#include <cstring>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include "example/json_forms.h"
#include "random_examples.h"

namespace tfq {
namespace {

using testing::FromBits;

std::string Text(float f) {
  std::string out;
  AppendShortestFloat(f, &out);
  return out;
}


TEST_CASE("shortest round-trip text, as protobuf's Python JSON printer chooses it") {
  CHECK(Text(0.1f) == "0.1");
  CHECK(Text(1.0f) == "1");
  CHECK(Text(-0.0f) == "-0");
  CHECK(Text(0.0f) == "0");
  CHECK(Text(1e20f) == "1e+20");
  CHECK(Text(1e16f) == "1e+16");
  CHECK(Text(1e15f) == "1000000000000000");  // fixed notation up to 1e16, as Python's repr
  CHECK(Text(0.0001f) == "0.0001");
  CHECK(Text(0.00001f) == "1e-05");
  CHECK(Text(41.90752f) == "41.90752");
  CHECK(Text(-87.626656f) == "-87.626656");
  CHECK(Text(123456792.0f) == "123456790");
  CHECK(Text(std::numeric_limits<float>::max()) == "3.4028235e+38");
  CHECK(Text(std::numeric_limits<float>::min()) == "1.1754944e-38");
  CHECK(Text(std::numeric_limits<float>::quiet_NaN()) == "NaN");
  CHECK(Text(std::numeric_limits<float>::infinity()) == "Infinity");
  CHECK(Text(-std::numeric_limits<float>::infinity()) == "-Infinity");
}

TEST_CASE("where Python's rule differs from the plain shortest round trip") {
  // Subnormals: at least 6 significant digits (1.4013e-45, not 1e-45).
  CHECK(Text(FromBits(1)) == "1.4013e-45");
  CHECK(Text(FromBits(0x000f4240)) == "1.401298e-39");
  // 33871888 is a float; 33871890 (7 digits) reads back to it through a tie broken to even,
  // so Python prints that where std::to_chars prints "33871888".
  CHECK(Text(33871888.0f) == "33871890");
  // Python reads decimals back through a double. 7.038531e-26 lies just below the midpoint of
  // these two floats, but as a double it is the midpoint, which rounds to the even one (..fe).
  CHECK(Text(FromBits(0x15ae43fd)) == "7.0385307e-26");
  CHECK(Text(FromBits(0x15ae43fe)) == "7.038531e-26");
  CHECK(Text(FromBits(0x95ae43fe)) == "-7.038531e-26");
  std::string out = "x=";
  AppendShortestFloat(2.5f, &out);
  CHECK(out == "x=2.5");  // appends
}

}  // namespace
}  // namespace tfq
