// The resizer on known inputs: weight tables, constant images, step edges, a double-precision
// reference that follows Pillow's ImagingResample, regions and both pass orders.
#include "image/resize.h"
#include "image/resize_kernels.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "test_images.h"

namespace tfq::image {
namespace {

using testing::MakePattern;

constexpr Filter kFilters[] = {Filter::kBox, Filter::kTriangle, Filter::kLanczos3};

Image Resized(const Image& src, Region r, Filter f, int w, int h) {
  Resizer resizer;
  Image out;
  out.Reset(w, h, src.channels);
  resizer.Resize(src.view(), r, f, out.mutable_view());
  return out;
}

Image Resized(const Image& src, Filter f, int w, int h) {
  return Resized(src, Region{0, 0, double(src.width), double(src.height)}, f, w, h);
}

// Pillow's algorithm in double precision, without fixed point or intermediate rounding.
std::vector<std::vector<double>> RefWeights(Filter f, int in, double in0, double in1, int out,
                                            std::vector<int>* lo) {
  double scale = (in1 - in0) / out, fs = std::max(scale, 1.0);
  double support = (f == Filter::kBox ? 0.5 : f == Filter::kTriangle ? 1.0 : 3.0) * fs;
  std::vector<std::vector<double>> w(out);
  lo->resize(out);
  for (int i = 0; i < out; ++i) {
    double center = in0 + (i + 0.5) * scale;
    int a = std::max(int(center - support + 0.5), 0), b = std::min(int(center + support + 0.5), in);
    double total = 0;
    for (int x = a; x < b; ++x) {
      w[i].push_back(FilterValue(f, (x + 0.5 - center) / fs));
      total += w[i].back();
    }
    for (double& v : w[i]) v /= total;
    (*lo)[i] = a;
  }
  return w;
}

Image Reference(const Image& src, Region r, Filter f, int w, int h) {
  std::vector<int> lx, ly;
  auto wx = RefWeights(f, src.width, r.x0, r.x1, w, &lx);
  auto wy = RefWeights(f, src.height, r.y0, r.y1, h, &ly);
  Image out;
  out.Reset(w, h, src.channels);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int c = 0; c < src.channels; ++c) {
        double sum = 0;
        for (size_t j = 0; j < wy[y].size(); ++j) {
          for (size_t i = 0; i < wx[x].size(); ++i) {
            sum += wy[y][j] * wx[x][i] * src.row(ly[y] + int(j))[(lx[x] + int(i)) * src.channels + c];
          }
        }
        out.row(y)[x * src.channels + c] = static_cast<uint8_t>(std::clamp(std::lround(sum), 0L, 255L));
      }
    }
  }
  return out;
}

int MaxDiff(const Image& a, const Image& b) {
  REQUIRE(a.pixels.size() == b.pixels.size());
  int m = 0;
  for (size_t i = 0; i < a.pixels.size(); ++i) m = std::max(m, std::abs(int(a.pixels[i]) - int(b.pixels[i])));
  return m;
}

Image Noise(int w, int h, int c, unsigned seed) {
  std::mt19937 rng(seed);
  return MakePattern(w, h, c, [&](int, int, int) { return int(rng() % 256); });
}

TEST_CASE("weights sum to one, stay inside the source and shrink with the filter") {
  AxisWeights w;
  for (Filter f : kFilters) {
    for (int in : {1, 2, 3, 7, 64, 375, 1000}) {
      for (int out : {1, 2, 5, 64, 224, 999}) {
        for (double cut : {0.0, 0.25}) {
          double in0 = in * cut / 2, in1 = in - in * cut / 3;
          ComputeAxisWeights(f, in, in0, in1, out, &w);
          REQUIRE(w.out_size == out);
          REQUIRE(w.stride % 8 == 0);
          REQUIRE(w.stride >= w.taps);
          REQUIRE(w.coeffs.size() == size_t(out) * w.stride);
          for (int i = 0; i < out; ++i) {
            int sum = 0;
            for (int k = 0; k < w.stride; ++k) sum += w.coeffs[size_t(i) * w.stride + k];
            CHECK(sum == 1 << AxisWeights::kBits);
            CHECK(w.start[i] >= 0);
            CHECK(w.start[i] + w.taps <= in);
          }
        }
      }
    }
  }
  // A reduction by 4 stretches the triangle to a support of 4 on each side.
  ComputeAxisWeights(Filter::kTriangle, 400, 0, 400, 100, &w);
  CHECK(w.taps == 8);
  // Box at an integer factor averages exactly the covered pixels.
  ComputeAxisWeights(Filter::kBox, 8, 0, 8, 4, &w);
  REQUIRE(w.taps == 2);
  for (int i = 0; i < 4; ++i) {
    CHECK(w.start[i] == 2 * i);
    CHECK(w.coeffs[i * w.stride] == 8192);
    CHECK(w.coeffs[i * w.stride + 1] == 8192);
  }
}

