// AppendShortestFloat: float32 values as text, the way protobuf's Python json_format prints
// them (its ToShortestFloat), so that our proto-json equals MessageToJson's as JSON values.
//
// ToShortestFloat takes the fewest significant digits p >= 6 whose correctly rounded decimal
// reads back (through a double) as the same float32. Fast path: std::to_chars's shortest
// decimal in scientific form (which minimises digits; the plain form minimises characters and
// may spend more digits), exact whenever that decimal is also the closest one of its length:
// always for <= 6 digits (only one 6-digit decimal fits in a float's rounding interval), and
// for any length unless the interval is lopsided (a power of two, whose gap below is half the
// gap above), and unless Python's read-back through a double rounds differently from an exact
// one (two magnitudes). Those, and subnormals, take the slow path, trying p digits as Python
// does (p from 6 for subnormals, where 1.4013e-45 round-trips, not the shortest 1e-45). The
// result was compared with the Python rule for all 2^32 bit patterns.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "example/json_forms.h"

namespace tfq {
namespace {

struct Decimal {
  bool negative = false;
  char digits[24];  // significant digits, no trailing zeros (at least one digit)
  int count = 0;
  int exponent = 0;  // value = 0.d1d2d3... * 10^(exponent + 1), i.e. d1.d2d3... * 10^exponent
};

// Splits to_chars scientific text ("-1.2345e+07") into digits and exponent.
Decimal FromScientific(const char* begin, const char* end) {
  Decimal d;
  const char* p = begin;
  if (*p == '-') {
    d.negative = true;
    ++p;
  }
  for (; p < end && *p != 'e'; ++p) {
    if (*p != '.') d.digits[d.count++] = *p;
  }
  std::from_chars(p + 1 + (p[1] == '+'), end, d.exponent);
  while (d.count > 1 && d.digits[d.count - 1] == '0') --d.count;
  return d;
}

// Python's repr layout: fixed notation for exponents -4..15, scientific otherwise ("1e+16",
// "1.4013e-45"); no ".0" suffix (the JSON writers add it).
void AppendDecimal(const Decimal& d, std::string* out) {
  if (d.negative) out->push_back('-');
  if (d.exponent < -4 || d.exponent >= 16) {
    out->push_back(d.digits[0]);
    if (d.count > 1) {
      out->push_back('.');
      out->append(d.digits + 1, d.count - 1);
    }
    out->push_back('e');
    out->push_back(d.exponent < 0 ? '-' : '+');
    const int e = std::abs(d.exponent);
    if (e < 10) out->push_back('0');
    out->append(std::to_string(e));
  } else if (d.exponent < 0) {
    out->append("0.");
    out->append(static_cast<size_t>(-d.exponent - 1), '0');
    out->append(d.digits, d.count);
  } else {
    const int integer_digits = d.exponent + 1;
    if (d.count <= integer_digits) {
      out->append(d.digits, d.count);
      out->append(static_cast<size_t>(integer_digits - d.count), '0');
    } else {
      out->append(d.digits, integer_digits);
      out->push_back('.');
      out->append(d.digits + integer_digits, d.count - integer_digits);
    }
  }
}

}  // namespace

void AppendShortestFloat(float value, std::string* out) {
  if (std::isnan(value)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(value)) {
    out->append(value > 0 ? "Infinity" : "-Infinity");
    return;
  }
  char buf[64];
  // Scientific notation minimises significant digits (the plain overload minimises characters,
  // which for large integers can mean more digits: "33871888" rather than "3.387189e+07").
  auto shortest = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  Decimal d = FromScientific(buf, shortest.ptr);
  // Python's answer is the n-digit decimal closest to the value, which is the one to_chars
  // picks unless the rounding interval is lopsided: at powers of two (a zero mantissa), where
  // the gap below is half the gap above, and for subnormals (p starts at 6 there, not n).
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const bool normal = std::fabs(value) >= std::numeric_limits<float>::min() || value == 0;
  const bool power_of_two = (bits & 0x7fffff) == 0;
  // Python reads a decimal back through a double. For these two magnitudes alone (found by the
  // exhaustive comparison) a 7-digit decimal rounds to exactly the double midway between them,
  // which then rounds to the even one: Python's choice differs from the exact interval's.
  const uint32_t magnitude = bits & 0x7fffffff;
  const bool double_rounding = magnitude == 0x15ae43fd || magnitude == 0x15ae43fe;
  if (!normal || (d.count > 6 && power_of_two) || double_rounding) {
    for (int p = normal && !double_rounding ? d.count : 6; p <= 9; ++p) {
      auto r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(value),
                             std::chars_format::scientific, p - 1);
      double back = 0;
      std::from_chars(buf, r.ptr, back);
      if (static_cast<float>(back) == value) {
        d = FromScientific(buf, r.ptr);
        break;
      }
    }
  }
  AppendDecimal(d, out);
}

}  // namespace tfq
