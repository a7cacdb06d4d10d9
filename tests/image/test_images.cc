#include "test_images.h"

#include <png.h>
#include <turbojpeg.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <jpeglib.h>

namespace tfq::image::testing {

Image MakePattern(int w, int h, int channels, const std::function<int(int, int, int)>& fn) {
  Image img;
  img.Reset(w, h, channels);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int c = 0; c < channels; ++c) img.row(y)[x * channels + c] = static_cast<uint8_t>(fn(x, y, c));
    }
  }
  return img;
}

Image Gradient(int w, int h, int channels) {
  // At most 150 + 60 + 30 + 12 = 252: no wrap-around edges.
  return MakePattern(w, h, channels, [w, h](int x, int y, int c) {
    return x * 150 / w + y * 60 / h + c * 15 + ((x / 7 + y / 5) % 3) * 6;
  });
}

std::string EncodeJpeg(const Image& image, int quality, int subsampling, bool progressive) {
  tjhandle h = tjInitCompress();
  unsigned char* buf = nullptr;
  unsigned long size = 0;
  int pf = image.channels == 1 ? TJPF_GRAY : image.channels == 3 ? TJPF_RGB : TJPF_CMYK;
  int samp = image.channels == 1 ? TJSAMP_GRAY : subsampling;
  int rc = tjCompress2(h, image.pixels.data(), image.width, 0, image.height, pf, &buf, &size, samp, quality,
                       progressive ? TJFLAG_PROGRESSIVE : 0);
  if (rc != 0) throw std::runtime_error(std::string("tjCompress2: ") + tjGetErrorStr2(h));
  std::string out(reinterpret_cast<char*>(buf), size);
  tjFree(buf);
  tjDestroy(h);
  return out;
}

namespace {

std::string LibjpegEncode(const Image& image, J_COLOR_SPACE in_space, J_COLOR_SPACE jpeg_space, bool adobe,
                          bool arithmetic, int quality, const int* sampling = nullptr) {
  jpeg_compress_struct cinfo;
  jpeg_error_mgr jerr;
  cinfo.err = jpeg_std_error(&jerr);
  jpeg_create_compress(&cinfo);
  unsigned char* buf = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&cinfo, &buf, &size);
  cinfo.image_width = image.width;
  cinfo.image_height = image.height;
  cinfo.input_components = image.channels;
  cinfo.in_color_space = in_space;
  jpeg_set_defaults(&cinfo);
  jpeg_set_colorspace(&cinfo, jpeg_space);
  jpeg_set_quality(&cinfo, quality, TRUE);
  cinfo.write_Adobe_marker = adobe ? TRUE : FALSE;
  cinfo.arith_code = arithmetic ? TRUE : FALSE;
  if (sampling) {
    for (int c = 0; c < 3; ++c) {
      cinfo.comp_info[c].h_samp_factor = sampling[2 * c];
      cinfo.comp_info[c].v_samp_factor = sampling[2 * c + 1];
    }
  }
  jpeg_start_compress(&cinfo, TRUE);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<JSAMPROW>(image.row(static_cast<int>(cinfo.next_scanline)));
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  std::string out(reinterpret_cast<char*>(buf), size);
  std::free(buf);
  return out;
}

void Put16(std::string* s, int v, bool le) {
  if (le) {
    s->push_back(static_cast<char>(v & 255));
    s->push_back(static_cast<char>(v >> 8 & 255));
  } else {
    s->push_back(static_cast<char>(v >> 8 & 255));
    s->push_back(static_cast<char>(v & 255));
  }
}

void Put32(std::string* s, uint32_t v, bool le) {
  if (le) {
    Put16(s, v & 0xFFFF, true);
    Put16(s, v >> 16, true);
  } else {
    Put16(s, v >> 16, false);
    Put16(s, v & 0xFFFF, false);
  }
}

}  // namespace

std::string EncodeCmykJpeg(const Image& cmyk, bool adobe_marker, int quality) {
  return LibjpegEncode(cmyk, JCS_CMYK, JCS_CMYK, adobe_marker, false, quality);
}

std::string EncodeArithmeticJpeg(const Image& rgb, int quality) {
  return LibjpegEncode(rgb, JCS_RGB, JCS_YCbCr, false, true, quality);
}

std::string EncodeJpegWithSampling(const Image& rgb, const int hv[6], int quality) {
  return LibjpegEncode(rgb, JCS_RGB, JCS_YCbCr, false, false, quality, hv);
}

std::string ExifTiff(int orientation, bool le, uint16_t type) {
  std::string t = le ? std::string("II*\0", 4) : std::string("MM\0*", 4);
  Put32(&t, 8, le);       // IFD0 right after the header
  Put16(&t, 2, le);       // two entries: an unrelated tag, then orientation
  Put16(&t, 0x010F, le);  // Make, ASCII, 4 bytes inline
  Put16(&t, 2, le);
  Put32(&t, 4, le);
  t += std::string("tfq\0", 4);
  Put16(&t, 0x0112, le);
  Put16(&t, type, le);
  Put32(&t, 1, le);
  if (type == 4) {
    Put32(&t, static_cast<uint32_t>(orientation), le);
  } else {
    Put16(&t, orientation, le);
    Put16(&t, 0, le);
  }
  Put32(&t, 0, le);  // no next IFD
  return t;
}

