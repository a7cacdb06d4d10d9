#include "imageset/sha256.h"

#include <doctest/doctest.h>

#include <string>

#include "imageset/random.h"

namespace tfq::imageset {
namespace {

// FIPS 180-4 / NIST CAVP examples.
TEST_CASE("sha256: published vectors") {
  CHECK(Sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256 h;
  const std::string thousand(1000, 'a');
  for (int i = 0; i < 1000; ++i) h.Update(thousand);
  CHECK(DigestHex(h.Final()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256: SHA extensions and portable code agree at every length and split") {
  Rng rng(7);
  std::string data(300, '\0');
  for (char& c : data) c = static_cast<char>(rng.Next());
  for (size_t n = 0; n <= data.size(); ++n) {
    const std::string_view piece(data.data(), n);
    internal::Sha256UsePortable(true);
    const std::string portable = Sha256Hex(piece);
    internal::Sha256UsePortable(false);
    CHECK(Sha256Hex(piece) == portable);
    Sha256 split;  // fed in two uneven parts
    split.Update(piece.substr(0, n / 3));
    split.Update(piece.substr(n / 3));
    CHECK(DigestHex(split.Final()) == portable);
  }
  if (!internal::Sha256HasShaExtensions()) MESSAGE("no SHA extensions on this CPU: portable path only");
}

TEST_CASE("sha256: a pair hashed in lockstep gives each message's own digest") {
  Rng rng(11);
  std::string data(700, '\0');
  for (char& c : data) c = static_cast<char>(rng.Next());
  // Lengths around block boundaries, equal and unequal, either one the shorter, and empty ones.
  const size_t lengths[] = {0, 1, 55, 56, 63, 64, 65, 127, 128, 129, 300, 511, 640};
  for (size_t na : lengths) {
    for (size_t nb : lengths) {
      const std::string_view a(data.data(), na), b(data.data() + 50, nb);
      Sha256Digest da, db;
      Sha256Pair(a, b, &da, &db);
      CHECK(da == Sha256Of(a));
      CHECK(db == Sha256Of(b));
      internal::Sha256UsePortable(true);
      Sha256Pair(a, b, &da, &db);
      internal::Sha256UsePortable(false);
      CHECK(da == Sha256Of(a));
      CHECK(db == Sha256Of(b));
    }
  }
}

}  // namespace
}  // namespace tfq::imageset
