// Portable SHA-256 and the run-time choice of block function (FIPS 180-4, section 6.2).
#include "imageset/sha256.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace tfq::imageset {
namespace internal {
namespace {

constexpr uint32_t kRoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline uint32_t Rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

std::atomic<bool> force_portable{false};

}  // namespace

const uint32_t* Sha256RoundConstants() { return kRoundConstants; }

void Sha256BlocksPortable(uint32_t state[8], const uint8_t* data, size_t blocks) {
  uint32_t w[64];
  for (; blocks > 0; --blocks, data += 64) {
    for (int i = 0; i < 16; ++i) {
      w[i] = (uint32_t{data[4 * i]} << 24) | (uint32_t{data[4 * i + 1]} << 16) |
             (uint32_t{data[4 * i + 2]} << 8) | uint32_t{data[4 * i + 3]};
    }
    for (int i = 16; i < 64; ++i) {
      const uint32_t s0 = Rotr(w[i - 15], 7) ^ Rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const uint32_t s1 = Rotr(w[i - 2], 17) ^ Rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; ++i) {
      const uint32_t t1 = h + (Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                          kRoundConstants[i] + w[i];
      const uint32_t t2 = (Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}

bool Sha256HasShaExtensions() {
#if defined(__x86_64__)
  // CPUID directly: clang 14's __builtin_cpu_supports knows no "sha".
  static const bool has = [] {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1)) return false;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA) != 0;
  }();
  return has;
#else
  return false;
#endif
}

bool Sha256UsePortable(bool portable) { return force_portable.exchange(portable); }

namespace {
bool UseShaNi() {
#if defined(__x86_64__)
  return Sha256HasShaExtensions() && !force_portable.load(std::memory_order_relaxed);
#else
  return false;
#endif
}

void Blocks(uint32_t state[8], const uint8_t* data, size_t blocks) {
#if defined(__x86_64__)
  if (UseShaNi()) {
    Sha256BlocksShaNi(state, data, blocks);
    return;
  }
#endif
  Sha256BlocksPortable(state, data, blocks);
}
}  // namespace
}  // namespace internal

Sha256::Sha256()
    : state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
             0x5be0cd19} {}

void Sha256::Update(std::string_view data) {
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  size_t n = data.size();
  if (n == 0) return;  // an empty view's data() may be null, which memcpy must not get
  total_bytes_ += n;
  if (block_used_ > 0) {
    const size_t take = std::min(n, 64 - block_used_);
    std::memcpy(block_ + block_used_, p, take);
    block_used_ += take;
    p += take;
    n -= take;
    if (block_used_ < 64) return;
    internal::Blocks(state_, block_, 1);
    block_used_ = 0;
  }
  if (n >= 64) {
    internal::Blocks(state_, p, n / 64);
    p += n / 64 * 64;
    n %= 64;
  }
  std::memcpy(block_, p, n);
  block_used_ = n;
}

Sha256Digest Sha256::Final() {
  const uint64_t bits = total_bytes_ * 8;
  block_[block_used_++] = 0x80;
  if (block_used_ > 56) {
    std::memset(block_ + block_used_, 0, 64 - block_used_);
    internal::Blocks(state_, block_, 1);
    block_used_ = 0;
  }
  std::memset(block_ + block_used_, 0, 56 - block_used_);
  for (int i = 0; i < 8; ++i) block_[56 + i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
  internal::Blocks(state_, block_, 1);
  Sha256Digest out;
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<uint8_t>(state_[i] >> (24 - 8 * j));
  }
  return out;
}

Sha256Digest Sha256Of(std::string_view data) {
  Sha256 h;
  h.Update(data);
  return h.Final();
}

std::string DigestHex(const Sha256Digest& digest) {
  static const char kHex[] = "0123456789abcdef";
  std::string s(64, '0');
  for (size_t i = 0; i < digest.size(); ++i) {
    s[2 * i] = kHex[digest[i] >> 4];
    s[2 * i + 1] = kHex[digest[i] & 15];
  }
  return s;
}

std::string Sha256Hex(std::string_view data) { return DigestHex(Sha256Of(data)); }

}  // namespace tfq::imageset
