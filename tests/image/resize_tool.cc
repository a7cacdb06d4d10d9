// tfq_image_resize_tool: decodes and resizes one image with tfq's image library and writes raw
// pixels, for tests/image/resize_quality.py (which compares them with Pillow's resize).
//
//   tfq_image_resize_tool [--size WxH | --shorter-side N | --max-side N] [--crop]
//       [--filter box|triangle|lanczos3] [--dct pow2|all|none] INPUT OUT.raw [DECODED.raw]
//
// Prints one line: "out_w out_h decoded_w decoded_h x0 y0 x1 y1 scale" where DECODED.raw (when asked
// for) holds the RGB image tfq resized from (after DCT scaling) and x0..y1 is the region of it
// that became the output, and scale the DCT scaling factor (without DECODED.raw, the region is in
// source pixels and scale is 1). EXIF orientation is not applied.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "image/convert.h"
#include "image/jpeg_decoder.h"
#include "image/jpeg_header.h"
#include "image/png_codec.h"

using namespace tfq::image;

namespace {

int Fail(const std::string& msg) {
  std::fprintf(stderr, "tfq_image_resize_tool: error: %s\n", msg.c_str());
  return 1;
}

bool WriteFile(const std::string& path, const void* data, size_t n) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  return static_cast<bool>(f);
}

// Decodes `bytes` the way ImageConverter does for this geometry, to RGB; *scale is the DCT scale.
tfq::Status DecodeLikeConverter(const std::string& bytes, const ConvertOptions& o, Image* rgb,
                                double* scale_out) {
  *scale_out = 1.0;
  if (SniffImageKind(bytes) == ImageKind::kPng) {
    PngDecoder png;
    return png.Decode(bytes, 3, o.max_pixels, rgb, nullptr);
  }
  tfq::Result<JpegInfo> info = ParseJpegHeader(bytes);
  if (!info.ok()) return info.status();
  ResizePlan plan = PlanResize(info->width, info->height, o.resize);
  JpegScale scale = ChooseJpegScale(plan.region.width(), plan.region.height(), plan.out_width,
                                    plan.out_height, o.dct_scales);
  *scale_out = double(scale.num) / scale.denom;
  JpegDecoder decoder;
  bool partial = false;
  Subsampling s;
  if (decoder.CanDecodeToYuv(bytes, info.value(), &s)) {
    YuvImage yuv;
    TFQ_RETURN_IF_ERROR(decoder.DecodeToYuv(bytes, info.value(), scale, false, &yuv, &partial));
    return decoder.YuvToRgb(yuv, rgb);
  }
  return decoder.DecodeToPixels(bytes, info.value(), scale, DecodeFormat::kRgb, false, rgb, &partial);
}

}  // namespace

int main(int argc, char** argv) {
  ConvertOptions o;
  o.format = OutputFormat::kRaw;
  std::string paths[3];
  int npaths = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--size") {
      o.resize.mode = ResizeMode::kExact;
      tfq::Status s = ParseSize(next(), &o.resize.width, &o.resize.height);
      if (!s.ok()) return Fail(s.message());
    } else if (a == "--shorter-side" || a == "--max-side") {
      o.resize.mode = a == "--shorter-side" ? ResizeMode::kShorterSide : ResizeMode::kMaxSide;
      o.resize.side = std::atoi(next().c_str());
    } else if (a == "--crop") {
      o.resize.crop_center = true;
    } else if (a == "--filter") {
      std::string f = next();
      o.filter = f == "box" ? Filter::kBox : f == "lanczos3" ? Filter::kLanczos3 : Filter::kTriangle;
    } else if (a == "--dct") {
      std::string d = next();
      o.dct_scales = d == "all"    ? ScaleSet::kAllEighths
                     : d == "none" ? ScaleSet::kFullSizeOnly
                                   : ScaleSet::kPowersOfTwo;
    } else if (npaths < 3) {
      paths[npaths++] = a;
    } else {
      return Fail("too many arguments");
    }
  }
  if (npaths < 2) return Fail("usage: tfq_image_resize_tool [options] INPUT OUT.raw [DECODED.raw]");
  tfq::Status valid = ValidateConvertOptions(o);
  if (!valid.ok()) return Fail(valid.message());
  std::ifstream in(paths[0], std::ios::binary);
  if (!in) return Fail("cannot read " + paths[0]);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();

  tfq::Result<ConvertedImage> out = ConvertImage(bytes, o);
  if (!out.ok()) return Fail(paths[0] + ": " + out.status().message());
  if (!WriteFile(paths[1], out->bytes.data(), out->bytes.size())) return Fail("cannot write " + paths[1]);

  Image decoded;
  double scale = 1.0;
  if (npaths == 3) {
    tfq::Status s = DecodeLikeConverter(bytes, o, &decoded, &scale);
    if (!s.ok()) return Fail(paths[0] + ": " + s.message());
    if (!WriteFile(paths[2], decoded.pixels.data(), decoded.pixels.size()))
      return Fail("cannot write " + paths[2]);
  }
  // The region in decoded pixels, mapped by the exact DCT scale as the converter maps it.
  ResizePlan plan = PlanResize(out->source_width, out->source_height, o.resize);
  std::printf("%d %d %d %d %.9f %.9f %.9f %.9f %.9f\n", out->width, out->height, decoded.width,
              decoded.height, plan.region.x0 * scale, plan.region.y0 * scale, plan.region.x1 * scale,
              plan.region.y1 * scale, scale);
  return 0;
}
