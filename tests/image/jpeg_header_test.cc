// The JPEG header reader on generated files, on byte edits of them, and the EXIF orientation
// parser on good and damaged TIFF blocks.
#include "image/jpeg_header.h"

#include <doctest/doctest.h>
#include <turbojpeg.h>

#include <string>

#include "image/exif.h"
#include "test_images.h"

namespace tfq::image {
namespace {

using namespace testing;

JpegInfo Parse(const std::string& jpeg) {
  Result<JpegInfo> r = ParseJpegHeader(jpeg);
  REQUIRE_MESSAGE(r.ok(), r.status().message());
  return r.value();
}

TEST_CASE("size, components, sampling and colour space of generated JPEGs") {
  Image rgb = Gradient(37, 21, 3);
  struct {
    int samp, h0, v0;
    const char* name;
  } cases[] = {{TJSAMP_444, 1, 1, "4:4:4"},
               {TJSAMP_422, 2, 1, "4:2:2"},
               {TJSAMP_420, 2, 2, "4:2:0"},
               {TJSAMP_440, 1, 2, "4:4:0"},
               {TJSAMP_411, 4, 1, "4:1:1"}};
  for (auto c : cases) {
    JpegInfo info = Parse(EncodeJpeg(rgb, 90, c.samp));
    CHECK(info.width == 37);
    CHECK(info.height == 21);
    CHECK(info.components == 3);
    CHECK(info.color == JpegColor::kYCbCr);
    CHECK(info.h_samp[0] == c.h0);
    CHECK(info.v_samp[0] == c.v0);
    CHECK(info.h_samp[1] == 1);
    CHECK(std::string(JpegSubsamplingName(info)) == c.name);
    CHECK_FALSE(info.progressive);
    CHECK_FALSE(info.multi_scan);
    CHECK(info.orientation == 1);
  }
  JpegInfo gray = Parse(EncodeJpeg(Gradient(8, 9, 1)));
  CHECK(gray.components == 1);
  CHECK(gray.color == JpegColor::kGray);
  CHECK(std::string(JpegSubsamplingName(gray)) == "gray");
}

TEST_CASE("progressive, arithmetic, CMYK and YCCK are recognised") {
  JpegInfo p = Parse(EncodeJpeg(Gradient(30, 20, 3), 90, TJSAMP_420, true));
  CHECK(p.progressive);
  CHECK(p.multi_scan);
  JpegInfo a = Parse(EncodeArithmeticJpeg(Gradient(30, 20, 3)));
  CHECK(a.arithmetic);
  CHECK_FALSE(a.progressive);
  Image cmyk = Gradient(16, 16, 4);
  JpegInfo ycck = Parse(EncodeJpeg(cmyk));  // TurboJPEG writes CMYK as YCCK with an Adobe marker
  CHECK(ycck.color == JpegColor::kYcck);
  CHECK(ycck.adobe);
  CHECK(ycck.adobe_transform == 2);
  JpegInfo plain = Parse(EncodeCmykJpeg(cmyk, true));
  CHECK(plain.color == JpegColor::kCmyk);
  CHECK(plain.adobe);
  CHECK(plain.adobe_transform == 0);
  JpegInfo bare = Parse(EncodeCmykJpeg(cmyk, false));
  CHECK(bare.color == JpegColor::kCmyk);
  CHECK_FALSE(bare.adobe);
}

TEST_CASE("EXIF orientation is read in both byte orders") {
  std::string jpeg = EncodeJpeg(Gradient(10, 6, 3));
  for (int o = 1; o <= 8; ++o) {
    CHECK(Parse(WithExifOrientation(jpeg, o, true)).orientation == o);
    CHECK(Parse(WithExifOrientation(jpeg, o, false)).orientation == o);
  }
  CHECK(ParseExifOrientation(ExifTiff(6, true, /*LONG*/ 4)) == 6);
  CHECK(ParseExifOrientation(ExifTiff(6, false, 4)) == 6);
}

TEST_CASE("damaged EXIF blocks mean orientation 1, never an error or a read out of bounds") {
  std::string good = ExifTiff(6, true);
  REQUIRE(ParseExifOrientation(good) == 6);
  CHECK(ParseExifOrientation("") == 1);
  CHECK(ParseExifOrientation("II*") == 1);
  CHECK(ParseExifOrientation(std::string("XX*\0", 4) + good.substr(4)) == 1);  // bad byte order
  for (size_t n = 0; n < good.size(); ++n) {
    int o = ParseExifOrientation(good.substr(0, n));  // every truncation
    CHECK((o == 1 || (o == 6 && n >= 32)));
  }
  std::string far = good;
  far[4] = '\xF0';  // IFD0 offset past the end
  CHECK(ParseExifOrientation(far) == 1);
  std::string many = good;
  many[8] = '\xFF';  // 65535 entries claimed
  many[9] = '\xFF';
  CHECK(ParseExifOrientation(many) == 6);  // found before running off the end
  std::string wrong_value = ExifTiff(9, true);
  CHECK(ParseExifOrientation(wrong_value) == 1);
  std::string wrong_type = ExifTiff(6, true, /*ASCII*/ 2);
  CHECK(ParseExifOrientation(wrong_type) == 1);
  CHECK(ParseApp1Orientation(std::string("Exif\0\0", 6) + good) == 6);
  CHECK(ParseApp1Orientation("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta") == 1);
  // Every single-byte corruption of the block is survived.
  for (size_t i = 0; i < good.size(); ++i) {
    for (int v : {0x00, 0x7F, 0xFF}) {
      std::string bad = good;
      bad[i] = static_cast<char>(v);
      int o = ParseExifOrientation(bad);
      CHECK((o >= 1 && o <= 8));
    }
  }
}

Status ParseError(const std::string& jpeg) {
  Result<JpegInfo> r = ParseJpegHeader(jpeg);
  REQUIRE_FALSE(r.ok());
  return r.status();
}

TEST_CASE("unsupported JPEG variants are refused with a message that names them") {
  std::string jpeg = EncodeJpeg(Gradient(16, 16, 3));
  size_t sof = FindMarker(jpeg, 0xC0);
  REQUIRE(sof != std::string::npos);
  std::string twelve = jpeg;
  twelve[sof + 4] = 12;  // sample precision
  Status s = ParseError(twelve);
  CHECK(s.code() == StatusCode::kInvalidData);
  CHECK(s.message() == "12-bit JPEG is not supported (only 8-bit samples)");
  std::string lossless = jpeg;
  lossless[sof + 1] = '\xC3';
  CHECK(ParseError(lossless).message() == "lossless JPEG is not supported");
  std::string hierarchical = jpeg;
  hierarchical[sof + 1] = '\xC5';
  CHECK(ParseError(hierarchical).message() == "hierarchical JPEG is not supported");
  std::string dnl = jpeg;
  dnl[sof + 5] = dnl[sof + 6] = 0;  // height 0: defined later by a DNL marker
  CHECK(ParseError(dnl).code() == StatusCode::kInvalidData);
  std::string two = jpeg;
  two[sof + 9] = 2;  // two components
  CHECK(ParseError(two).message() == "JPEG with 2 components is not supported");
}

TEST_CASE("truncated and damaged headers are corruption, with the byte offset") {
  std::string jpeg = WithExifOrientation(EncodeJpeg(Gradient(16, 16, 3)), 3);
  size_t sos = FindMarker(jpeg, 0xDA);
  REQUIRE(sos != std::string::npos);
  // Cut anywhere before the first scan: a header with no image data.
  for (size_t n : {size_t{2}, size_t{3}, size_t{10}, sos / 2, sos, sos + 1}) {
    Status s = ParseError(jpeg.substr(0, n));
    CHECK(s.code() == StatusCode::kCorruption);
    CHECK(s.message().find("no image data") != std::string::npos);
  }
  // The header followed straight by an end-of-image marker, as in odd/corrupt_header.jpg.
  Status eoi = ParseError(jpeg.substr(0, sos) + "\xFF\xD9");
  CHECK(eoi.message() ==
        "JPEG has no image data: end-of-image marker before any scan (byte " + std::to_string(sos) + ")");
  std::string soi = jpeg.substr(0, sos) + "\xFF\xD8" + jpeg.substr(sos);
  CHECK(ParseError(soi).message().find("second SOI") != std::string::npos);
  std::string len = jpeg;
  len[FindMarker(jpeg, 0xDB) + 2] = 0;
  len[FindMarker(jpeg, 0xDB) + 3] = 1;  // segment length 1 < 2
  CHECK(ParseError(len).code() == StatusCode::kCorruption);
  CHECK(ParseError("not a jpeg").code() == StatusCode::kInvalidData);
  // Any single byte changed in the header either parses or fails cleanly.
  for (size_t i = 2; i < sos + 4; ++i) {
    for (int v : {0x00, 0x01, 0xFF, 0xC2, 0xDA}) {
      std::string bad = jpeg;
      bad[i] = static_cast<char>(v);
      Result<JpegInfo> r = ParseJpegHeader(bad);
      if (r.ok()) {
        CHECK(r->width > 0);
        CHECK(r->height > 0);
      } else {
        CHECK_FALSE(r.status().message().empty());
      }
    }
  }
}

TEST_CASE("scans are counted from the markers, stopping past the limit") {
  const std::string baseline = EncodeJpeg(Gradient(40, 24, 3), 90, TJSAMP_420);
  CHECK(CountJpegScans(baseline, Parse(baseline).scan_offset) == 1);
  const std::string progressive = EncodeJpeg(Gradient(40, 24, 3), 90, TJSAMP_420, true);
  const size_t first = Parse(progressive).scan_offset;
  CHECK(CountJpegScans(progressive, first) == 10);  // libjpeg's default progression
  CHECK(CountJpegScans(progressive, first, 3) == 4);
  // The last scan repeated 1000 times: small to store, minutes to decode without a limit.
  const size_t last = progressive.rfind("\xff\xda");
  const size_t eoi = progressive.rfind("\xff\xd9");
  std::string hostile = progressive.substr(0, eoi);
  for (int i = 0; i < 1000; ++i) hostile += progressive.substr(last, eoi - last);
  hostile += "\xff\xd9";
  CHECK(CountJpegScans(hostile, first) == kMaxJpegScans + 1);
  // Truncated inside a scan: what is there is counted, nothing is read out of bounds.
  CHECK(CountJpegScans(progressive.substr(0, last + 3), first) == 10);
}

}  // namespace
}  // namespace tfq::image
