#include "image/convert.h"

#include <algorithm>
#include <exception>
#include <new>
#include <string>

#include "image/convert_internal.h"
#include "image/exif.h"

namespace tfq::image {

const char* OutputFormatName(OutputFormat f) {
  switch (f) {
    case OutputFormat::kJpeg: return "JPEG";
    case OutputFormat::kPng: return "PNG";
    case OutputFormat::kRaw: return "RAW";
  }
  return "?";
}

const char* KeepOriginalName(KeepOriginal k) {
  switch (k) {
    case KeepOriginal::kNever: return "never";
    case KeepOriginal::kUnchangedJpeg: return "jpeg";
    case KeepOriginal::kAlways: return "always";
  }
  return "?";
}

Status ValidateConvertOptions(const ConvertOptions& o) {
  TFQ_RETURN_IF_ERROR(ValidateResizeSpec(o.resize));
  if (o.quality < 1 || o.quality > 100) {
    return Status::InvalidArgument("JPEG quality must be 1..100, got " + std::to_string(o.quality));
  }
  if (o.subsampling != Subsampling::k420 && o.subsampling != Subsampling::k444) {
    return Status::InvalidArgument("chroma subsampling must be 420 or 444");
  }
  if (o.channels != 1 && o.channels != 3) {
    return Status::InvalidArgument("channels must be 1 or 3, got " + std::to_string(o.channels));
  }
  if (o.png_compression_level < 0 || o.png_compression_level > 9) {
    return Status::InvalidArgument("PNG compression level must be 0..9");
  }
  if (o.max_pixels < 1) return Status::InvalidArgument("the pixel limit must be at least 1");
  if (o.resize.mode == ResizeMode::kExact &&
      uint64_t(o.resize.width) * uint64_t(o.resize.height) > o.max_pixels) {
    return Status::InvalidArgument("the output size is over the pixel limit");
  }
  return Status::OK();
}

Layout MakeLayout(int stored_width, int stored_height, int orientation, const ResizeSpec& spec) {
  Layout l;
  l.orientation = orientation;
  const bool swap = OrientationSwapsAxes(orientation);
  const int shown_w = swap ? stored_height : stored_width;
  const int shown_h = swap ? stored_width : stored_height;
  ResizePlan plan = PlanResize(shown_w, shown_h, spec);
  l.out_width = plan.out_width;
  l.out_height = plan.out_height;
  l.stored_out_width = swap ? plan.out_height : plan.out_width;
  l.stored_out_height = swap ? plan.out_width : plan.out_height;
  l.stored_region = DisplayedToStored(plan.region, orientation, stored_width, stored_height);
  return l;
}

Status CheckOutputSize(const Layout& l, uint64_t max_pixels) {
  if (uint64_t(l.out_width) * uint64_t(l.out_height) > max_pixels) {
    return Status::ResourceExhausted("the output of " + std::to_string(l.out_width) + "x" +
                                     std::to_string(l.out_height) + " pixels would be over the limit of " +
                                     std::to_string(max_pixels) + " pixels");
  }
  return Status::OK();
}

Status FinishPixels(ConverterState& st, const ConvertOptions& o, const ImageView& pixels,
                    const Region& region, const Layout& layout, ConvertedImage* out) {
  ImageView view = pixels;
  ResizePlan plan{layout.stored_out_width, layout.stored_out_height, region};
  if (!IsIdentityPlan(plan, pixels.width, pixels.height)) {
    st.resized.Reset(layout.stored_out_width, layout.stored_out_height, pixels.channels);
    st.resizer.Resize(pixels, region, o.filter, st.resized.mutable_view());
    view = st.resized.view();
  }
  if (layout.orientation != 1) {
    st.oriented.Reset(layout.out_width, layout.out_height, pixels.channels);
    ApplyOrientation(view, layout.orientation, st.oriented.mutable_view());
    view = st.oriented.view();
  }
  out->width = view.width;
  out->height = view.height;
  out->channels = view.channels;
  out->colorspace = view.channels == 1 ? "GRAY" : "RGB";
  out->format = OutputFormatName(o.format);
  switch (o.format) {
    case OutputFormat::kJpeg: return st.jpeg_encoder.Encode(view, o.quality, o.subsampling, &out->bytes);
    case OutputFormat::kPng: return EncodePng(view, o.png_compression_level, &out->bytes);
    case OutputFormat::kRaw:
      out->bytes.resize(static_cast<size_t>(view.width) * view.height * view.channels);
      for (int y = 0; y < view.height; ++y) {
        std::copy_n(view.row(y), size_t(view.width) * view.channels,
                    out->bytes.data() + y * size_t(view.width) * view.channels);
      }
      return Status::OK();
  }
  return Status::Internal("unknown output format");
}

namespace {

Status ConvertPng(ConverterState& st, const ConvertOptions& o, std::string_view input, ConvertedImage* out) {
  PngInfo info;
  Status s = st.png_decoder.Decode(input, o.channels, o.max_pixels, &st.decoded, &info);
  out->source_width = info.width;
  out->source_height = info.height;
  TFQ_RETURN_IF_ERROR(s);
  if (o.keep_original == KeepOriginal::kAlways) {
    out->kept = true;
    out->bytes.assign(input.data(), input.size());
    out->width = info.width;
    out->height = info.height;
    out->channels = info.stored_channels;
    out->colorspace = info.stored_channels <= 2 ? "GRAY" : "RGB";
    out->format = "PNG";
    return Status::OK();
  }
  Layout layout = MakeLayout(info.width, info.height, o.auto_orient ? info.orientation : 1, o.resize);
  TFQ_RETURN_IF_ERROR(CheckOutputSize(layout, o.max_pixels));
  return FinishPixels(st, o, st.decoded.view(), layout.stored_region, layout, out);
}

}  // namespace

ImageConverter::ImageConverter(const ConvertOptions& options)
    : options_(options), state_(new ConverterState) {}

ImageConverter::~ImageConverter() = default;

Status ImageConverter::Convert(std::string_view input, ConvertedImage* out) {
  out->partial = false;
  out->kept = false;
  out->source_width = out->source_height = 0;
  ImageKind kind = SniffImageKind(input);
  out->source_kind = kind;
  // Buffers are sized from validated headers, but a vector can still fail to grow; that must not
  // escape as an exception (callers run this on worker threads, which no exception may leave).
  try {
    switch (kind) {
      case ImageKind::kJpeg: return ConvertJpeg(*state_, options_, input, out);
      case ImageKind::kPng: return ConvertPng(*state_, options_, input, out);
      default: return UnsupportedImageError(kind, input);
    }
  } catch (const std::bad_alloc&) {
    return Status::ResourceExhausted("out of memory while converting the image");
  } catch (const std::exception& e) {
    return Status::Internal(std::string("unexpected exception: ") + e.what());
  }
}

Result<ConvertedImage> ConvertImage(std::string_view input, const ConvertOptions& options) {
  TFQ_RETURN_IF_ERROR(ValidateConvertOptions(options));
  ImageConverter converter(options);
  ConvertedImage out;
  TFQ_RETURN_IF_ERROR(converter.Convert(input, &out));
  return out;
}

}  // namespace tfq::image
