// Scalar conversions shared by the two JSON readers, and their WireWriter (json_read_internal.h).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/base64.h"
#include "common/json_output.h"
#include "common/json_text.h"
#include "example/json_read_internal.h"
#include "example/wire_format.h"

namespace tfq::internal {

size_t WireWriter::Open(uint32_t field) {
  const size_t mark = out_->size();
  char* p = out_->Reserve(2);
  p[0] = static_cast<char>(wire::MakeTag(field, wire::kLengthDelimited));
  p[1] = 0;
  out_->CommitTo(p + 2);
  return mark;
}

void WireWriter::Close(size_t mark) {
  const size_t length = out_->size() - mark - 2;
  if (length < 0x80) {
    out_->data()[mark + 1] = static_cast<char>(length);
    return;
  }
  const size_t extra = wire::VarintSize(length) - 1;
  char* end = out_->Reserve(extra) + extra;
  char* contents = out_->data() + mark + 2;
  std::memmove(contents + extra, contents, length);
  wire::EncodeVarint(length, out_->data() + mark + 1);
  out_->CommitTo(end);
}

void WireWriter::Bytes(uint32_t field, std::string_view value) {
  char* p = out_->Reserve(1 + wire::kMaxVarintBytes + value.size());
  *p++ = static_cast<char>(wire::MakeTag(field, wire::kLengthDelimited));
  p = wire::EncodeVarint(value.size(), p);
  if (!value.empty()) std::memcpy(p, value.data(), value.size());
  out_->CommitTo(p + value.size());
}

void WireWriter::Varint(uint64_t value) {
  char* p = out_->Reserve(wire::kMaxVarintBytes);
  out_->CommitTo(wire::EncodeVarint(value, p));
}

void WireWriter::Fixed32(float value) {
  out_->Append(&value, 4);  // little-endian host (wire_format.h)
}

void WireWriter::Rotate(size_t begin, size_t middle) {
  char* data = out_->data();
  std::rotate(data + begin, data + middle, data + out_->size());
}

std::string JsonPath::str() const {
  switch (kind_) {
    case Kind::kTop: return std::string(text_);
    case Kind::kField: return parent_->str() + "." + std::string(text_);
    case Kind::kKey: return parent_->str() + "[" + QuotedKey(text_) + "]";
    case Kind::kIndex: return parent_->str() + "[" + std::to_string(index_) + "]";
  }
  return std::string();
}

Status JsonError(const JsonPath& path, std::string_view what) {
  const std::string where = path.str();
  return Status::InvalidData(where.empty() ? std::string(what) : where + ": " + std::string(what));
}

std::string_view JsonTypeName(const Json& value) {
  switch (value.type()) {
    case Json::Type::kNull: break;
    case Json::Type::kObject: return "an object";
    case Json::Type::kArray: return "an array";
    case Json::Type::kString: return "a string";
    case Json::Type::kBoolean: return value.boolean() ? "true" : "false";
    case Json::Type::kInteger:
    case Json::Type::kUnsigned: return "an integer";
    case Json::Type::kFloat: return "a number";
  }
  return "null";
}

std::string QuotedKey(std::string_view key) {
  std::string out;
  AppendJsonString(key, &out);
  return out;
}

namespace {

bool NonFiniteName(std::string_view s, float* out) {
  if (s == "NaN") *out = std::numeric_limits<float>::quiet_NaN();
  else if (s == "Infinity") *out = std::numeric_limits<float>::infinity();
  else if (s == "-Infinity") *out = -std::numeric_limits<float>::infinity();
  else return false;
  return true;
}

// A decimal number in a string, as protobuf's JSON parser takes for float fields ("1.5",
// "-2e3"); not "nan"/"inf" spellings, which from_chars would accept. Read through a double, as
// Python's protobuf and JSON numbers are, so that AppendShortestFloat's text reads back exactly.
enum class Decimal { kNotANumber, kOk, kOutOfRange };

// Roughly log10 of a well-formed unsigned decimal: enough to tell a number too large for a
// double from one too small, which from_chars both report as out of range.
long DecimalExponent(std::string_view s) {
  const size_t e = s.find_first_of("eE");
  long exponent = 0;
  if (e != std::string_view::npos) {
    const char* first = s.data() + e + 1 + (s[e + 1] == '+');
    if (std::from_chars(first, s.data() + s.size(), exponent).ec != std::errc()) {
      exponent = *first == '-' ? -(1L << 40) : (1L << 40);  // beyond long: only the sign matters
    }
  }
  const std::string_view mantissa = s.substr(0, e);
  const size_t first = mantissa.find_first_not_of("0.");
  if (first == std::string_view::npos) return std::numeric_limits<long>::min();  // zero
  const size_t point = std::min(mantissa.find('.'), mantissa.size());
  return exponent + (first < point ? static_cast<long>(point - first)
                                   : -static_cast<long>(first - point - 1));
}
Decimal ParseDecimalFloat(std::string_view s, float* out) {
  const char* p = s.data();
  const char* end = p + s.size();
  const char* digits = p + (p < end && *p == '-');
  if (digits == end || !(std::isdigit(static_cast<unsigned char>(*digits)) || *digits == '.')) {
    return Decimal::kNotANumber;
  }
  double d = 0;
  auto [ptr, ec] = std::from_chars(p, end, d);
  if (ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range)) return Decimal::kNotANumber;
  if (ec == std::errc::result_out_of_range) {  // beyond double: huge is an error, tiny is zero
    if (DecimalExponent(std::string_view(digits, static_cast<size_t>(end - digits))) > 0) {
      return Decimal::kOutOfRange;
    }
    *out = digits != p ? -0.0f : 0.0f;
    return Decimal::kOk;
  }
  *out = static_cast<float>(d);
  return std::isfinite(*out) ? Decimal::kOk : Decimal::kOutOfRange;
}

}  // namespace

