// The --max-decompressed syntax and the ratio-with-floor policy (io/decompression_limit.h).
#include "io/decompression_limit.h"

#include <doctest/doctest.h>

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

TEST_CASE("the default ratio never refuses the first GiB, and a bomb soon after") {
  const DecompressionLimit l = DecompressionLimit::Default();
  CHECK(l.Exceeded(l.ratio_floor, 1) == "");          // 1 GiB from one byte: still allowed
  CHECK(l.Exceeded(uint64_t{50} << 30, uint64_t{10} << 30) == "");  // a genuine 5:1 file
  CHECK(l.Exceeded(uint64_t{100} << 30, uint64_t{1} << 30) == "");  // exactly 100:1
  const std::string bomb = l.Exceeded((uint64_t{1} << 30) + 1, 1 << 20);  // 1024:1
  CHECK(bomb.find("more than 100 times its compressed size") == 0);
  CHECK(DecompressionLimit(1000).Exceeded(1001, 1000).find("more than the limit of") == 0);
  CHECK(DecompressionLimit(1000).Exceeded(1000, 1) == "");
  CHECK(DecompressionLimit::None().Exceeded(UINT64_MAX, 1) == "");
}

}  // namespace tfq
