#include "io/decompression_limit.h"

#include <cctype>
#include <charconv>

#include "common/byte_size.h"

namespace tfq {

std::string DecompressionLimit::Exceeded(uint64_t output, uint64_t input) const {
  if (max_bytes > 0 && output > max_bytes) {
    return "more than the limit of " + FormatByteSize(max_bytes);
  }
  // Compare output > ratio * input without overflowing.
  if (max_ratio > 0 && output > ratio_floor && (output - 1) / max_ratio >= input) {
    return "more than " + std::to_string(max_ratio) + " times its compressed size (" +
           FormatByteSize(output) + " from " + FormatByteSize(input) + ")";
  }
  return "";
}

std::string DecompressionLimit::ToString() const {
  if (max_ratio > 0) return std::to_string(max_ratio) + "x";
  if (max_bytes > 0) return FormatByteSize(max_bytes);
  return "none";
}

Result<DecompressionLimit> ParseDecompressionLimit(std::string_view text) {
  if (text == "none" || text == "0") return DecompressionLimit::None();
  if (!text.empty() && (text.back() == 'x' || text.back() == 'X')) {
    uint64_t ratio = 0;
    const std::string_view digits = text.substr(0, text.size() - 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), ratio);
    if (ec != std::errc() || end != digits.data() + digits.size() || ratio < 1) {
      return Status::InvalidArgument("a decompression ratio is a whole number followed by x (100x), not \"" +
                                     std::string(text) + "\"");
    }
    DecompressionLimit l;
    l.max_ratio = ratio;
    return l;
  }
  Result<uint64_t> bytes = ParseByteSize(text);
  if (!bytes.ok()) {
    return Status::InvalidArgument("expected a ratio (100x), a size (20GiB) or none, not \"" +
                                   std::string(text) + "\"");
  }
  return DecompressionLimit(bytes.value());
}

}  // namespace tfq
