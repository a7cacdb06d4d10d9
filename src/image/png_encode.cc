// PNG encoding. As in png_decode.cc, the function that calls setjmp owns nothing.
#include <png.h>

#include <cstdio>
#include <string>

#include "image/png_codec.h"

namespace tfq::image {
namespace {

struct PngWriteContext {
  std::string* out;
  char message[256];
};

void OnWriteError(png_structp png, png_const_charp msg) {
  auto* ctx = static_cast<PngWriteContext*>(png_get_error_ptr(png));
  std::snprintf(ctx->message, sizeof(ctx->message), "%s", msg ? msg : "unknown error");
  png_longjmp(png, 1);
}

void OnWriteWarning(png_structp, png_const_charp) {}

void OnWrite(png_structp png, png_bytep data, size_t n) {
  auto* ctx = static_cast<PngWriteContext*>(png_get_io_ptr(png));
  ctx->out->append(reinterpret_cast<const char*>(data), n);
}

void OnFlush(png_structp) {}

bool WritePng(png_structp png, png_infop pinfo, const ImageView& image, int level, PngWriteContext* ctx) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_write_fn(png, ctx, OnWrite, OnFlush);
  png_set_compression_level(png, level);
  png_set_IHDR(png, pinfo, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 8,
               image.channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, pinfo);
  for (int y = 0; y < image.height; ++y) png_write_row(png, image.row(y));
  png_write_end(png, nullptr);
  return true;
}

}  // namespace

Status EncodePng(const ImageView& image, int compression_level, std::string* out) {
  if (image.channels != 1 && image.channels != 3) {
    return Status::Internal("EncodePng takes 1 or 3 channels, not " + std::to_string(image.channels));
  }
  out->clear();
  PngWriteContext ctx{out, {}};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, OnWriteError, OnWriteWarning);
  png_infop pinfo = png ? png_create_info_struct(png) : nullptr;
  if (!pinfo) {
    png_destroy_write_struct(&png, nullptr);
    return Status::ResourceExhausted("cannot create a PNG encoder");
  }
  bool ok = WritePng(png, pinfo, image, compression_level, &ctx);
  png_destroy_write_struct(&png, &pinfo);
  if (!ok) return Status::Internal(std::string("PNG encoding failed: ") + ctx.message);
  return Status::OK();
}

}  // namespace tfq::image
