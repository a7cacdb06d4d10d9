#include "common/base64.h"

#include <array>
#include <cstdint>

namespace tfq {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int8_t, 256> MakeDecodeTable() {
  std::array<int8_t, 256> table{};
  for (auto& v : table) v = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<uint8_t>(kAlphabet[i])] = static_cast<int8_t>(i);
  table['-'] = 62;  // URL-safe alphabet
  table['_'] = 63;
  return table;
}
constexpr std::array<int8_t, 256> kDecode = MakeDecodeTable();

}  // namespace

void AppendBase64(std::string_view bytes, std::string* out) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t n = bytes.size();
  const size_t start = out->size();
  out->resize(start + (n + 2) / 3 * 4);
  char* o = out->data() + start;
  for (; n >= 3; n -= 3, p += 3) {
    const uint32_t v = (uint32_t{p[0]} << 16) | (uint32_t{p[1]} << 8) | p[2];
    *o++ = kAlphabet[v >> 18];
    *o++ = kAlphabet[(v >> 12) & 63];
    *o++ = kAlphabet[(v >> 6) & 63];
    *o++ = kAlphabet[v & 63];
  }
  if (n > 0) {
    const uint32_t v = (uint32_t{p[0]} << 16) | (n == 2 ? uint32_t{p[1]} << 8 : 0);
    *o++ = kAlphabet[v >> 18];
    *o++ = kAlphabet[(v >> 12) & 63];
    *o++ = n == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    *o++ = '=';
  }
}

bool DecodeBase64(std::string_view text, std::string* out) {
  if (text.size() % 4 == 0 && !text.empty()) {  // strip the padding of a padded encoding
    size_t pad = 0;
    while (pad < 2 && text[text.size() - 1 - pad] == '=') ++pad;
    text.remove_suffix(pad);
  }
  if (text.size() % 4 == 1) return false;
  uint32_t bits = 0;
  int bit_count = 0;
  for (char c : text) {
    const int8_t v = kDecode[static_cast<uint8_t>(c)];
    if (v < 0) return false;
    bits = (bits << 6) | static_cast<uint32_t>(v);
    bit_count += 6;
    if (bit_count >= 8) {
      bit_count -= 8;
      out->push_back(static_cast<char>((bits >> bit_count) & 0xff));
    }
  }
  return true;
}

}  // namespace tfq
