#include "csv/values.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <limits>

#include "common/float32_exact.h"

namespace tfq::csv {
namespace {

bool IsDigit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoreCase(const char* p, const char* e, std::string_view word) {
  if (static_cast<size_t>(e - p) != word.size()) return false;
  for (char w : word) {
    if (Lower(*p++) != w) return false;
  }
  return true;
}

// Clinger's fast path: a decimal with at most 2^53 as mantissa and a power of ten up to 10^22 is
// one correctly rounded double operation away (both operands are exact doubles). Rounding that
// double to float is then correct unless the double lands exactly on a midpoint between two
// floats, where the exact value could lie on either side: those (and everything else) go to
// from_chars. Most CSV numbers take the fast path, at a fraction of from_chars' cost.
bool FastFloat(uint64_t mantissa, int exp10, bool negative, float* out) {
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (mantissa > (uint64_t{1} << 53) || exp10 < -22 || exp10 > 22) return false;
  double d = static_cast<double>(mantissa);
  d = exp10 < 0 ? d / kPow10[-exp10] : d * kPow10[exp10];
  const float f = static_cast<float>(d);
  if (std::isinf(f)) return false;  // out of range: the slow path says so
  // A midpoint has 25 significant bits ending in 1: in the double, the 29 mantissa bits below
  // float precision are exactly 1000...0. (The result is a normal float: mantissa >= 1 and
  // 10^-22 keep it far above float's denormals.)
  const uint64_t bits = std::bit_cast<uint64_t>(d);
  if ((bits & ((uint64_t{1} << 29) - 1)) == (uint64_t{1} << 28)) return false;
  *out = negative ? -f : f;
  return true;
}

}  // namespace

NaMatcher::NaMatcher(std::vector<std::string> na_values) {
  for (std::string& na : na_values) {
    if (na.empty()) continue;  // always missing anyway
    if (na.size() < 64) {
      lengths_ |= uint64_t{1} << na.size();
    } else {
      has_long_ = true;
    }
    na_values_.push_back(std::move(na));
  }
}

FloatParse ParseFloat(std::string_view text, float* out, bool* integral) {
  const char* p = text.data();
  const char* const e = p + text.size();
  if (p == e) return FloatParse::kSyntax;
  if (*p == '+') {  // from_chars takes '-' but not '+'
    ++p;
    if (p < e && *p == '-') return FloatParse::kSyntax;
  }
  const char* const number = p;
  const bool negative = p < e && *p == '-';
  if (negative) ++p;
  if (p == e) return FloatParse::kSyntax;
  bool whole = true;
  bool fast = false;  // the mantissa and exponent below are exact
  uint64_t mantissa = 0;
  int exp10 = 0;
  if (!IsDigit(*p) && *p != '.') {
    if (!EqualsIgnoreCase(p, e, "nan") && !EqualsIgnoreCase(p, e, "inf") &&
        !EqualsIgnoreCase(p, e, "infinity")) {
      return FloatParse::kSyntax;
    }
    whole = false;
  } else {
    // Up to 19 significant digits go into the mantissa (it cannot overflow); more send the
    // value to from_chars.
    const char* const first = p;
    const char* significant = nullptr;  // first non-zero digit
    const char* point = nullptr;
    if (*p == '0') {
      ++p;
      if (p < e && IsDigit(*p)) return FloatParse::kSyntax;  // leading zero: "007" stays text
    } else {
      for (; p < e && IsDigit(*p); ++p) mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
    }
    if (mantissa != 0) significant = first;
    if (p < e && *p == '.') {
      whole = false;
      point = p++;
      for (; p < e && IsDigit(*p); ++p) {
        mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
        if (!significant && mantissa != 0) significant = p;
      }
      exp10 = -static_cast<int>(p - point - 1);
    }
    const size_t digits = static_cast<size_t>(p - first) - (point ? 1 : 0);
    // Digits from the first significant one (the point excluded); mantissa is exact below 20.
    const size_t kept = significant ? static_cast<size_t>(p - significant) - (point > significant) : 0;
    fast = kept <= 19;
    if (digits == 0) return FloatParse::kSyntax;
    if (p < e && (*p == 'e' || *p == 'E')) {
      whole = false;
      ++p;
      const bool exp_negative = p < e && *p == '-';
      if (p < e && (*p == '+' || *p == '-')) ++p;
      if (p == e || !IsDigit(*p)) return FloatParse::kSyntax;
      int exp = 0;
      for (; p < e && IsDigit(*p); ++p) {
        if (exp < 10000) exp = exp * 10 + (*p - '0');
      }
      exp10 += exp_negative ? -exp : exp;
    }
    if (p != e) return FloatParse::kSyntax;
  }
  if (integral) *integral = whole;
  if (fast) {
    if (mantissa == 0) {
      *out = negative ? -0.0f : 0.0f;
      return FloatParse::kOk;
    }
    if (FastFloat(mantissa, exp10, negative, out)) return FloatParse::kOk;
  }
  auto [ptr, ec] = std::from_chars(number, e, *out);
  if (ec == std::errc()) return ptr == e ? FloatParse::kOk : FloatParse::kSyntax;
  if (ec != std::errc::result_out_of_range) return FloatParse::kSyntax;
  // Too large or too small for float32: tiny values round to (signed) zero or a denormal.
  double d = 0;
  auto [dptr, dec] = std::from_chars(number, e, d);
  if (dec == std::errc()) {
    if (std::fabs(d) >= 1) return FloatParse::kOutOfRange;
    *out = static_cast<float>(d);
    return FloatParse::kOk;
  }
  for (const char* q = number; q + 1 < e; ++q) {  // beyond double too: the exponent's sign decides
    if ((*q == 'e' || *q == 'E') && q[1] == '-') {
      *out = negative ? -0.0f : 0.0f;
      return FloatParse::kOk;
    }
  }
  return FloatParse::kOutOfRange;
}

ValueFit ClassifyValue(std::string_view text) {
  ValueFit fit;
  int64_t v = 0;
  if (ParseInt64(text, &v)) {
    fit.int64 = true;
    fit.float32 = Float32HoldsExactly(v);
    return fit;
  }
  float f = 0;
  bool integral = false;
  if (ParseFloat(text, &f, &integral) != FloatParse::kOk) return fit;
  if (!integral) {
    fit.float32 = true;
    return fit;
  }
  // An integer in another spelling ("+5", "-0", "+0"): float only if no digit is lost.
  std::string_view t = text;
  if (t.front() == '+') t.remove_prefix(1);
  fit.float32 = t == "0" || t == "-0" || (ParseInt64(t, &v) && Float32HoldsExactly(v));
  return fit;
}

}  // namespace tfq::csv