TEST_CASE("a constant image stays constant, shrunk or enlarged, whole or in part") {
  for (Filter f : kFilters) {
    for (int c : {1, 3}) {
      Image flat = MakePattern(97, 61, c, [](int, int, int ch) { return 17 + 100 * ch; });
      for (auto [w, h] : {std::pair{224, 224}, {13, 7}, {97, 30}, {40, 61}, {300, 5}}) {
        Image out = Resized(flat, f, w, h);
        for (int y = 0; y < h; ++y) {
          for (int x = 0; x < w; ++x) {
            for (int ch = 0; ch < c; ++ch) REQUIRE(out.row(y)[x * c + ch] == 17 + 100 * ch);
          }
        }
        Image part = Resized(flat, Region{10.5, 3.25, 60, 44.75}, f, w, h);
        CHECK(MaxDiff(part, out) == 0);
      }
    }
  }
}

TEST_CASE("a step edge stays a symmetric edge") {
  Image step = MakePattern(64, 1, 1, [](int x, int, int) { return x < 32 ? 0 : 255; });
  for (Filter f : kFilters) {
    Image out = Resized(step, f, 16, 1);
    std::string filter_name = FilterName(f);
    CAPTURE(filter_name);
    CHECK(out.pixels.front() == 0);
    CHECK(out.pixels.back() == 255);
    for (int i = 0; i < 16; ++i) CHECK(std::abs(out.pixels[i] + out.pixels[15 - i] - 255) <= 1);
    if (f != Filter::kLanczos3) {  // lanczos rings (and is clamped); the others are monotonic
      for (int i = 1; i < 16; ++i) CHECK(out.pixels[i] >= out.pixels[i - 1]);
    }
  }
  // Triangle at 1/4: the edge spreads over the filter's support of 4 source pixels each side.
  Image tri = Resized(step, Filter::kTriangle, 16, 1);
  CHECK(tri.pixels[6] == 0);
  CHECK(tri.pixels[7] > 0);
  CHECK(tri.pixels[8] < 255);
  CHECK(tri.pixels[9] == 255);
  // Box at 1/4 is the plain mean of each group of 4.
  Image box = Resized(step, Filter::kBox, 16, 1);
  CHECK(box.pixels[7] == 0);
  CHECK(box.pixels[8] == 255);
}

TEST_CASE("matches a double-precision reference of Pillow's method") {
  for (Filter f : kFilters) {
    for (int c : {1, 3}) {
      Image src = Noise(53, 41, c, 7 + c);
      Image smooth = testing::Gradient(53, 41, c);
      for (auto [w, h] : {std::pair{20, 15}, {53, 20}, {20, 41}, {80, 60}, {7, 90}}) {
        for (const Image* im : {&src, &smooth}) {
          // Lanczos overshoots on noise and the 8-bit intermediate clamps it, differently in
          // each pass order; compare it on the smooth image only.
          if (f == Filter::kLanczos3 && im == &src) continue;
          Region whole{0, 0, 53, 41};
          std::string filter_name = FilterName(f);
          CAPTURE(filter_name);
          CAPTURE(w);
          CAPTURE(h);
          // Fixed point plus one rounding to 8 bits between the passes: off by at most 1 or 2.
          CHECK(MaxDiff(Resized(*im, whole, f, w, h), Reference(*im, whole, f, w, h)) <= 2);
          Region part{3.5, 2.25, 50.5, 30};
          CHECK(MaxDiff(Resized(*im, part, f, w, h), Reference(*im, part, f, w, h)) <= 2);
        }
      }
    }
  }
}