std::string WithExifOrientation(const std::string& jpeg, int orientation, bool little_endian) {
  std::string payload = std::string("Exif\0\0", 6) + ExifTiff(orientation, little_endian);
  std::string seg = "\xFF\xE1";
  Put16(&seg, static_cast<int>(payload.size() + 2), false);
  return jpeg.substr(0, 2) + seg + payload + jpeg.substr(2);
}

namespace {

void PngWrite(png_structp png, png_bytep data, size_t n) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<char*>(data), n);
}
void PngFlush(png_structp) {}

}  // namespace

std::string EncodePng(int w, int h, const PngSpec& spec, const std::vector<uint16_t>& samples,
                      const std::vector<uint8_t>& palette) {
  std::string out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) throw std::runtime_error("libpng write failed");
  png_set_write_fn(png, &out, PngWrite, PngFlush);
  png_set_IHDR(png, info, w, h, spec.bit_depth, spec.color_type,
               spec.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  int channels = 1;
  switch (spec.color_type) {
    case PNG_COLOR_TYPE_GRAY_ALPHA: channels = 2; break;
    case PNG_COLOR_TYPE_RGB: channels = 3; break;
    case PNG_COLOR_TYPE_RGB_ALPHA: channels = 4; break;
    default: break;
  }
  std::vector<png_color> pal;
  if (spec.color_type == PNG_COLOR_TYPE_PALETTE) {
    for (size_t i = 0; i + 2 < palette.size(); i += 3)
      pal.push_back({palette[i], palette[i + 1], palette[i + 2]});
    png_set_PLTE(png, info, pal.data(), static_cast<int>(pal.size()));
    if (!spec.trns.empty()) {
      png_set_tRNS(png, info, spec.trns.data(), static_cast<int>(spec.trns.size()), nullptr);
    }
  } else if (!spec.trns.empty()) {
    png_color_16 c{};
    c.gray = spec.trns[0];
    if (spec.trns.size() >= 3) {
      c.red = spec.trns[0];
      c.green = spec.trns[1];
      c.blue = spec.trns[2];
    }
    png_set_tRNS(png, info, nullptr, 0, &c);
  }
  png_write_info(png, info);
  // Pack the samples into rows of the given bit depth (big-endian for 16 bits, MSB-first below 8).
  const int bits = spec.bit_depth;
  const size_t row_bytes = (static_cast<size_t>(w) * channels * bits + 7) / 8;
  std::vector<std::vector<png_byte>> rows(h, std::vector<png_byte>(row_bytes, 0));
  for (int y = 0; y < h; ++y) {
    for (int i = 0; i < w * channels; ++i) {
      uint16_t v = samples[static_cast<size_t>(y) * w * channels + i];
      if (bits == 16) {
        rows[y][2 * i] = static_cast<png_byte>(v >> 8);
        rows[y][2 * i + 1] = static_cast<png_byte>(v & 255);
      } else if (bits == 8) {
        rows[y][i] = static_cast<png_byte>(v);
      } else {
        size_t bit = static_cast<size_t>(i) * bits;
        rows[y][bit / 8] |= static_cast<png_byte>(v << (8 - bits - bit % 8));
      }
    }
  }
  std::vector<png_bytep> ptrs(h);
  for (int y = 0; y < h; ++y) ptrs[y] = rows[y].data();
  png_write_image(png, ptrs.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

size_t FindMarker(const std::string& jpeg, int code) {
  size_t pos = 2;
  while (pos + 4 <= jpeg.size()) {
    if (static_cast<unsigned char>(jpeg[pos]) != 0xFF) return std::string::npos;
    int m = static_cast<unsigned char>(jpeg[pos + 1]);
    if (m == code) return pos;
    if (m == 0xDA) return std::string::npos;
    int len = static_cast<unsigned char>(jpeg[pos + 2]) << 8 | static_cast<unsigned char>(jpeg[pos + 3]);
    pos += 2 + len;
  }
  return std::string::npos;
}

Image DecodeJpegForTest(const std::string& jpeg, int channels) {
  tjhandle h = tjInitDecompress();
  int w, ht, ss, cs;
  if (tjDecompressHeader3(h, reinterpret_cast<const unsigned char*>(jpeg.data()), jpeg.size(), &w, &ht, &ss,
                          &cs)) {
    throw std::runtime_error(std::string("tjDecompressHeader3: ") + tjGetErrorStr2(h));
  }
  Image img;
  img.Reset(w, ht, channels);
  if (tjDecompress2(h, reinterpret_cast<const unsigned char*>(jpeg.data()), jpeg.size(), img.pixels.data(), w,
                    0, ht, channels == 1 ? TJPF_GRAY : TJPF_RGB, 0)) {
    throw std::runtime_error(std::string("tjDecompress2: ") + tjGetErrorStr2(h));
  }
  tjDestroy(h);
  return img;
}

double MeanAbsDiff(const Image& a, const Image& b) {
  if (a.pixels.size() != b.pixels.size() || a.pixels.empty()) return 1e9;
  double sum = 0;
  for (size_t i = 0; i < a.pixels.size(); ++i) sum += std::abs(int(a.pixels[i]) - int(b.pixels[i]));
  return sum / a.pixels.size();
}

}  // namespace tfq::image::testing
