// Fuzz target: one image through the whole per-image job of `tfq convert DIR` (src/image): sniff,
// JPEG/PNG header checks, decode (at a DCT scale), resize, orient, encode.
//
// Input: two option bytes, then the image file. Byte 0 picks the resize mode, the output format
// (JPEG, PNG, raw), gray or RGB, keep_original, auto_orient and allow_partial; byte 1 the target
// size (1..64). The pixel limit is 1 megapixel, so that a header claiming a huge image is refused
// before allocating instead of exhausting the fuzzer's memory.
// Checked: no crash, leak or hang; a success has a sane shape and the bytes its format implies.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "image/convert.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  using namespace tfq::image;
  const uint8_t mode = data[0];
  const int side = 1 + (data[1] & 63);
  const bool crop = (mode >> 7) & 1;

  ConvertOptions options;
  options.max_pixels = 1 << 20;
  switch (mode & 3) {
    case 0: options.resize = {}; break;
    case 1: options.resize = {ResizeMode::kExact, side, side + 3, 0, crop}; break;
    case 2: options.resize = {ResizeMode::kShorterSide, 0, 0, side, crop}; break;
    case 3: options.resize = {ResizeMode::kMaxSide, 0, 0, side, false}; break;
  }
  constexpr OutputFormat kFormats[] = {OutputFormat::kJpeg, OutputFormat::kPng, OutputFormat::kRaw,
                                       OutputFormat::kJpeg};
  options.format = kFormats[(mode >> 2) & 3];
  options.channels = (mode >> 4) & 1 ? 1 : 3;
  constexpr KeepOriginal kKeeps[] = {KeepOriginal::kNever, KeepOriginal::kNever, KeepOriginal::kUnchangedJpeg,
                                     KeepOriginal::kAlways};
  options.keep_original = kKeeps[(mode >> 5) & 3];
  options.auto_orient = (mode >> 5) & 1;
  options.allow_partial = (mode >> 6) & 1;
  FUZZ_CHECK(ValidateConvertOptions(options).ok());

  ImageConverter converter(options);
  ConvertedImage out;
  const std::string_view input(reinterpret_cast<const char*>(data) + 2, size - 2);
  if (!converter.Convert(input, &out).ok()) return 0;
  FUZZ_CHECK(out.width >= 1 && out.height >= 1);
  if (options.keep_original == KeepOriginal::kAlways) FUZZ_CHECK(out.kept);
  if (out.kept) {
    FUZZ_CHECK(out.bytes == input);
    return 0;
  }
  FUZZ_CHECK(static_cast<uint64_t>(out.width) * out.height <= options.max_pixels);
  if (options.format == OutputFormat::kRaw) {
    FUZZ_CHECK(out.bytes.size() == static_cast<size_t>(out.width) * out.height * out.channels);
  } else {
    FUZZ_CHECK(!out.bytes.empty());
  }
  return 0;
}
