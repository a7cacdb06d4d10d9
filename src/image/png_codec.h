// PNG decoding and encoding with libpng.
//
// libpng reports errors by longjmp; here they are caught where they happen and returned as a
// Status. Decoding always yields 8-bit gray or RGB: palettes and low bit depths are expanded,
// 16-bit samples are scaled to 8 bits (rounded), interlaced files are deinterlaced, and
// transparency (an alpha channel or a tRNS chunk) is composited on a white background, because a
// training pipeline that drops alpha would see whatever colour the encoder left under transparent
// pixels (often black, sometimes garbage). Gamma and ICC profiles are ignored, as TensorFlow's
// decode_png ignores them.
#ifndef TFQ_IMAGE_PNG_CODEC_H_
#define TFQ_IMAGE_PNG_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "image/image.h"

namespace tfq::image {

struct PngInfo {
  int width = 0;
  int height = 0;
  int bit_depth = 0;        // as stored: 1, 2, 4, 8 or 16
  int stored_channels = 0;  // after palette expansion, counting alpha or tRNS: 1 (gray) .. 4 (RGBA)
  bool palette = false;
  bool interlaced = false;
  int orientation = 1;  // from an eXIf chunk before the image data, 1..8
};

class PngDecoder {
 public:
  // Decodes `bytes` to `channels` (1 or 3) 8-bit channels. The size is checked against
  // `max_pixels` from the header, before anything is allocated (kResourceExhausted). Errors:
  // kCorruption for damaged or truncated files ("truncated PNG: ..."), kInvalidData for a PNG
  // libpng refuses otherwise. `info` may be null.
  Status Decode(std::string_view bytes, int channels, uint64_t max_pixels, Image* out, PngInfo* info);

 private:
  Image stored_;      // the pixels as libpng delivers them, when they need converting
  Image composited_;  // after alpha compositing
  std::vector<uint8_t*> rows_;
};

// Encodes 1- or 3-channel pixels as an 8-bit gray or RGB PNG (zlib level 0..9) into *out.
Status EncodePng(const ImageView& image, int compression_level, std::string* out);

}  // namespace tfq::image

#endif  // TFQ_IMAGE_PNG_CODEC_H_