Status JsonToFloat(const Json& value, bool allow_numeric_strings, const JsonPath& where, float* out) {
  if (value.is_number_float()) {
    const double d = value.number_float();
    *out = static_cast<float>(d);
    if (std::isfinite(d) && !std::isfinite(*out)) {
      return JsonError(where, ToJsonText(nlohmann::json(d)) + " is out of float32 range");
    }
    return Status::OK();
  }
  if (value.is_number_unsigned()) {
    *out = static_cast<float>(value.unsigned_integer());
    return Status::OK();
  }
  if (value.is_number_integer()) {
    *out = static_cast<float>(value.integer());
    return Status::OK();
  }
  if (value.is_string()) {
    const std::string_view s = value.string();
    if (NonFiniteName(s, out)) return Status::OK();
    if (allow_numeric_strings) {
      switch (ParseDecimalFloat(s, out)) {
        case Decimal::kOk: return Status::OK();
        case Decimal::kOutOfRange: return JsonError(where, QuotedKey(s) + " is out of float32 range");
        case Decimal::kNotANumber: break;
      }
    }
    return JsonError(where, "expected a float, got the string " + QuotedKey(s));
  }
  return JsonError(where, "expected a float, got " + std::string(JsonTypeName(value)));
}

Status JsonToInt64(const Json& value, bool allow_strings, const JsonPath& where, int64_t* out) {
  if (value.is_number_unsigned()) {
    const uint64_t u = value.unsigned_integer();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return JsonError(where, "integer " + std::to_string(u) + " is beyond int64");
    }
    *out = static_cast<int64_t>(u);
    return Status::OK();
  }
  if (value.is_number_integer()) {
    *out = value.integer();
    return Status::OK();
  }
  if (value.is_number_float() && allow_strings) {  // protobuf accepts 3.0 for an int64 field
    const double d = value.number_float();
    if (d == std::trunc(d) && d >= -0x1p63 && d < 0x1p63) {
      *out = static_cast<int64_t>(d);
      return Status::OK();
    }
    return JsonError(where, "expected an int64, got " + ToJsonText(nlohmann::json(d)));
  }
  if (value.is_string() && allow_strings) {
    const std::string_view s = value.string();
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
    if (ec == std::errc::result_out_of_range && ptr == s.data() + s.size()) {
      return JsonError(where, "integer " + std::string(s) + " is beyond int64");
    }
    if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) {
      return JsonError(where, "expected an int64, got the string " + QuotedKey(s));
    }
    return Status::OK();
  }
  return JsonError(where, "expected an int64, got " + std::string(JsonTypeName(value)));
}

Status Base64ToBytesValue(const Json& value, const JsonPath& where, WireWriter* out) {
  if (!value.is_string()) {
    return JsonError(where, "expected a base64 string, got " + std::string(JsonTypeName(value)));
  }
  std::string* bytes = out->scratch();
  bytes->clear();
  if (!DecodeBase64(value.string(), bytes)) {
    return JsonError(where, "bad base64 " + QuotedKey(value.string()));
  }
  out->Bytes(wire::kListValue, *bytes);
  return Status::OK();
}

}  // namespace tfq::internal
