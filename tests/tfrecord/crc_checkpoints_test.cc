// CrcCheckpoints against plain CRCs of the same stretches, as a forward scan would ask for them.
#include "tfrecord/crc_checkpoints.h"

#include <doctest/doctest.h>

#include <random>
#include <string>

#include "crc32c/crc32c.h"

namespace tfq::tfrecord {
namespace {

TEST_CASE("checkpointed CRCs equal plain CRCs for stretches a forward scan asks for") {
  std::string stream(300000, '\0');
  std::mt19937 rng(3);
  for (char& c : stream) c = static_cast<char>(rng());
  CrcCheckpoints checkpoints;
  uint64_t at = 0;
  for (int i = 0; i < 3000; ++i) {
    // Move forward a little, now and then a lot (the view then starts past the checkpoints).
    at += rng() % 50 == 0 ? 20000 + rng() % 30000 : rng() % 40;
    if (at >= stream.size()) break;
    const uint64_t begin = at + rng() % 20;
    if (begin > stream.size()) break;
    const uint64_t room = stream.size() - begin;
    const uint64_t length = rng() % 4 == 0 ? rng() % 3000 : rng() % (room + 1);
    const uint64_t end = begin + std::min(length, room);
    CAPTURE(at);
    CAPTURE(begin);
    CAPTURE(end);
    const std::string_view view = std::string_view(stream).substr(at);
    REQUIRE(checkpoints.Crc(view, at, begin, end) ==
            crc32c::Value(stream.data() + begin, end - begin));
  }
}

}  // namespace
}  // namespace tfq::tfrecord
