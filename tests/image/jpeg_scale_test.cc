// The DCT scaling factor: the smallest that still covers the region being resized.
#include "image/jpeg_scale.h"

#include <doctest/doctest.h>

namespace tfq::image {
namespace {

TEST_CASE("the smallest power-of-two scale that covers the output") {
  // ImageNet's typical 500x375 to 224x224: 1/2 would give 188 rows < 224, so full size.
  CHECK(ChooseJpegScale(500, 375, 224, 224, ScaleSet::kPowersOfTwo) == JpegScale{1, 1});
  // Allowing every n/8: 5/8 gives 313x235 >= 224x224.
  CHECK(ChooseJpegScale(500, 375, 224, 224, ScaleSet::kAllEighths) == JpegScale{5, 8});
  // A camera photo to shorter side 256: 1/8 gives 229 rows, 1/4 gives 459.
  CHECK(ChooseJpegScale(3264, 1836, 455, 256, ScaleSet::kPowersOfTwo) == JpegScale{1, 4});
  CHECK(ChooseJpegScale(3264, 1836, 455, 256, ScaleSet::kAllEighths) == JpegScale{1, 4});
  // The 280-megapixel test file to 224x224.
  CHECK(ChooseJpegScale(20000, 14000, 224, 224, ScaleSet::kPowersOfTwo) == JpegScale{1, 8});
  // Exactly half is covered (448 * 1/2 == 224).
  CHECK(ChooseJpegScale(448, 448, 224, 224, ScaleSet::kPowersOfTwo) == JpegScale{1, 2});
  CHECK(ChooseJpegScale(447, 448, 224, 224, ScaleSet::kPowersOfTwo) == JpegScale{1, 1});
  // Floating-point regions just below a whole number still count.
  CHECK(ChooseJpegScale(447.9999999999, 448, 224, 224, ScaleSet::kPowersOfTwo) == JpegScale{1, 2});
  // Enlarging, or an identity, stays at full size; so does kFullSizeOnly.
  CHECK(ChooseJpegScale(100, 100, 224, 224, ScaleSet::kAllEighths) == JpegScale{1, 1});
  CHECK(ChooseJpegScale(224, 224, 224, 224, ScaleSet::kAllEighths) == JpegScale{1, 1});
  CHECK(ChooseJpegScale(4000, 4000, 224, 224, ScaleSet::kFullSizeOnly) == JpegScale{1, 1});
  // Both axes must be covered: a wide crop region.
  CHECK(ChooseJpegScale(4000, 500, 224, 224, ScaleSet::kPowersOfTwo) == JpegScale{1, 2});
  CHECK(ChooseJpegScale(4000, 500, 224, 224, ScaleSet::kAllEighths) == JpegScale{1, 2});  // 3/8: 188 rows
}

TEST_CASE("scaled sizes round up, as TurboJPEG's TJSCALED does") {
  CHECK(ScaledDim(500, {1, 1}) == 500);
  CHECK(ScaledDim(375, {1, 2}) == 188);
  CHECK(ScaledDim(375, {5, 8}) == 235);
  CHECK(ScaledDim(1836, {1, 8}) == 230);
  CHECK(ScaledDim(1, {1, 8}) == 1);
  CHECK(ScaledDim(65535, {1, 8}) == 8192);
  CHECK(SmallestJpegScale() == JpegScale{1, 8});
}

}  // namespace
}  // namespace tfq::image
