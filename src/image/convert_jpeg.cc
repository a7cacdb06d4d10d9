// The JPEG path of ImageConverter: pixel-limit check, scaled decode, and the planar pipeline that
// resizes Y'CbCr planes and encodes them without converting to RGB.
#include <algorithm>
#include <cstring>
#include <string>

#include "image/color.h"
#include "image/convert_internal.h"
#include "image/jpeg_header.h"

namespace tfq::image {
namespace {

std::string Dims(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

// Checked from the markers before decoding: decoding time grows with the number of scans.
Status CheckScans(const JpegInfo& info, std::string_view input) {
  if (!info.multi_scan) return Status::OK();  // one scan holds every component
  if (CountJpegScans(input, info.scan_offset) > kMaxJpegScans) {
    return Status::InvalidData("JPEG has more than " + std::to_string(kMaxJpegScans) +
                               " scans (real encoders write a few dozen; such a file would take "
                               "minutes to decode)");
  }
  return Status::OK();
}

// The pixel limit applies to what is about to be allocated (see ConvertOptions::max_pixels).
Status CheckPixels(const JpegInfo& info, JpegScale scale, uint64_t max_pixels) {
  if (info.multi_scan) {
    if (uint64_t(info.width) * uint64_t(info.height) > max_pixels) {
      return Status::ResourceExhausted(std::string(info.progressive ? "progressive" : "multi-scan") +
                                       " JPEG of " + Dims(info.width, info.height) +
                                       " pixels is over the limit of " + std::to_string(max_pixels) +
                                       " pixels (such files are held in memory at full size)");
    }
    return Status::OK();
  }
  const int w = ScaledDim(info.width, scale), h = ScaledDim(info.height, scale);
  if (uint64_t(w) * uint64_t(h) > max_pixels) {
    std::string at = scale.num == scale.denom
                         ? std::string()
                         : " (decoded at " + std::to_string(scale.num) + "/" + std::to_string(scale.denom) +
                               " scale: " + Dims(w, h) + ")";
    return Status::ResourceExhausted("JPEG of " + Dims(info.width, info.height) + " pixels" + at +
                                     " is over the limit of " + std::to_string(max_pixels) + " pixels");
  }
  return Status::OK();
}

// The part of the image decoded at `scale` that `stored` is of the stored image. The scale is
// exact: libjpeg turns each 8x8 block into num x num pixels, so a 1836-row image decodes at 1/8
// to 230 rows of which the last is half padding, and the image ends at row 229.5, not 230.
Region ScaleRegion(const Region& stored, JpegScale scale) {
  if (scale.num == scale.denom) return stored;
  const double s = double(scale.num) / scale.denom;
  return {stored.x0 * s, stored.y0 * s, stored.x1 * s, stored.y1 * s};
}

// Verifies that the file decodes (keep_original): at the smallest scale, to gray when possible,
// which still entropy-decodes every block of every component.
Status CheckJpeg(ConverterState& st, const ConvertOptions& o, std::string_view input, const JpegInfo& info,
                 ConvertedImage* out) {
  JpegScale scale = SmallestJpegScale();
  TFQ_RETURN_IF_ERROR(CheckPixels(info, scale, o.max_pixels));
  TFQ_RETURN_IF_ERROR(CheckScans(info, input));
  const bool cmyk = info.color == JpegColor::kCmyk || info.color == JpegColor::kYcck;
  TFQ_RETURN_IF_ERROR(st.jpeg_decoder.DecodeToPixels(input, info, scale,
                                                     cmyk ? DecodeFormat::kCmyk : DecodeFormat::kGray,
                                                     o.allow_partial, &st.decoded, &out->partial));
  out->kept = true;
  out->bytes.assign(input.data(), input.size());
  out->width = info.width;
  out->height = info.height;
  out->channels = info.components;
  out->colorspace = info.color == JpegColor::kGray ? "GRAY" : cmyk ? "CMYK" : "RGB";
  out->format = "JPEG";
  return Status::OK();
}

// Whether KeepOriginal::kUnchangedJpeg keeps the file: decoding and encoding it again would
// change nothing that was asked for (size, format, channels, orientation), only lose quality.
bool KeepsUnchanged(const ConvertOptions& o, const JpegInfo& info) {
  if (o.resize.mode != ResizeMode::kNone || o.format != OutputFormat::kJpeg) return false;
  if (o.auto_orient && info.orientation != 1) return false;
  if (o.channels == 1) return info.color == JpegColor::kGray;
  return info.color == JpegColor::kYCbCr || info.color == JpegColor::kRgb;
}

// The region of plane `p` that corresponds to `luma_region` of the luma plane. Output chroma
// samples may cover a little more than the output (an odd width in 4:2:0); their region extends
// by the same proportion so every plane keeps the same geometry.
Region PlaneRegion(const Region& luma, int p, Subsampling in, int in_plane_w, int in_plane_h, Subsampling out,
                   int out_w, int out_h) {
  if (p == 0) return luma;
  const double fx_in = ChromaFactorX(in), fy_in = ChromaFactorY(in);
  const double covered_w = double(PlaneWidth(p, out_w, out)) * ChromaFactorX(out);
  const double covered_h = double(PlaneHeight(p, out_h, out)) * ChromaFactorY(out);
  Region r;
  r.x0 = luma.x0 / fx_in;
  r.y0 = luma.y0 / fy_in;
  r.x1 = std::min((luma.x0 + luma.width() * covered_w / out_w) / fx_in, double(in_plane_w));
  r.y1 = std::min((luma.y0 + luma.height() * covered_h / out_h) / fy_in, double(in_plane_h));
  return r;
}

Status ConvertYuv(ConverterState& st, const ConvertOptions& o, std::string_view input, const JpegInfo& info,
                  JpegScale scale, const Layout& layout, ConvertedImage* out) {
  YuvImage& in = st.yuv_decoded;
  TFQ_RETURN_IF_ERROR(st.jpeg_decoder.DecodeToYuv(input, info, scale, o.allow_partial, &in, &out->partial));
  const Region region = ScaleRegion(layout.stored_region, scale);
  // JPEG output keeps the requested subsampling; RGB output (PNG, raw) needs full chroma.
  const Subsampling sub = o.format == OutputFormat::kJpeg ? o.subsampling : Subsampling::k444;
  YuvImage& res = st.yuv_resized;
  res.Reset(layout.stored_out_width, layout.stored_out_height, sub);
  for (int p = 0; p < res.num_planes(); ++p) {
    MutableImageView dst = res.mutable_plane_view(p);
    if (p >= in.num_planes()) {  // a gray JPEG written as colour: neutral chroma
      std::memset(res.planes[p].pixels.data(), 128, res.planes[p].pixels.size());
      continue;
    }
    ImageView src = in.plane_view(p);
    Region r = PlaneRegion(region, p, in.subsampling, src.width, src.height, sub, res.width, res.height);
    ResizePlan plan{dst.width, dst.height, r};
    if (IsIdentityPlan(plan, src.width, src.height)) {
      for (int y = 0; y < dst.height; ++y) std::memcpy(dst.row(y), src.row(y), dst.width);
    } else {
      (p == 0 ? st.resizer : st.chroma_resizer).Resize(src, r, o.filter, dst);
    }
  }
  res.PadLuma();
  const YuvImage* final_image = &res;
  if (layout.orientation != 1) {
    YuvImage& rot = st.yuv_oriented;
    rot.Reset(layout.out_width, layout.out_height, sub);
    for (int p = 0; p < rot.num_planes(); ++p) {
      ApplyOrientation(res.plane_view(p), layout.orientation, rot.mutable_plane_view(p));
    }
    rot.PadLuma();
    final_image = &rot;
  }
  if (o.format == OutputFormat::kJpeg) {
    out->width = final_image->width;
    out->height = final_image->height;
    out->channels = 3;
    out->colorspace = "RGB";
    out->format = "JPEG";
    return st.jpeg_encoder.EncodeYuv(*final_image, o.quality, &out->bytes);
  }
  TFQ_RETURN_IF_ERROR(st.jpeg_decoder.YuvToRgb(*final_image, &st.converted));
  Layout done = layout;  // already resized and oriented
  done.orientation = 1;
  done.stored_out_width = done.out_width;
  done.stored_out_height = done.out_height;
  const Region whole{0, 0, double(st.converted.width), double(st.converted.height)};
  return FinishPixels(st, o, st.converted.view(), whole, done, out);
}

}  // namespace

Status ConvertJpeg(ConverterState& st, const ConvertOptions& o, std::string_view input, ConvertedImage* out) {
  TFQ_ASSIGN_OR_RETURN(JpegInfo info, ParseJpegHeader(input));
  out->source_width = info.width;
  out->source_height = info.height;
  if (o.keep_original == KeepOriginal::kAlways) return CheckJpeg(st, o, input, info, out);
  if (o.keep_original == KeepOriginal::kUnchangedJpeg && KeepsUnchanged(o, info)) {
    TFQ_RETURN_IF_ERROR(CheckJpeg(st, o, input, info, out));
    if (!out->partial) return Status::OK();
    // Damaged data that allow_partial accepts: the file as it is would not decode elsewhere
    // (tf.io.decode_jpeg refuses truncated files), so store what decodes, re-encoded.
    out->kept = false;
    out->partial = false;
  }

  const Layout layout = MakeLayout(info.width, info.height, o.auto_orient ? info.orientation : 1, o.resize);
  const JpegScale scale = ChooseJpegScale(layout.stored_region.width(), layout.stored_region.height(),
                                          layout.stored_out_width, layout.stored_out_height, o.dct_scales);
  TFQ_RETURN_IF_ERROR(CheckPixels(info, scale, o.max_pixels));
  TFQ_RETURN_IF_ERROR(CheckOutputSize(layout, o.max_pixels));
  TFQ_RETURN_IF_ERROR(CheckScans(info, input));

  Subsampling file_subsampling;
  if (o.channels == 3 && st.jpeg_decoder.CanDecodeToYuv(input, info, &file_subsampling)) {
    return ConvertYuv(st, o, input, info, scale, layout, out);
  }
  const bool cmyk = info.color == JpegColor::kCmyk || info.color == JpegColor::kYcck;
  const DecodeFormat format = cmyk              ? DecodeFormat::kCmyk
                              : o.channels == 1 ? DecodeFormat::kGray
                                                : DecodeFormat::kRgb;
  TFQ_RETURN_IF_ERROR(st.jpeg_decoder.DecodeToPixels(input, info, scale, format, o.allow_partial, &st.decoded,
                                                     &out->partial));
  const Image* pixels = &st.decoded;
  if (cmyk) {
    CmykToRgb(st.decoded.view(), info.adobe, &st.converted);
    pixels = &st.converted;
    if (o.channels == 1) {
      RgbToGray(st.converted.view(), &st.decoded);
      pixels = &st.decoded;
    }
  }
  const Region region = ScaleRegion(layout.stored_region, scale);
  return FinishPixels(st, o, pixels->view(), region, layout, out);
}

}  // namespace tfq::image
