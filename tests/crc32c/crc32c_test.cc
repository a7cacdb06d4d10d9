#include "crc32c/crc32c.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "common/test_env.h"

namespace tfq::crc32c {
namespace {

std::string Bytes(std::initializer_list<uint8_t> bytes) { return std::string(bytes.begin(), bytes.end()); }

std::string Filled(size_t n, uint8_t value) { return std::string(n, static_cast<char>(value)); }

std::string Ramp(uint8_t first, int step, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(first + step * static_cast<int>(i)));
  return s;
}

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (auto& ch : s) ch = static_cast<char>(rng());
  return s;
}

uint32_t Run(const Implementation& impl, std::string_view s) { return impl.extend(0, s.data(), s.size()); }

struct Vector {
  const char* what;
  std::string bytes;
  uint32_t crc;
};

// The one table every implementation must reproduce. TFRecord entries are bytes copied from the
// shared corpus (`xxd`), with the masked CRC stored right after them in the file.
const std::vector<Vector>& Vectors() {
  static const std::vector<Vector> vectors = {
      {"empty", "", 0},
      {"check value", "123456789", 0xe3069283u},
      // RFC 3720 (iSCSI) appendix B.4.
      {"32 zero bytes", Filled(32, 0x00), 0x8a9136aau},
      {"32 bytes 0xff", Filled(32, 0xff), 0x62a8ab43u},
      {"32 ascending bytes", Ramp(0, 1, 32), 0x46dd794eu},
      {"32 descending bytes", Ramp(31, -1, 32), 0x113fdb5cu},
      {"iSCSI read command PDU",
       Bytes({0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
              0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
              0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
              0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}),
       0xd9963a56u},
      // TFRecord length headers: 8-byte little-endian length, then its masked CRC.
      {"raccoon/test.record record 0 header", Bytes({0x7e, 0xd3, 0, 0, 0, 0, 0, 0}), Unmask(0x80bb75e7u)},
      {"raccoon/test.record record 1 header", Bytes({0x5a, 0xdb, 0x01, 0, 0, 0, 0, 0}), Unmask(0xdfc87be7u)},
      {"raccoon/test.record record 2 header", Bytes({0x6d, 0x70, 0x01, 0, 0, 0, 0, 0}), Unmask(0x8815f643u)},
      {"raccoon/test.record record 3 header", Bytes({0xe3, 0x76, 0, 0, 0, 0, 0, 0}), Unmask(0x809c9f51u)},
      {"dareblopy/test-small-r00.tfrecords record 0 header", Bytes({0x27, 0x0c, 0, 0, 0, 0, 0, 0}),
       Unmask(0x77ae0c51u)},
      // TFRecord payloads with their stored masked data CRC (magenta/tfrecord_iterator_test.tfrecord).
      {"magenta record 0 payload", "hello world", Unmask(0x6dd87e00u)},
      {"magenta record 1 payload", "12345", Unmask(0xe8ed1c7au)},
      {"magenta record 2 payload", "success", Unmask(0x996b6b04u)},
  };
  return vectors;
}

TEST_CASE("the implementation in use is one of the available ones, portable always among them") {
  std::vector<Implementation> impls = AvailableImplementations();
  REQUIRE(!impls.empty());
  CHECK(std::string(impls[0].name) == "portable");
  bool found = false;
  for (const auto& impl : impls) found = found || std::string(impl.name) == ImplementationName();
  CHECK(found);
#if defined(__x86_64__)
  if (__builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("pclmul")) {
    CHECK(std::string(ImplementationName()) == "sse4.2");
  }
#endif
}

TEST_CASE("every implementation reproduces the published and TFRecord vectors") {
  for (const auto& impl : AvailableImplementations()) {
    for (const auto& v : Vectors()) {
      INFO(std::string(impl.name), ": ", std::string(v.what));
      CHECK(Run(impl, v.bytes) == v.crc);
    }
  }
  // Extend and Value (through the dispatcher) agree with the table too.
  for (const auto& v : Vectors()) {
    INFO(std::string(v.what));
    CHECK(Value(v.bytes) == v.crc);
    CHECK(Value(v.bytes.data(), v.bytes.size()) == v.crc);
  }
}

TEST_CASE("masking round-trips and changes the value") {
  CHECK(Mask(Value("123456789")) != Value("123456789"));
  std::mt19937 rng(7);
  for (int i = 0; i < 10000; ++i) {
    const auto crc = static_cast<uint32_t>(rng());
    CHECK(Unmask(Mask(crc)) == crc);
    CHECK(Mask(Unmask(crc)) == crc);
  }
  CHECK(Unmask(Mask(0)) == 0);
  CHECK(Unmask(Mask(0xffffffffu)) == 0xffffffffu);
}

