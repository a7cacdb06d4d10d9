// PNG decoding. The function that calls setjmp (ReadPng) keeps only trivially destructible locals
// and leaves every owning object in its caller, so a longjmp out of libpng skips no destructor.
#include <png.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "image/color.h"
#include "image/exif.h"
#include "image/png_codec.h"

namespace tfq::image {

struct PngReadContext {
  const unsigned char* data;
  size_t size;
  size_t pos;
  int want_channels;
  uint64_t max_pixels;
  Image* direct_out;  // where pixels go when no conversion is needed
  Image* stored;      // where they go otherwise
  std::vector<uint8_t*>* rows;
  PngInfo info;
  bool too_large;
  bool truncated;
  Image* target;  // set by ReadPng: the image libpng wrote into
  char message[256];
};

namespace {

void OnError(png_structp png, png_const_charp msg) {
  auto* ctx = static_cast<PngReadContext*>(png_get_error_ptr(png));
  std::snprintf(ctx->message, sizeof(ctx->message), "%s", msg ? msg : "unknown error");
  png_longjmp(png, 1);
}

void OnWarning(png_structp, png_const_charp) {}  // ancillary-chunk trouble; the image is intact

void OnRead(png_structp png, png_bytep out, size_t n) {
  auto* ctx = static_cast<PngReadContext*>(png_get_io_ptr(png));
  if (ctx->size - ctx->pos < n) {
    ctx->truncated = true;
    png_error(png, "the file ends early");
  }
  std::memcpy(out, ctx->data + ctx->pos, n);
  ctx->pos += n;
}

// Returns true when the pixels were read. On false, ctx says why (message, too_large).
bool ReadPng(png_structp png, png_infop pinfo, PngReadContext* ctx) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_read_fn(png, ctx, OnRead);
  png_read_info(png, pinfo);
  png_uint_32 w = 0, h = 0;
  int depth = 0, color_type = 0, interlace = 0;
  png_get_IHDR(png, pinfo, &w, &h, &depth, &color_type, &interlace, nullptr, nullptr);
  ctx->info.width = static_cast<int>(w);
  ctx->info.height = static_cast<int>(h);
  ctx->info.bit_depth = depth;
  ctx->info.palette = color_type == PNG_COLOR_TYPE_PALETTE;
  ctx->info.interlaced = interlace != PNG_INTERLACE_NONE;
  if (uint64_t{w} * h > ctx->max_pixels) {
    ctx->too_large = true;
    return false;
  }
#ifdef PNG_eXIf_SUPPORTED
  png_uint_32 exif_size = 0;
  png_bytep exif = nullptr;
  if (png_get_eXIf_1(png, pinfo, &exif_size, &exif) && exif) {
    ctx->info.orientation =
        ParseExifOrientation(std::string_view(reinterpret_cast<const char*>(exif), exif_size));
  }
#endif
  png_set_expand(png);    // palette -> RGB, gray < 8 bits -> 8 bits, tRNS -> alpha
  png_set_scale_16(png);  // 16 -> 8 bits, rounded
  png_set_interlace_handling(png);
  png_read_update_info(png, pinfo);
  int channels = png_get_channels(png, pinfo);
  ctx->info.stored_channels = channels;
  if (png_get_bit_depth(png, pinfo) != 8 || channels < 1 || channels > 4 ||
      png_get_rowbytes(png, pinfo) != size_t{w} * channels) {
    png_error(png, "unexpected row layout after conversion to 8 bits");
  }
  Image* target = channels == ctx->want_channels ? ctx->direct_out : ctx->stored;
  ctx->target = target;
  target->Reset(static_cast<int>(w), static_cast<int>(h), channels);
  ctx->rows->resize(h);
  for (png_uint_32 y = 0; y < h; ++y) (*ctx->rows)[y] = target->row(static_cast<int>(y));
  png_read_image(png, ctx->rows->data());
  return true;
}

}  // namespace

Status PngDecoder::Decode(std::string_view bytes, int channels, uint64_t max_pixels, Image* out,
                          PngInfo* info) {
  PngReadContext ctx{};
  ctx.data = reinterpret_cast<const unsigned char*>(bytes.data());
  ctx.size = bytes.size();
  ctx.want_channels = channels;
  ctx.max_pixels = max_pixels;
  ctx.direct_out = out;
  ctx.stored = &stored_;
  ctx.rows = &rows_;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, OnError, OnWarning);
  png_infop pinfo = png ? png_create_info_struct(png) : nullptr;
  if (!pinfo) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    return Status::ResourceExhausted("cannot create a PNG decoder");
  }
  bool ok = ReadPng(png, pinfo, &ctx);
  png_destroy_read_struct(&png, &pinfo, nullptr);
  if (info) *info = ctx.info;
  if (!ok) {
    if (ctx.too_large) {
      return Status::ResourceExhausted("PNG of " + std::to_string(ctx.info.width) + "x" +
                                       std::to_string(ctx.info.height) + " pixels is over the limit of " +
                                       std::to_string(max_pixels) + " pixels");
    }
    if (ctx.truncated) return Status::Corruption(std::string("truncated PNG: ") + ctx.message);
    return Status::Corruption(std::string("corrupt PNG: ") + ctx.message);
  }
  if (ctx.target == out) return Status::OK();
  const Image* color = &stored_;
  if (stored_.channels == 2 || stored_.channels == 4) {
    CompositeOnWhite(stored_.view(), &composited_);
    color = &composited_;
  }
  ConvertChannels(color->view(), channels, out);
  return Status::OK();
}

}  // namespace tfq::image
