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

}  // namespace
}  // namespace tfq::imageset
