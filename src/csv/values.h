// What text counts as an int64 or a float: one grammar for type inference and for conversion,
// spelled out with its corner cases in docs/csv.md.
//
// int64: -?(0|[1-9][0-9]*) within int64, and not "-0". Only the canonical spelling, so that writing
//   the integer back gives the same text (CSV -> TFRecord -> CSV is lossless): "007" (ZIP codes),
//   "+5", "-0", " 5", "5 ", "1e3", "0x1F", "1,5" are not int64.
// float (float32, tf.Example's FloatList): [+-]?(int-part(.digits*)?|.digits)([eE][+-]?digits)?
//   where int-part is 0 or starts with 1-9 (no leading zeros, so "007" stays text), or
//   [+-]?(nan|inf|infinity) in any case. Rounded to the nearest float32; magnitudes beyond
//   float32's range are out of range, values below its smallest denormal round to zero.
#ifndef TFQ_CSV_VALUES_H_
#define TFQ_CSV_VALUES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfq::csv {

// Parses the canonical int64 spelling (above). Fast: no locale, no allocation; inline, since
// converting a CSV row calls it per field.
inline bool ParseInt64(std::string_view text, int64_t* out) {
  const char* p = text.data();
  size_t n = text.size();
  if (n == 0) return false;
  const bool negative = *p == '-';
  p += negative;
  n -= negative;
  if (n == 0 || n > 19) return false;  // 19 digits always fit in uint64_t
  if (*p == '0') {  // "0" alone; "-0" and leading zeros would not survive a round trip
    if (n != 1 || negative) return false;
    *out = 0;
    return true;
  }
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    const unsigned d = static_cast<unsigned char>(p[i] - '0');
    if (d > 9) return false;
    v = v * 10 + d;
  }
  constexpr uint64_t kMax = uint64_t{0x7fffffffffffffff};
  if (v > kMax + negative) return false;
  *out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);  // C++20: wraps
  return true;
}

enum class FloatParse : uint8_t {
  kOk,
  kSyntax,      // not in the float grammar
  kOutOfRange,  // in the grammar, but beyond float32's range
};

// Parses the float grammar into a float32. *integral (if given) says the text was written as an
// integer: digits with an optional sign, no point, exponent, nan or inf.
FloatParse ParseFloat(std::string_view text, float* out, bool* integral = nullptr);

// How a non-missing value constrains a column during inference.
struct ValueFit {
  bool int64 = false;    // ParseInt64 accepts it
  bool float32 = false;  // ParseFloat accepts it, and, when written as an integer, the integer
                         // is within int64 and float32 holds it exactly (no digit lost)
};
ValueFit ClassifyValue(std::string_view text);

// Which fields are missing: the empty field always, and the given NA strings (compared byte for
// byte, after unquoting: "NA" and NA are the same field). Cheap when there are none.
class NaMatcher {
 public:
  NaMatcher() = default;
  explicit NaMatcher(std::vector<std::string> na_values);
  bool IsMissing(std::string_view field) const {
    if (field.empty()) return true;
    if (field.size() < 64 ? !((lengths_ >> field.size()) & 1) : !has_long_) return false;
    for (const std::string& na : na_values_) {
      if (na == field) return true;
    }
    return false;
  }
  const std::vector<std::string>& na_values() const { return na_values_; }

 private:
  std::vector<std::string> na_values_;
  uint64_t lengths_ = 0;  // bit n set: some NA string has n bytes (n < 64)
  bool has_long_ = false;  // some NA string has 64 bytes or more
};

// Calls fn(element) for each part of `text` split on `separator` ("a;;b" gives "a", "", "b";
// "" gives one empty element). The views point into `text`.
template <typename Fn>
void ForEachListElement(std::string_view text, char separator, Fn&& fn) {
  for (;;) {
    const size_t at = text.find(separator);
    if (at == std::string_view::npos) {
      fn(text);
      return;
    }
    fn(text.substr(0, at));
    text.remove_prefix(at + 1);
  }
}

}  // namespace tfq::csv

#endif  // TFQ_CSV_VALUES_H_
