#include "reshard/checksum.h"

#include <cstdio>
#include <cstring>

#include "reshard/random.h"
#include "tfrecord/format.h"

namespace tfq::reshard {
namespace {

// Fractional digits of irrational numbers (pi, e, sqrt 2, 3, 5, 7 and the golden ratio): odd,
// dense bit patterns with nothing up anyone's sleeve.
constexpr uint64_t kLane[4] = {0x243F6A8885A308D3, 0xB7E151628AED2A6B, 0x6A09E667F3BCC909,
                               0xBB67AE8584CAA73B};
constexpr uint64_t kStep[4] = {0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1, 0x9E3779B97F4A7C15,
                               0x510E527FADE682D1};

inline uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// Both halves of the 128-bit product folded together: every input bit reaches the middle of
// the result in one multiply.
inline uint64_t Fold(uint64_t a, uint64_t b) {
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(p) ^ static_cast<uint64_t>(p >> 64);
}

// One step of a chain over 16 bytes. Both factors depend on the state, so no data word alone
// can zero the product and erase what the chain has seen.
inline uint64_t Step(uint64_t state, uint64_t w0, uint64_t w1, uint64_t k) {
  return Fold(state ^ w0, Rotl(state, 32) ^ w1 ^ k);
}

}  // namespace

uint64_t RecordHash(std::string_view record) {
  const char* p = record.data();
  const uint64_t n = record.size();
  size_t left = record.size();
  // Four independent chains over 64-byte blocks keep the multiplier busy.
  uint64_t s0 = kLane[0], s1 = kLane[1], s2 = kLane[2], s3 = kLane[3];
  while (left >= 64) {
    s0 = Step(s0, tfrecord::DecodeFixed64(p), tfrecord::DecodeFixed64(p + 8), kStep[0]);
    s1 = Step(s1, tfrecord::DecodeFixed64(p + 16), tfrecord::DecodeFixed64(p + 24), kStep[1]);
    s2 = Step(s2, tfrecord::DecodeFixed64(p + 32), tfrecord::DecodeFixed64(p + 40), kStep[2]);
    s3 = Step(s3, tfrecord::DecodeFixed64(p + 48), tfrecord::DecodeFixed64(p + 56), kStep[3]);
    p += 64;
    left -= 64;
  }
  // The lanes enter one chain in a fixed order (a block moved to another lane changes the
  // hash), seeded with the length (so zero padding of the tail below is unambiguous).
  uint64_t h = kLane[0] ^ (n * kStep[2]);
  h = Step(h, s0, s1, kStep[0]);
  h = Step(h, s2, s3, kStep[1]);
  while (left >= 16) {
    h = Step(h, tfrecord::DecodeFixed64(p), tfrecord::DecodeFixed64(p + 8), kStep[2]);
    p += 16;
    left -= 16;
  }
  if (left > 0) {
    char tail[16] = {};
    std::memcpy(tail, p, left);
    h = Step(h, tfrecord::DecodeFixed64(tail), tfrecord::DecodeFixed64(tail + 8), kStep[3]);
  }
  return Mix64(h ^ n);  // full avalanche, so the last bytes reach every bit
}

std::string RecordChecksum::Hex() const {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(sum_));
  return buf;
}

}  // namespace tfq::reshard
