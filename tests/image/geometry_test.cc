// Output sizes for --size / --shorter-side / --max-side (+ centre crop), orientation mapping.
#include "image/geometry.h"

#include <doctest/doctest.h>

#include "test_images.h"

namespace tfq::image {
namespace {

using testing::MakePattern;

ResizePlan Plan(int w, int h, ResizeMode mode, int a, int b = 0, bool crop = false) {
  ResizeSpec s;
  s.mode = mode;
  if (mode == ResizeMode::kExact) {
    s.width = a;
    s.height = b;
  } else {
    s.side = a;
  }
  s.crop_center = crop;
  REQUIRE(ValidateResizeSpec(s).ok());
  return PlanResize(w, h, s);
}

bool Same(const Region& a, const Region& b) {
  return std::abs(a.x0 - b.x0) < 1e-9 && std::abs(a.y0 - b.y0) < 1e-9 && std::abs(a.x1 - b.x1) < 1e-9 &&
         std::abs(a.y1 - b.y1) < 1e-9;
}

TEST_CASE("--size gives exactly WxH; with a centre crop the region keeps the output's aspect") {
  ResizePlan p = Plan(500, 375, ResizeMode::kExact, 224, 224);
  CHECK(p.out_width == 224);
  CHECK(p.out_height == 224);
  CHECK(Same(p.region, {0, 0, 500, 375}));
  p = Plan(500, 375, ResizeMode::kExact, 224, 224, true);
  CHECK(Same(p.region, {62.5, 0, 437.5, 375}));
  p = Plan(300, 600, ResizeMode::kExact, 200, 100, true);
  CHECK(p.out_width == 200);
  CHECK(p.out_height == 100);
  CHECK(Same(p.region, {0, 225, 300, 375}));
}

TEST_CASE("--shorter-side keeps the aspect ratio and enlarges small images") {
  ResizePlan p = Plan(500, 375, ResizeMode::kShorterSide, 256);
  CHECK(p.out_width == 341);  // 500 * 256 / 375 = 341.33
  CHECK(p.out_height == 256);
  p = Plan(375, 500, ResizeMode::kShorterSide, 256);
  CHECK(p.out_width == 256);
  CHECK(p.out_height == 341);
  p = Plan(100, 50, ResizeMode::kShorterSide, 256);
  CHECK(p.out_width == 512);
  CHECK(p.out_height == 256);
  p = Plan(3264, 1836, ResizeMode::kShorterSide, 256, 0, true);
  CHECK(p.out_width == 256);
  CHECK(p.out_height == 256);
  CHECK(Same(p.region, {714, 0, 2550, 1836}));
  p = Plan(10000, 1, ResizeMode::kShorterSide, 1);
  CHECK(p.out_width == 10000);
  CHECK(p.out_height == 1);
}

TEST_CASE("--max-side only shrinks") {
  ResizePlan p = Plan(4032, 3024, ResizeMode::kMaxSide, 1024);
  CHECK(p.out_width == 1024);
  CHECK(p.out_height == 768);
  p = Plan(3024, 4032, ResizeMode::kMaxSide, 1024);
  CHECK(p.out_width == 768);
  CHECK(p.out_height == 1024);
  p = Plan(500, 375, ResizeMode::kMaxSide, 1024);
  CHECK(IsIdentityPlan(p, 500, 375));
  p = Plan(20000, 3, ResizeMode::kMaxSide, 100);
  CHECK(p.out_width == 100);
  CHECK(p.out_height == 1);  // never 0
  CHECK(IsIdentityPlan(PlanResize(7, 9, ResizeSpec{}), 7, 9));
}

TEST_CASE("invalid size options are kInvalidArgument") {
  ResizeSpec s;
  s.mode = ResizeMode::kExact;
  CHECK(ValidateResizeSpec(s).code() == StatusCode::kInvalidArgument);
  s.width = 70000;
  s.height = 10;
  CHECK(ValidateResizeSpec(s).code() == StatusCode::kInvalidArgument);
  s = ResizeSpec{};
  s.crop_center = true;
  CHECK(ValidateResizeSpec(s).code() == StatusCode::kInvalidArgument);
  s.mode = ResizeMode::kMaxSide;
  s.side = 10;
  CHECK(ValidateResizeSpec(s).message().find("--max-side") != std::string::npos);
  int w = 0, h = 0;
  CHECK(ParseSize("224x200", &w, &h).ok());
  CHECK(w == 224);
  CHECK(h == 200);
  CHECK(ParseSize("64X32", &w, &h).ok());
  CHECK(ParseSize("64,32", &w, &h).ok());
  for (const char* bad :
       {"", "224", "x224", "224x", "224x-1", "0x10", "10x70000", "2.5x3", "10x10x10", "ax b"}) {
    CAPTURE(bad);
    CHECK(ParseSize(bad, &w, &h).code() == StatusCode::kInvalidArgument);
  }
}

// A 3x2 image whose pixels are numbered 1..6 row by row:  1 2 3
//                                                          4 5 6
Image Numbered() {
  return MakePattern(3, 2, 1, [](int x, int y, int) { return 1 + x + 3 * y; });
}

std::vector<uint8_t> Oriented(int orientation) {
  Image src = Numbered();
  bool swap = orientation >= 5;
  Image dst;
  dst.Reset(swap ? 2 : 3, swap ? 3 : 2, 1);
  ApplyOrientation(src.view(), orientation, dst.mutable_view());
  return dst.pixels;
}

TEST_CASE("EXIF orientations rotate and flip as viewers show them") {
  using V = std::vector<uint8_t>;
  CHECK(Oriented(1) == V{1, 2, 3, 4, 5, 6});
  CHECK(Oriented(2) == V{3, 2, 1, 6, 5, 4});  // mirrored left-right
  CHECK(Oriented(3) == V{6, 5, 4, 3, 2, 1});  // rotated 180
  CHECK(Oriented(4) == V{4, 5, 6, 1, 2, 3});  // mirrored top-bottom
  CHECK(Oriented(5) == V{1, 4, 2, 5, 3, 6});  // transposed
  CHECK(Oriented(6) == V{4, 1, 5, 2, 6, 3});  // rotated 90 clockwise
  CHECK(Oriented(7) == V{6, 3, 5, 2, 4, 1});  // transversed
  CHECK(Oriented(8) == V{3, 6, 2, 5, 1, 4});  // rotated 90 counter-clockwise
  // Three channels move together.
  Image rgb = MakePattern(2, 1, 3, [](int x, int, int c) { return 10 * x + c; });
  Image out;
  out.Reset(1, 2, 3);
  ApplyOrientation(rgb.view(), 6, out.mutable_view());
  CHECK(out.pixels == V{0, 1, 2, 10, 11, 12});
}

TEST_CASE("a displayed region maps to the stored pixels it shows") {
  // Stored 4x2 image; the displayed left half (for each orientation) in stored coordinates.
  const int w = 4, h = 2;
  for (int o = 1; o <= 8; ++o) {
    bool swap = o >= 5;
    double dw = swap ? h : w, dh = swap ? w : h;
    Region left{0, 0, dw / 2, dh};
    Region s = DisplayedToStored(left, o, w, h);
    CAPTURE(o);
    CHECK(s.width() * s.height() == doctest::Approx(dw * dh / 2));
    // Check against ApplyOrientation: the displayed left half holds exactly the stored pixels
    // of the mapped region.
    Image src = MakePattern(w, h, 1, [](int x, int y, int) { return 1 + x + w * y; });
    Image dst;
    dst.Reset(int(dw), int(dh), 1);
    ApplyOrientation(src.view(), o, dst.mutable_view());
    std::vector<int> shown, stored;
    for (int y = 0; y < int(dh); ++y) {
      for (int x = 0; x < int(dw / 2); ++x) shown.push_back(dst.row(y)[x]);
    }
    for (int y = int(s.y0); y < int(s.y1); ++y) {
      for (int x = int(s.x0); x < int(s.x1); ++x) stored.push_back(src.row(y)[x]);
    }
    std::sort(shown.begin(), shown.end());
    CHECK(shown == stored);
  }
}

TEST_CASE("centre crop") {
  Image src = MakePattern(5, 4, 1, [](int x, int y, int) { return 10 * y + x; });
  Image out;
  CenterCrop(src.view(), 3, 2, &out);
  CHECK(out.pixels == std::vector<uint8_t>{11, 12, 13, 21, 22, 23});
}

}  // namespace
}  // namespace tfq::image