TEST_CASE("an identity resize copies, and a whole-pixel region at scale 1 extracts") {
  Image src = Noise(31, 17, 3, 3);
  CHECK(MaxDiff(Resized(src, Filter::kLanczos3, 31, 17), src) == 0);
  Image part = Resized(src, Region{4, 2, 14, 12}, Filter::kTriangle, 10, 10);
  for (int y = 0; y < 10; ++y) {
    for (int x = 0; x < 30; ++x) REQUIRE(part.row(y)[x] == src.row(y + 2)[12 + x]);
  }
}

TEST_CASE("enlarging interpolates linearly with the triangle filter") {
  Image two = MakePattern(2, 1, 1, [](int x, int, int) { return x ? 200 : 100; });
  Image out = Resized(two, Filter::kTriangle, 4, 1);
  // Output centres at 0.25, 0.75, 1.25, 1.75 source pixels; edges clamp.
  CHECK(out.pixels == std::vector<uint8_t>{100, 125, 175, 200});
}

TEST_CASE("one resizer reused across sizes gives the same results as fresh ones") {
  Resizer reused;
  for (int round = 0; round < 2; ++round) {
    for (auto [w, h] : {std::pair{20, 10}, {10, 20}, {33, 33}}) {
      Image src = Noise(60, 50, 3, w + h);
      Image a;
      a.Reset(w, h, 3);
      reused.Resize(src.view(), Region{0, 0, 60, 50}, Filter::kTriangle, a.mutable_view());
      CHECK(MaxDiff(a, Resized(src, Filter::kTriangle, w, h)) == 0);
    }
  }
}

TEST_CASE("every SIMD variant of the kernels gives the portable results exactly") {
  const kernels::Kernels* portable = kernels::Portable();
  std::vector<const kernels::Kernels*> variants = {kernels::Sse2(), kernels::Avx2()};
  MESSAGE("kernels in use: " << std::string(kernels::Best().name));
  std::mt19937 rng(5);
  for (const kernels::Kernels* v : variants) {
    if (!v) continue;
    CAPTURE(std::string(v->name));
    for (int taps : {1, 2, 3, 5, 8, 9, 17, 40}) {
      for (int n : {1, 15, 16, 17, 31, 32, 33, 100, 1000}) {
        std::vector<std::vector<uint8_t>> rows(taps, std::vector<uint8_t>(n));
        std::vector<const uint8_t*> ptrs;
        std::vector<int16_t> coeffs(taps);
        for (auto& r : rows) {
          for (auto& b : r) b = uint8_t(rng());
          ptrs.push_back(r.data());
        }
        // Weights that overshoot (negative lobes) so that clamping is exercised too.
        for (auto& c : coeffs) c = int16_t(int(rng() % 24000) - 6000);
        std::vector<uint8_t> a(n), b(n);
        portable->vertical(ptrs.data(), coeffs.data(), taps, n, a.data());
        v->vertical(ptrs.data(), coeffs.data(), taps, n, b.data());
        REQUIRE(a == b);
      }
    }
    for (Filter f : kFilters) {
      for (int in : {1, 7, 8, 9, 40, 333, 1000}) {
        for (int out : {1, 3, 4, 5, 64, 224, 999}) {
          AxisWeights w;
          ComputeAxisWeights(f, in, 0, in, out, &w);
          std::vector<uint8_t> row(in);
          for (auto& b : row) b = uint8_t(rng());
          std::vector<uint8_t> a(out), b(out);
          portable->horizontal1(row.data(), in, 0, w, a.data());
          v->horizontal1(row.data(), in, 0, w, b.data());
          REQUIRE(a == b);
        }
      }
    }
  }
}

}  // namespace
}  // namespace tfq::image
