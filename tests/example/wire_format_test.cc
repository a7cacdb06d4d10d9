// wire::DecodeVarint against the plain byte-at-a-time decoding of protobuf's rule, for every
// length, with and without eight readable bytes (the word-at-a-time path and the loop), and for
// the inputs it must refuse.
#include <cstdint>
#include <random>
#include <string>

#include <doctest/doctest.h>

#include "example/wire_format.h"

namespace tfq::wire {
namespace {

// The reference: the varint's byte count (0: malformed, cut off or over ten bytes) and value.
int ReferenceDecode(const std::string& bytes, size_t begin, size_t end, uint64_t* value) {
  uint64_t result = 0;
  for (int i = 0; i < kMaxVarintBytes && begin + i < end; ++i) {
    const uint8_t byte = static_cast<uint8_t>(bytes[begin + i]);
    if (i < 10) result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if (byte < 0x80) {
      *value = result;
      return i + 1;
    }
  }
  return 0;
}

void CheckLikeReference(const std::string& bytes, size_t begin, size_t end) {
  uint64_t expected = 0, got = 0;
  const int length = ReferenceDecode(bytes, begin, end, &expected);
  const char* next = DecodeVarint(bytes.data() + begin, bytes.data() + end, &got);
  INFO("bytes from " << begin << " to " << end << " of " << bytes.size());
  if (length == 0) {
    CHECK(next == nullptr);
  } else {
    REQUIRE(next != nullptr);
    CHECK(next - bytes.data() == static_cast<std::ptrdiff_t>(begin + length));
    CHECK(got == expected);
  }
}

TEST_CASE("varints of every length decode as the byte loop does, whatever follows them") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200000; ++trial) {
    const int bits = static_cast<int>(rng() % 65);
    const uint64_t value = bits == 0 ? 0 : rng() >> (64 - bits);
    std::string bytes;
    uint64_t v = value;
    do {
      bytes += static_cast<char>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
      v >>= 7;
    } while (v != 0);
    const size_t length = bytes.size();
    const size_t tail = rng() % 12;  // fewer and more than eight bytes readable
    for (size_t i = 0; i < tail; ++i) bytes += static_cast<char>(rng());
    uint64_t got = 0;
    const char* next = DecodeVarint(bytes.data(), bytes.data() + bytes.size(), &got);
    REQUIRE(next == bytes.data() + length);
    REQUIRE(got == value);
    // The same bytes cut anywhere: decoded only when the whole varint is there.
    CheckLikeReference(bytes, 0, rng() % (bytes.size() + 1));
  }
}

TEST_CASE("random bytes, and the varints protobuf refuses, are refused alike") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200000; ++trial) {
    std::string bytes(rng() % 24, '\0');
    // Mostly continuation bytes, so that long and over-long varints are common.
    for (char& c : bytes) c = static_cast<char>(rng() % 8 == 0 ? rng() % 0x80 : 0x80 | rng());
    const size_t begin = bytes.empty() ? 0 : rng() % bytes.size();
    if (begin == bytes.size()) continue;
    CheckLikeReference(bytes, begin, begin + rng() % (bytes.size() - begin + 1));
  }
  const std::string eleven(11, '\xff');
  uint64_t ignored;
  CHECK(DecodeVarint(eleven.data(), eleven.data() + eleven.size(), &ignored) == nullptr);
  // Ten bytes: the last byte's bits beyond 64 are dropped, as protobuf does.
  const std::string ten = std::string(9, '\xff') + '\x7f';
  CHECK(DecodeVarint(ten.data(), ten.data() + ten.size(), &ignored) == ten.data() + 10);
  CHECK(ignored == UINT64_MAX);
}

}  // namespace
}  // namespace tfq::wire
