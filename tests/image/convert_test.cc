// ImageConverter end to end on generated images: sizes, formats, colour handling, EXIF
// orientation, keep_original, pixel limits, bad inputs, determinism.
#include "image/convert.h"

#include <doctest/doctest.h>
#include <turbojpeg.h>

#include <string>

#include "image/png_codec.h"
#include "image/sniff.h"
#include "test_images.h"

namespace tfq::image {
namespace {

using namespace testing;

ConvertOptions Size(int w, int h) {
  ConvertOptions o;
  o.resize.mode = ResizeMode::kExact;
  o.resize.width = w;
  o.resize.height = h;
  return o;
}

ConvertedImage Convert(const std::string& input, const ConvertOptions& o) {
  Result<ConvertedImage> r = ConvertImage(input, o);
  REQUIRE_MESSAGE(r.ok(), r.status().message());
  return std::move(r).value();
}

Status ConvertError(const std::string& input, const ConvertOptions& o) {
  Result<ConvertedImage> r = ConvertImage(input, o);
  REQUIRE_FALSE(r.ok());
  return r.status();
}

TEST_CASE("every JPEG subsampling and PNG to 224x224 JPEG, PNG and raw") {
  Image src = Gradient(500, 375, 3);
  std::vector<std::string> inputs;
  for (int samp : {TJSAMP_444, TJSAMP_422, TJSAMP_420, TJSAMP_440})
    inputs.push_back(EncodeJpeg(src, 95, samp));
  inputs.push_back(EncodeJpeg(src, 95, TJSAMP_420, true));
  inputs.push_back(EncodeArithmeticJpeg(src));
  std::string png;
  REQUIRE(EncodePng(src.view(), 1, &png).ok());
  inputs.push_back(png);
  for (const std::string& in : inputs) {
    for (OutputFormat f : {OutputFormat::kJpeg, OutputFormat::kPng, OutputFormat::kRaw}) {
      ConvertOptions o = Size(224, 224);
      o.format = f;
      ConvertedImage out = Convert(in, o);
      CHECK(out.width == 224);
      CHECK(out.height == 224);
      CHECK(out.channels == 3);
      CHECK(std::string(out.colorspace) == "RGB");
      CHECK(std::string(out.format) == OutputFormatName(f));
      CHECK(out.source_width == 500);
      Image pixels;
      if (f == OutputFormat::kJpeg) {
        pixels = DecodeJpegForTest(out.bytes, 3);
      } else if (f == OutputFormat::kPng) {
        PngDecoder d;
        REQUIRE(d.Decode(out.bytes, 3, 1 << 30, &pixels, nullptr).ok());
      } else {
        REQUIRE(out.bytes.size() == 224 * 224 * 3);
        pixels.Reset(224, 224, 3);
        std::copy(out.bytes.begin(), out.bytes.end(), pixels.pixels.begin());
      }
      REQUIRE(pixels.width == 224);
      // The centre of the gradient is where it was (resizing keeps content in place).
      Image ref;
      ConvertOptions raw = o;
      raw.format = OutputFormat::kRaw;
      raw.dct_scales = ScaleSet::kFullSizeOnly;
      ConvertedImage r = Convert(png, raw);
      ref.Reset(224, 224, 3);
      std::copy(r.bytes.begin(), r.bytes.end(), ref.pixels.begin());
      CHECK(MeanAbsDiff(pixels, ref) < 4.0);
    }
  }
}

TEST_CASE("sampling factors TurboJPEG cannot name still convert (through RGB)") {
  Image src = Gradient(120, 80, 3);
  const int odd[6] = {2, 2, 1, 1, 2, 1};  // Cr sampled differently from Cb
  const int big[6] = {2, 1, 2, 1, 2, 1};  // 4:4:4 written with 2x1 factors
  for (const int* hv : {odd, big}) {
    std::string jpeg = EncodeJpegWithSampling(src, hv);
    ConvertOptions o = Size(60, 40);
    o.format = OutputFormat::kRaw;
    ConvertedImage out = Convert(jpeg, o);
    CHECK(out.width == 60);
    Image expect;
    ConvertOptions direct = o;
    std::string png;
    REQUIRE(EncodePng(src.view(), 1, &png).ok());
    ConvertedImage ref = Convert(png, direct);
    Image a, b;
    a.Reset(60, 40, 3);
    b.Reset(60, 40, 3);
    std::copy(out.bytes.begin(), out.bytes.end(), a.pixels.begin());
    std::copy(ref.bytes.begin(), ref.bytes.end(), b.pixels.begin());
    CHECK(MeanAbsDiff(a, b) < 3.0);
  }
}

TEST_CASE("4:2:0 output from an odd size leaves no uninitialised bytes (deterministic)") {
  std::string in = EncodeJpeg(Gradient(333, 251, 3), 90, TJSAMP_420);
  ConvertOptions o = Size(223, 111);
  ConvertedImage a = Convert(in, o);
  ImageConverter c1(o), c2(o);
  ConvertedImage b, d;
  REQUIRE(c1.Convert(EncodeJpeg(Gradient(50, 50, 3)), &b).ok());  // dirty the buffers first
  REQUIRE(c1.Convert(in, &b).ok());
  REQUIRE(c2.Convert(in, &d).ok());
  CHECK(a.bytes == b.bytes);
  CHECK(a.bytes == d.bytes);
  CHECK(DecodeJpegForTest(a.bytes, 3).width == 223);
}

TEST_CASE("size modes, crops and filters") {
  std::string in = EncodeJpeg(Gradient(640, 480, 3));
  ConvertOptions o;
  o.resize.mode = ResizeMode::kShorterSide;
  o.resize.side = 256;
  ConvertedImage out = Convert(in, o);
  CHECK(out.width == 341);
  CHECK(out.height == 256);
  o.resize.crop_center = true;
  out = Convert(in, o);
  CHECK(out.width == 256);
  CHECK(out.height == 256);
  o.resize = {ResizeMode::kMaxSide, 0, 0, 100, false};
  out = Convert(in, o);
  CHECK(out.width == 100);
  CHECK(out.height == 75);
  o.resize = {};  // no resize: the same size, re-encoded
  out = Convert(in, o);
  CHECK(out.width == 640);
  for (Filter f : {Filter::kBox, Filter::kTriangle, Filter::kLanczos3}) {
    ConvertOptions s = Size(100, 100);
    s.filter = f;
    s.resize.crop_center = true;
    CHECK(Convert(in, s).width == 100);
  }
}

TEST_CASE("gray input, gray output, CMYK and YCCK input") {
  std::string gray = EncodeJpeg(Gradient(120, 90, 1));
  ConvertOptions o = Size(60, 45);
  ConvertedImage out = Convert(gray, o);  // gray written as colour: neutral chroma
  CHECK(out.channels == 3);
  Image px = DecodeJpegForTest(out.bytes, 3);
  CHECK(std::abs(px.pixels[300] - px.pixels[301]) <= 2);
  o.channels = 1;
  out = Convert(EncodeJpeg(Gradient(120, 90, 3)), o);
  CHECK(out.channels == 1);
  CHECK(std::string(out.colorspace) == "GRAY");
  tjhandle h = tjInitDecompress();
  int w, ht, ss, cs;
  REQUIRE(tjDecompressHeader3(h, reinterpret_cast<const unsigned char*>(out.bytes.data()), out.bytes.size(),
                              &w, &ht, &ss, &cs) == 0);
  CHECK(cs == TJCS_GRAY);
  tjDestroy(h);
  // CMYK: 50% cyan ink everywhere (Adobe files store 255 - ink).
  Image stored = MakePattern(64, 64, 4, [](int, int, int c) { return c == 0 ? 127 : 255; });
  for (const std::string& cmyk : {EncodeJpeg(stored), EncodeCmykJpeg(stored, true)}) {
    ConvertOptions c = Size(32, 32);
    c.format = OutputFormat::kRaw;
    out = Convert(cmyk, c);
    CHECK(std::abs(static_cast<unsigned char>(out.bytes[0]) - 127) <= 3);
    CHECK(std::abs(static_cast<unsigned char>(out.bytes[1]) - 255) <= 3);
    c.channels = 1;
    out = Convert(cmyk, c);
    CHECK(out.bytes.size() == 32 * 32);
  }
  // Without the Adobe marker the values are ink: 127 of cyan ink -> red 128.
  Image ink = MakePattern(64, 64, 4, [](int, int, int c) { return c == 0 ? 127 : 0; });
  ConvertOptions c = Size(32, 32);
  c.format = OutputFormat::kRaw;
  out = Convert(EncodeCmykJpeg(ink, false), c);
  CHECK(std::abs(static_cast<unsigned char>(out.bytes[0]) - 128) <= 3);
}

// A 40x20 image, left half red and right half blue, stored with an EXIF orientation.
std::string OrientedJpeg(int orientation) {
  Image img = MakePattern(40, 20, 3, [](int x, int, int c) { return (x < 20) == (c == 0) ? 255 : 0; });
  return WithExifOrientation(EncodeJpeg(img, 95, TJSAMP_444), orientation);
}

TEST_CASE("EXIF orientation is applied only with auto_orient") {
  ConvertOptions o;
  o.format = OutputFormat::kRaw;
  o.resize = {ResizeMode::kMaxSide, 0, 0, 20, false};
  ConvertedImage out = Convert(OrientedJpeg(6), o);
  CHECK(out.width == 20);  // as stored
  CHECK(out.height == 10);
  o.auto_orient = true;
  out = Convert(OrientedJpeg(6), o);
  REQUIRE(out.width == 10);  // rotated 90 clockwise: stored left (red) becomes the top
  REQUIRE(out.height == 20);
  auto px = [&](int x, int y, int c) {
    return static_cast<unsigned char>(out.bytes[(y * out.width + x) * 3 + c]);
  };
  CHECK(px(5, 2, 0) > 200);
  CHECK(px(5, 17, 2) > 200);
  out = Convert(OrientedJpeg(8), o);  // counter-clockwise: red at the bottom
  CHECK(px(5, 17, 0) > 200);
  out = Convert(OrientedJpeg(2), o);  // mirrored: red on the right
  CHECK(out.width == 20);
  CHECK(px(17, 5, 0) > 200);
  // JPEG output (planar path), a crop, and --size given in displayed orientation.
  ConvertOptions j = Size(16, 30);
  j.auto_orient = true;
  j.resize.crop_center = true;
  out = Convert(OrientedJpeg(6), j);
  CHECK(out.width == 16);
  CHECK(out.height == 30);
  Image dec = DecodeJpegForTest(out.bytes, 3);
  CHECK(dec.row(3)[8 * 3 + 0] > 200);
  CHECK(dec.row(26)[8 * 3 + 2] > 200);
}

TEST_CASE("keep_original returns the bytes after checking that they decode") {
  std::string jpeg = WithExifOrientation(EncodeJpeg(Gradient(300, 200, 3)), 6);
  ConvertOptions o = Size(10, 10);
  o.keep_original = KeepOriginal::kAlways;
  o.auto_orient = true;
  ConvertedImage out = Convert(jpeg, o);
  CHECK(out.bytes == jpeg);
  CHECK(out.width == 300);  // as stored: decoders that ignore EXIF see this
  CHECK(out.height == 200);
  CHECK(out.channels == 3);
  CHECK(std::string(out.format) == "JPEG");
  Status s = ConvertError(jpeg.substr(0, jpeg.size() / 2), o);
  CHECK(s.message() == "truncated JPEG: premature end of data");
  std::string png;
  REQUIRE(EncodePng(Gradient(30, 20, 1).view(), 6, &png).ok());
  out = Convert(png, o);
  CHECK(out.bytes == png);
  CHECK(out.channels == 1);
  CHECK(std::string(out.format) == "PNG");
  out = Convert(EncodeCmykJpeg(Gradient(20, 20, 4), true), o);
  CHECK(out.channels == 4);
  CHECK(std::string(out.colorspace) == "CMYK");
}

TEST_CASE("kUnchangedJpeg keeps a JPEG that needs no change and re-encodes everything else") {
  ConvertOptions o;
  o.keep_original = KeepOriginal::kUnchangedJpeg;
  const std::string rgb = EncodeJpeg(Gradient(40, 30, 3));
  ConvertedImage out = Convert(rgb, o);
  CHECK(out.kept);
  CHECK(out.bytes == rgb);
  CHECK(out.width == 40);
  CHECK(out.height == 30);
  CHECK(out.channels == 3);
  CHECK(std::string(out.colorspace) == "RGB");
  const std::string progressive = EncodeJpeg(Gradient(40, 30, 3), 95, 0, /*progressive=*/true);
  CHECK(Convert(progressive, o).bytes == progressive);
  const std::string arithmetic = EncodeArithmeticJpeg(Gradient(40, 30, 3));
  CHECK(Convert(arithmetic, o).bytes == arithmetic);  // tf.io decodes it (TF's libjpeg has arithmetic)

  // What re-encoding would change, it changes: the asked channels, colour space, orientation,
  // size and format; a PNG becomes a JPEG.
  const std::string gray = EncodeJpeg(Gradient(40, 30, 1));
  out = Convert(gray, o);
  CHECK_FALSE(out.kept);
  CHECK(out.channels == 3);
  CHECK(std::string(out.colorspace) == "RGB");
  ConvertOptions gray_out = o;
  gray_out.channels = 1;
  CHECK(Convert(gray, gray_out).bytes == gray);
  CHECK_FALSE(Convert(rgb, gray_out).kept);
  out = Convert(EncodeCmykJpeg(Gradient(20, 20, 4), true), o);
  CHECK_FALSE(out.kept);
  CHECK(out.channels == 3);
  CHECK(std::string(out.colorspace) == "RGB");
  const std::string rotated = WithExifOrientation(EncodeJpeg(Gradient(40, 30, 3)), 6);
  CHECK(Convert(rotated, o).bytes == rotated);  // orientation not applied: nothing to change
  ConvertOptions orient = o;
  orient.auto_orient = true;
  out = Convert(rotated, orient);
  CHECK_FALSE(out.kept);
  CHECK(out.width == 30);
  ConvertOptions sized = o;
  sized.resize = {ResizeMode::kMaxSide, 0, 0, 1000};  // a resize asked, even one that does nothing
  CHECK_FALSE(Convert(rgb, sized).kept);
  ConvertOptions png_out = o;
  png_out.format = OutputFormat::kPng;
  CHECK(std::string(Convert(rgb, png_out).format) == "PNG");
  std::string png;
  REQUIRE(EncodePng(Gradient(30, 20, 3).view(), 6, &png).ok());
  out = Convert(png, o);
  CHECK_FALSE(out.kept);
  CHECK(std::string(out.format) == "JPEG");

  // Damage: refused as ever; accepted with allow_partial, but then stored re-encoded, because the
  // damaged file itself would not decode in tf.io.
  const std::string big = EncodeJpeg(Gradient(300, 200, 3));
  const std::string truncated = big.substr(0, big.size() / 2);
  CHECK(ConvertError(truncated, o).message() == "truncated JPEG: premature end of data");
  ConvertOptions partial = o;
  partial.allow_partial = true;
  out = Convert(truncated, partial);
  CHECK_FALSE(out.kept);
  CHECK(out.partial);
  CHECK(out.bytes != truncated);
  CHECK(out.width == 300);
  CHECK(DecodeJpegForTest(out.bytes, 3).width == 300);
  CHECK_FALSE(Convert(rgb, partial).partial);
}

TEST_CASE("the pixel limit is checked from the header, at the scale that will be decoded") {
  // A real 64x64 JPEG whose header claims 30000x30000: nothing that large may be allocated.
  std::string jpeg = EncodeJpeg(Gradient(64, 64, 3));
  size_t sof = FindMarker(jpeg, 0xC0);
  std::string huge = jpeg;
  huge[sof + 5] = huge[sof + 7] = '\x75';
  huge[sof + 6] = huge[sof + 8] = '\x30';  // 0x7530 = 30000
  ConvertOptions o;                        // no resize: would need 900 megapixels
  Status s = ConvertError(huge, o);
  CHECK(s.code() == StatusCode::kResourceExhausted);
  CHECK(s.message() == "JPEG of 30000x30000 pixels is over the limit of 178956970 pixels");
  o = Size(224, 224);
  o.max_pixels = 10'000'000;
  s = ConvertError(huge, o);  // 1/8 scale: 3750x3750 = 14 megapixels
  CHECK(s.code() == StatusCode::kResourceExhausted);
  CHECK(s.message() ==
        "JPEG of 30000x30000 pixels (decoded at 1/8 scale: 3750x3750) is over the limit of "
        "10000000 pixels");
  o.max_pixels = 20'000'000;  // within the limit: decoded, and the missing data is found
  CHECK(ConvertError(huge, o).code() == StatusCode::kCorruption);
  // Progressive files hold every coefficient: they count at full size.
  std::string prog = EncodeJpeg(Gradient(64, 64, 3), 90, TJSAMP_420, true);
  o = Size(8, 8);
  o.max_pixels = 64 * 64 - 1;
  s = ConvertError(prog, o);
  CHECK(s.code() == StatusCode::kResourceExhausted);
  CHECK(s.message().find("progressive JPEG of 64x64") == 0);
  o.max_pixels = 64 * 64;
  CHECK(Convert(prog, o).width == 8);
  std::string png;
  REQUIRE(EncodePng(Gradient(64, 64, 3).view(), 1, &png).ok());
  o.max_pixels = 100;
  CHECK(ConvertError(png, o).code() == StatusCode::kResourceExhausted);
  // The output counts too: a 2-pixel-high strip enlarged to a shorter side of 20000.
  ConvertOptions strip;
  strip.resize.mode = ResizeMode::kShorterSide;
  strip.resize.side = 20000;
  strip.max_pixels = 100'000'000;
  s = ConvertError(EncodeJpeg(Gradient(64, 2, 3)), strip);
  CHECK(s.code() == StatusCode::kResourceExhausted);
  CHECK(s.message() == "the output of 65535x20000 pixels would be over the limit of 100000000 pixels");
}

TEST_CASE("empty, non-image, unsupported, truncated and damaged inputs") {
  ConvertOptions o = Size(32, 32);
  Status s = ConvertError("", o);
  CHECK(s.code() == StatusCode::kInvalidData);
  CHECK(s.message() == "empty file (0 bytes)");
  CHECK(ConvertError("hello, world\n", o).message().rfind("not an image", 0) == 0);
  CHECK(ConvertError("GIF89a\x01\0\x01\0", o).message().rfind("unsupported image format: GIF", 0) == 0);
  std::string jpeg = EncodeJpeg(Gradient(100, 80, 3), 90, TJSAMP_420);
  s = ConvertError(jpeg.substr(0, jpeg.size() * 2 / 3), o);
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(s.message() == "truncated JPEG: premature end of data");
  o.allow_partial = true;
  ConvertedImage partial = Convert(jpeg.substr(0, jpeg.size() * 2 / 3), o);
  CHECK(partial.partial);
  CHECK(partial.width == 32);
  o.allow_partial = false;
  size_t sos = FindMarker(jpeg, 0xDA);
  s = ConvertError(jpeg.substr(0, sos) + "\xFF\xD9", o);  // header only
  CHECK(s.message().find("no image data") != std::string::npos);
  // A converter keeps working after each failure.
  ImageConverter conv(o);
  ConvertedImage out;
  for (const std::string& bad :
       {std::string(), jpeg.substr(0, 500), std::string("\xFF\xD8\xFF\xE0junk"), jpeg}) {
    (void)conv.Convert(bad, &out);
    REQUIRE(conv.Convert(jpeg, &out).ok());
    CHECK(out.width == 32);
  }
}

TEST_CASE("invalid options are kInvalidArgument") {
  ConvertOptions o;
  o.quality = 0;
  CHECK(ValidateConvertOptions(o).code() == StatusCode::kInvalidArgument);
  o = {};
  o.channels = 2;
  CHECK(ValidateConvertOptions(o).code() == StatusCode::kInvalidArgument);
  o = {};
  o.subsampling = Subsampling::k422;
  CHECK(ValidateConvertOptions(o).code() == StatusCode::kInvalidArgument);
  o = Size(20000, 20000);
  CHECK(ValidateConvertOptions(o).code() == StatusCode::kInvalidArgument);
  CHECK(ValidateConvertOptions(ConvertOptions{}).ok());
}

}  // namespace
}  // namespace tfq::image
