// The --max-decompressed syntax and the ratio-with-floor policy (io/decompression_limit.h), and
// (suite "shared") the real compressed files of ../shared that the default must never refuse.
#include "io/decompression_limit.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "common/test_env.h"
#include "io/compression.h"
#include "io/file_streams.h"
#include "io_test_util.h"

namespace tfq {

TEST_CASE("the flag takes a ratio, a size or none") {
  Result<DecompressionLimit> ratio = ParseDecompressionLimit("100x");
  REQUIRE(ratio.ok());
  CHECK(ratio->max_ratio == 100);
  CHECK(ratio->max_bytes == 0);
  CHECK(ratio->ratio_floor == DecompressionLimit::kDefaultFloor);
  Result<DecompressionLimit> size = ParseDecompressionLimit("20GiB");
  REQUIRE(size.ok());
  CHECK(size->max_bytes == (uint64_t{20} << 30));
  CHECK(size->max_ratio == 0);
  CHECK(ParseDecompressionLimit("none")->unlimited());
  CHECK(ParseDecompressionLimit("0")->unlimited());
  for (const char* bad : {"x", "0x", "-5x", "1.5x", "lots", ""}) {
    CAPTURE(bad);
    CHECK(ParseDecompressionLimit(bad).status().code() == StatusCode::kInvalidArgument);
  }
  CHECK(DecompressionLimit::Default().ToString() == "100x");
}

TEST_CASE("the default ratio never refuses the first 16 MiB, and a bomb soon after") {
  const DecompressionLimit l = DecompressionLimit::Default();
  CHECK(l.ratio_floor == uint64_t{16} << 20);  // a bomb's output is parsed: a second's worth
  CHECK(l.Exceeded(l.ratio_floor, 1) == "");          // 16 MiB from one byte: still allowed
  CHECK(l.Exceeded(uint64_t{50} << 30, uint64_t{10} << 30) == "");  // a genuine 5:1 file
  CHECK(l.Exceeded(uint64_t{100} << 30, uint64_t{1} << 30) == "");  // exactly 100:1
  CHECK(l.Exceeded(uint64_t{37} << 20, uint64_t{1} << 20) == "");  // the corpus's most, 37:1
  const std::string bomb = l.Exceeded((uint64_t{16} << 20) + 1, 16 << 10);  // 1024:1
  CHECK(bomb.find("more than 100 times its compressed size") == 0);
  CHECK(DecompressionLimit(1000).Exceeded(1001, 1000).find("more than the limit of") == 0);
  CHECK(DecompressionLimit(1000).Exceeded(1000, 1) == "");
  CHECK(DecompressionLimit::None().Exceeded(UINT64_MAX, 1) == "");
}

// Real data stays within 100x from its first byte on, so the default's free allowance (16 MiB)
// is a margin, not what lets real files through: every gzip/zlib file of the corpus (TFRecord
// files and the oracle's JSON lines) and every CSV file, gzipped here, is read whole with the
// ratio applied from the first byte (no allowance at all).
TEST_CASE("real TFRecord, CSV and JSON lines files never come near 100x" * doctest::test_suite("shared")) {
  const std::string shared = testing::SharedDir();
  REQUIRE_MESSAGE(!shared.empty(), "no shared corpus (set TFQ_SHARED_DIR)");
  DecompressionLimit strict = DecompressionLimit::Default();
  strict.ratio_floor = 0;
  size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(shared)) {
    if (!entry.is_regular_file()) continue;
    const std::string path = entry.path().string();
    std::string bytes = testing::ReadFileOrDie(path);
    Compression c = SniffCompression(std::string_view(bytes).substr(0, 16));
    if (path.ends_with(".csv")) {
      bytes = testing::ZlibCompress(bytes, /*gzip=*/true);
      c = Compression::kGzip;
    } else if (c == Compression::kNone || path.find("/images/") != std::string::npos) {
      continue;  // not compressed; images are not read through inflate
    }
    CAPTURE(path);
    auto s = NewDecompressingStream(NewMemoryInputStream(path, std::move(bytes)), c, strict);
    std::string out;
    CHECK(testing::ReadAll(*s, &out, 1 << 16).ok());
    ++files;
  }
  CHECK(files >= 60);
}

}  // namespace tfq