TEST_CASE("Extend composes: the CRC of a+b continues from the CRC of a") {
  const std::string data = RandomBytes(70000, 1);
  const size_t splits[] = {0, 1, 7, 8, 9, 255, 256, 4095, 12288, 40000, 69999, 70000};
  for (const auto& impl : AvailableImplementations()) {
    const uint32_t whole = impl.extend(0, data.data(), data.size());
    for (size_t split : splits) {
      INFO(std::string(impl.name), ": split at ", split);
      uint32_t crc = impl.extend(0, data.data(), split);
      CHECK(impl.extend(crc, data.data() + split, data.size() - split) == whole);
    }
  }
  CHECK(Extend(Extend(0, "hello ", 6), "world", 5) == Value("hello world"));
}

// The fast variants take different paths by length (single stream, a partial block, full blocks)
// and by alignment; each must land on exactly the portable result, from any starting CRC.
TEST_CASE("every implementation agrees with the portable one for all lengths and misalignments") {
  const std::vector<Implementation> impls = AvailableImplementations();
  const Implementation& portable = impls[0];
  const std::string data = RandomBytes(200000 + 64, 2);
  std::mt19937 rng(3);
  auto check_length = [&](size_t n) {
    const size_t offset = rng() % 64;
    const uint32_t start = rng() % 2 ? 0 : static_cast<uint32_t>(rng());
    const char* p = data.data() + offset;
    const uint32_t expected = portable.extend(start, p, n);
    for (const auto& impl : impls) {
      INFO(std::string(impl.name), ": length ", n, ", offset ", offset, ", start crc ", start);
      REQUIRE(impl.extend(start, p, n) == expected);
    }
  };
  for (size_t n = 0; n <= 4096; ++n) check_length(n);
  for (size_t n = 4097; n <= 200000; n += 251) check_length(n);
}

TEST_CASE("every implementation agrees with the portable one on a few MB of random data") {
  const std::string data = RandomBytes(5 << 20, 4);
  const std::vector<Implementation> impls = AvailableImplementations();
  const uint32_t expected = Run(impls[0], data);
  for (const auto& impl : impls) {
    INFO(std::string(impl.name));
    CHECK(Run(impl, data) == expected);
    CHECK(impl.extend(0, data.data() + 1, data.size() - 1) ==
          impls[0].extend(0, data.data() + 1, data.size() - 1));
  }
}

// Walks a real TFRecord file and checks every stored header and payload CRC. The payloads
// (3 KB to 120 KB) run the fast paths over real data; skipped without ../shared.
void CheckEveryRecordCrc(const std::string& relative_path) {
  const std::string dir = testing::SharedDir();
  REQUIRE_MESSAGE(!dir.empty(), "no shared corpus for " << relative_path);
  const std::string file = testing::ReadFileOrDie(dir + "/corpus/" + relative_path);
  auto load32 = [&](size_t at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(file[at + i]);
    return v;
  };
  for (const auto& impl : AvailableImplementations()) {
    size_t offset = 0;
    int records = 0;
    while (offset + 12 <= file.size()) {
      INFO(std::string(impl.name), ": ", relative_path, " record ", records, " (byte ", offset, ")");
      const uint64_t length = load32(offset) | (uint64_t{load32(offset + 4)} << 32);
      CHECK(Mask(impl.extend(0, file.data() + offset, 8)) == load32(offset + 8));
      REQUIRE(offset + 16 + length <= file.size());
      CHECK(Mask(impl.extend(0, file.data() + offset + 12, length)) == load32(offset + 12 + length));
      offset += 16 + length;
      ++records;
    }
    CHECK(offset == file.size());
    CHECK(records > 0);
  }
}

TEST_CASE("every implementation verifies every record of real TFRecord files" * doctest::test_suite("shared")) {
  CheckEveryRecordCrc("raccoon/test.record");
  CheckEveryRecordCrc("dareblopy/test-small-r00.tfrecords");
  CheckEveryRecordCrc("magenta/tfrecord_iterator_test.tfrecord");
}

TEST_CASE("Combine joins two CRCs and takes a prefix's CRC off a whole's") {
  std::string bytes(70000, '\0');
  uint32_t state = 12345;
  for (char& c : bytes) c = static_cast<char>((state = state * 1103515245u + 12345u) >> 24);
  for (size_t split : {size_t{0}, size_t{1}, size_t{7}, size_t{4096}, size_t{65537}, bytes.size()}) {
    for (size_t end : {split, split + 1, split + 13, size_t{70000}}) {
      if (end > bytes.size() || end < split) continue;
      CAPTURE(split);
      CAPTURE(end);
      const uint32_t a = Value(bytes.data(), split);
      const uint32_t b = Value(bytes.data() + split, end - split);
      const uint32_t whole = Value(bytes.data(), end);
      CHECK(Combine(a, b, end - split) == whole);
      CHECK(Combine(a, whole, end - split) == b);
    }
  }
  CHECK(Combine(Value("1234"), Value("56789"), 5) == 0xe3069283u);  // crc32c("123456789")
}

}  // namespace
}  // namespace tfq::crc32c
