// JpegDecoder: planes and packed pixels at every scale, the handle re-created after errors,
// truncated data failing unless allow_partial, and CMYK/YCCK.
#include "image/jpeg_decoder.h"

#include <doctest/doctest.h>
#include <turbojpeg.h>

#include <string>

#include "image/color.h"
#include "test_images.h"

namespace tfq::image {
namespace {

using namespace testing;

JpegInfo Info(const std::string& jpeg) {
  Result<JpegInfo> r = ParseJpegHeader(jpeg);
  REQUIRE(r.ok());
  return r.value();
}

TEST_CASE("planes come in the file's own subsampling and the scaled size") {
  Image rgb = Gradient(101, 67, 3);
  struct {
    int tj;
    Subsampling s;
  } cases[] = {{TJSAMP_444, Subsampling::k444},
               {TJSAMP_422, Subsampling::k422},
               {TJSAMP_420, Subsampling::k420},
               {TJSAMP_440, Subsampling::k440}};
  JpegDecoder d;
  for (auto c : cases) {
    std::string jpeg = EncodeJpeg(rgb, 95, c.tj);
    JpegInfo info = Info(jpeg);
    Subsampling s;
    REQUIRE(d.CanDecodeToYuv(jpeg, info, &s));
    CHECK(s == c.s);
    for (JpegScale scale : {JpegScale{1, 1}, JpegScale{1, 2}, JpegScale{3, 8}, JpegScale{1, 8}}) {
      YuvImage yuv;
      bool partial = true;
      REQUIRE(d.DecodeToYuv(jpeg, info, scale, false, &yuv, &partial).ok());
      CHECK_FALSE(partial);
      CHECK(yuv.width == ScaledDim(101, scale));
      CHECK(yuv.height == ScaledDim(67, scale));
      CHECK(yuv.planes[1].width == PlaneWidth(1, yuv.width, c.s));
      // Converted to RGB, the planes match TurboJPEG's own RGB decode closely.
      Image via_yuv, direct;
      REQUIRE(d.YuvToRgb(yuv, &via_yuv).ok());
      REQUIRE(d.DecodeToPixels(jpeg, info, scale, DecodeFormat::kRgb, false, &direct, &partial).ok());
      CHECK(direct.width == yuv.width);
      CHECK(MeanAbsDiff(via_yuv, direct) < 2.5);
    }
  }
}

TEST_CASE("plane buffers are at least as large as TurboJPEG's layout needs") {
  for (Subsampling s : {Subsampling::k444, Subsampling::k422, Subsampling::k420, Subsampling::kGray,
                        Subsampling::k440, Subsampling::k411}) {
    for (int w : {1, 2, 3, 7, 8, 15, 16, 17, 223, 224, 225}) {
      for (int h : {1, 2, 3, 9, 16, 31, 111}) {
        YuvImage yuv;
        yuv.Reset(w, h, s);
        for (int p = 0; p < yuv.num_planes(); ++p) {
          CAPTURE(w);
          CAPTURE(h);
          CAPTURE(p);
          const Image& plane = yuv.planes[p];
          CHECK(plane.width == tjPlaneWidth(p, w, static_cast<int>(s)));
          CHECK(plane.height == tjPlaneHeight(p, h, static_cast<int>(s)));
          CHECK(plane.pixels.size() >= tjPlaneSizeYUV(p, w, plane.width, h, static_cast<int>(s)));
          CHECK(yuv.plane_view(p).width == (p == 0 ? w : PlaneWidth(p, w, s)));
        }
      }
    }
  }
}

TEST_CASE("gray files decode to one plane; colour files to gray") {
  JpegDecoder d;
  std::string gray = EncodeJpeg(Gradient(40, 30, 1));
  Subsampling s;
  REQUIRE(d.CanDecodeToYuv(gray, Info(gray), &s));
  CHECK(s == Subsampling::kGray);
  YuvImage yuv;
  bool partial;
  REQUIRE(d.DecodeToYuv(gray, Info(gray), {1, 2}, false, &yuv, &partial).ok());
  CHECK(yuv.num_planes() == 1);
  CHECK(yuv.width == 20);
  std::string color = EncodeJpeg(Gradient(40, 30, 3));
  Image g;
  REQUIRE(d.DecodeToPixels(color, Info(color), {1, 1}, DecodeFormat::kGray, false, &g, &partial).ok());
  CHECK(g.channels == 1);
  Image rgb, expect;
  REQUIRE(d.DecodeToPixels(color, Info(color), {1, 1}, DecodeFormat::kRgb, false, &rgb, &partial).ok());
  RgbToGray(rgb.view(), &expect);
  CHECK(MeanAbsDiff(g, expect) < 1.0);
}

// A file TurboJPEG refuses with a fatal error although the header reader accepts it: the frame
// header names a quantisation table that was never defined.
std::string UndefinedQuantTable() {
  std::string jpeg = EncodeJpeg(Gradient(32, 32, 3));
  size_t sof = FindMarker(jpeg, 0xC0);
  jpeg[sof + 10 + 2] = 3;  // Tq of the first component
  return jpeg;
}

TEST_CASE("after a failed decode the next good file still decodes (the handle is re-created)") {
  JpegDecoder d;
  std::string good = EncodeJpeg(Gradient(48, 40, 3));
  std::string bad = UndefinedQuantTable();
  REQUIRE(ParseJpegHeader(bad).ok());
  bool partial;
  for (int round = 0; round < 3; ++round) {
    Image out;
    Status s = d.DecodeToPixels(bad, Info(bad), {1, 1}, DecodeFormat::kRgb, false, &out, &partial);
    CHECK(s.code() == StatusCode::kCorruption);
    CHECK(s.message().find("Quantization table 0x03 was not defined") != std::string::npos);
    REQUIRE(d.DecodeToPixels(good, Info(good), {1, 1}, DecodeFormat::kRgb, false, &out, &partial).ok());
    CHECK(MeanAbsDiff(out, DecodeJpegForTest(good, 3)) == 0.0);
    YuvImage yuv;
    CHECK_FALSE(d.DecodeToYuv(bad, Info(bad), {1, 2}, false, &yuv, &partial).ok());
    CHECK(d.DecodeToYuv(good, Info(good), {1, 2}, false, &yuv, &partial).ok());
  }
}

TEST_CASE("a truncated JPEG fails unless allow_partial, and the next file is unaffected") {
  std::string jpeg = EncodeJpeg(Gradient(200, 150, 3), 95, TJSAMP_420);
  std::string cut = jpeg.substr(0, jpeg.size() * 6 / 10);
  JpegDecoder d;
  bool partial = false;
  Image out;
  Status s = d.DecodeToPixels(cut, Info(cut), {1, 1}, DecodeFormat::kRgb, false, &out, &partial);
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(s.message() == "truncated JPEG: premature end of data");
  YuvImage yuv;
  CHECK(d.DecodeToYuv(cut, Info(cut), {1, 4}, false, &yuv, &partial).message() ==
        "truncated JPEG: premature end of data");
  REQUIRE(d.DecodeToPixels(cut, Info(cut), {1, 1}, DecodeFormat::kRgb, true, &out, &partial).ok());
  CHECK(partial);
  REQUIRE(d.DecodeToPixels(jpeg, Info(jpeg), {1, 1}, DecodeFormat::kRgb, false, &out, &partial).ok());
  CHECK_FALSE(partial);
  // Progressive files too.
  std::string prog = EncodeJpeg(Gradient(200, 150, 3), 95, TJSAMP_420, true);
  std::string prog_cut = prog.substr(0, prog.size() / 2);
  CHECK(
      d.DecodeToPixels(prog_cut, Info(prog_cut), {1, 2}, DecodeFormat::kRgb, false, &out, &partial).code() ==
      StatusCode::kCorruption);
}

TEST_CASE("garbage after the last scan is accepted (the image is complete)") {
  std::string jpeg = EncodeJpeg(Gradient(64, 64, 3));
  // Insert junk before the EOI marker: libjpeg warns "extraneous bytes before marker 0xd9".
  std::string junk = jpeg.substr(0, jpeg.size() - 2) + "garbage" + "\xFF\xD9";
  JpegDecoder d;
  Image out;
  bool partial = true;
  REQUIRE(d.DecodeToPixels(junk, Info(junk), {1, 1}, DecodeFormat::kRgb, false, &out, &partial).ok());
  CHECK_FALSE(partial);
  CHECK(MeanAbsDiff(out, DecodeJpegForTest(jpeg, 3)) == 0.0);
}

TEST_CASE("CMYK and YCCK decode to CMYK only, with the stored values") {
  // Inverted values as Photoshop writes them: stored = 255 - ink.
  Image ink = MakePattern(16, 16, 4, [](int x, int y, int c) { return c == 3 ? 0 : (c == 0 ? 200 : 30); });
  Image stored = MakePattern(16, 16, 4, [&](int x, int y, int c) { return 255 - ink.row(y)[x * 4 + c]; });
  JpegDecoder d;
  bool partial;
  for (const std::string& jpeg : {EncodeJpeg(stored), EncodeCmykJpeg(stored, true)}) {
    JpegInfo info = Info(jpeg);
    Image cmyk, rgb;
    Subsampling s;
    CHECK_FALSE(d.CanDecodeToYuv(jpeg, info, &s));
    CHECK(d.DecodeToPixels(jpeg, info, {1, 1}, DecodeFormat::kRgb, false, &rgb, &partial).code() ==
          StatusCode::kInternal);
    REQUIRE(d.DecodeToPixels(jpeg, info, {1, 1}, DecodeFormat::kCmyk, false, &cmyk, &partial).ok());
    CHECK(cmyk.channels == 4);
    CHECK(MeanAbsDiff(cmyk, stored) < 2.0);
    CmykToRgb(cmyk.view(), info.adobe, &rgb);
    // Cyan ink 200 of 255, no black: red mostly absent, green and blue nearly full.
    CHECK(std::abs(rgb.row(8)[8 * 3 + 0] - 55) <= 3);
    CHECK(std::abs(rgb.row(8)[8 * 3 + 1] - 225) <= 3);
    CHECK(std::abs(rgb.row(8)[8 * 3 + 2] - 225) <= 3);
  }
}

}  // namespace
}  // namespace tfq::image
