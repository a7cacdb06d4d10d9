// PNG decoding of every colour type and bit depth to 8-bit gray/RGB, alpha on white, damaged
// files, the pixel limit; and encoding round trips.
#include "image/png_codec.h"

#include <doctest/doctest.h>
#include <png.h>

#include <string>
#include <vector>

#include "test_images.h"

namespace tfq::image {
namespace {

using testing::PngSpec;

Image Decode(const std::string& png, int channels, PngInfo* info = nullptr) {
  PngDecoder d;
  Image out;
  Status s = d.Decode(png, channels, 1 << 30, &out, info);
  REQUIRE_MESSAGE(s.ok(), s.message());
  return out;
}

TEST_CASE("RGB, gray and their 16-bit and interlaced forms") {
  const int w = 5, h = 3;
  std::vector<uint16_t> rgb;
  for (int i = 0; i < w * h * 3; ++i) rgb.push_back(static_cast<uint16_t>(i * 5));
  for (bool interlaced : {false, true}) {
    PngSpec spec{PNG_COLOR_TYPE_RGB, 8, interlaced, {}};
    PngInfo info;
    Image out = Decode(testing::EncodePng(w, h, spec, rgb), 3, &info);
    CHECK(info.interlaced == interlaced);
    CHECK(info.stored_channels == 3);
    REQUIRE(out.pixels.size() == rgb.size());
    for (size_t i = 0; i < rgb.size(); ++i) CHECK(out.pixels[i] == rgb[i]);
  }
  // 16 bits scale to 8 with rounding: 0x1234 -> 0x12 (0x1234 * 255 / 65535 = 18.1).
  std::vector<uint16_t> deep(w * h * 3, 0x1234);
  deep[0] = 0xFFFF;
  deep[1] = 0x8080;
  Image out = Decode(testing::EncodePng(w, h, {PNG_COLOR_TYPE_RGB, 16, false, {}}, deep), 3);
  CHECK(out.pixels[0] == 255);
  CHECK(out.pixels[1] == 128);
  CHECK(out.pixels[2] == 0x12);
  // Gray at 1, 2, 4, 8 bits is scaled to the full 0..255 range.
  for (int bits : {1, 2, 4, 8, 16}) {
    int max = (1 << bits) - 1;
    std::vector<uint16_t> g = {0, uint16_t(max), uint16_t(max / 2 + 1), 0};
    PngInfo info;
    Image gray = Decode(testing::EncodePng(4, 1, {PNG_COLOR_TYPE_GRAY, bits, false, {}}, g), 1, &info);
    CAPTURE(bits);
    CHECK(info.bit_depth == bits);
    CHECK(gray.pixels[0] == 0);
    CHECK(gray.pixels[1] == 255);
    Image as_rgb = Decode(testing::EncodePng(4, 1, {PNG_COLOR_TYPE_GRAY, bits, false, {}}, g), 3);
    CHECK(as_rgb.channels == 3);
    CHECK(as_rgb.pixels[3] == 255);
    CHECK(as_rgb.pixels[4] == 255);
  }
}

TEST_CASE("palettes expand; transparency is composited on white") {
  std::vector<uint8_t> palette = {255, 0, 0, 0, 0, 255, 0, 128, 0};
  std::vector<uint16_t> idx = {0, 1, 2, 1};
  PngInfo info;
  Image out =
      Decode(testing::EncodePng(2, 2, {PNG_COLOR_TYPE_PALETTE, 8, false, {}}, idx, palette), 3, &info);
  CHECK(info.palette);
  CHECK(out.pixels == std::vector<uint8_t>{255, 0, 0, 0, 0, 255, 0, 128, 0, 0, 0, 255});
  // 2-bit palette, entry 1 fully transparent and entry 2 half transparent.
  PngSpec trns{PNG_COLOR_TYPE_PALETTE, 2, false, {255, 0, 128}};
  out = Decode(testing::EncodePng(2, 2, trns, idx, palette), 3, &info);
  CHECK(info.stored_channels == 4);
  CHECK(out.pixels == std::vector<uint8_t>{255, 0, 0, 255, 255, 255, 127, 191, 127, 255, 255, 255});
  // RGBA and gray+alpha.
  std::vector<uint16_t> rgba = {0, 0, 0, 0, 0, 0, 0, 255, 100, 200, 50, 128};
  out = Decode(testing::EncodePng(3, 1, {PNG_COLOR_TYPE_RGB_ALPHA, 8, false, {}}, rgba), 3);
  CHECK(out.pixels == std::vector<uint8_t>{255, 255, 255, 0, 0, 0, 177, 227, 152});
  std::vector<uint16_t> ga = {0, 0, 0, 255, 0, 128};
  out = Decode(testing::EncodePng(3, 1, {PNG_COLOR_TYPE_GRAY_ALPHA, 8, false, {}}, ga), 1);
  CHECK(out.pixels == std::vector<uint8_t>{255, 0, 127});
  // A 16-bit RGBA file with alpha, to gray.
  std::vector<uint16_t> deep = {65535, 65535, 65535, 65535, 0, 0, 0, 0};
  out = Decode(testing::EncodePng(2, 1, {PNG_COLOR_TYPE_RGB_ALPHA, 16, false, {}}, deep), 1);
  CHECK(out.pixels == std::vector<uint8_t>{255, 255});
}

TEST_CASE("damaged PNGs are corruption; oversized ones are refused before decoding") {
  std::vector<uint16_t> px(64 * 64 * 3);
  for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<uint16_t>((i * 7919) % 251);
  std::string png = testing::EncodePng(64, 64, {PNG_COLOR_TYPE_RGB, 8, false, {}}, px);
  PngDecoder d;
  Image out;
  for (size_t n : {size_t{8}, size_t{20}, size_t{40}, png.size() / 2, png.size() - 20}) {
    Status s = d.Decode(png.substr(0, n), 3, 1 << 30, &out, nullptr);
    CAPTURE(n);
    CHECK(s.code() == StatusCode::kCorruption);
    CHECK(s.message().rfind("truncated PNG", 0) == 0);
  }
  std::string crc = png;
  crc[20] ^= 1;  // inside IHDR: CRC mismatch in a critical chunk
  Status s = d.Decode(crc, 3, 1 << 30, &out, nullptr);
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(s.message().rfind("corrupt PNG: ", 0) == 0);
  s = d.Decode(png, 3, 64 * 64 - 1, &out, nullptr);
  CHECK(s.code() == StatusCode::kResourceExhausted);
  CHECK(s.message() == "PNG of 64x64 pixels is over the limit of 4095 pixels");
  // The decoder still works after all that.
  REQUIRE(d.Decode(png, 3, 1 << 30, &out, nullptr).ok());
  CHECK(out.pixels[3] == px[3]);
}

TEST_CASE("encoding round-trips gray and RGB") {
  for (int c : {1, 3}) {
    Image img = testing::Gradient(33, 17, c);
    std::string png;
    REQUIRE(EncodePng(img.view(), 6, &png).ok());
    Image back = Decode(png, c);
    CHECK(back.pixels == img.pixels);
  }
}

}  // namespace
}  // namespace tfq::image
