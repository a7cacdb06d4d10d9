// Image kind from the first bytes of a file, never from its name (ImageNet has PNGs named .JPEG).
//
// Only JPEG and PNG are decoded; the other kinds are recognised so that the error can name them
// ("unsupported image format: GIF") instead of calling them garbage.
#ifndef TFQ_IMAGE_SNIFF_H_
#define TFQ_IMAGE_SNIFF_H_

#include <string_view>

#include "common/status.h"

namespace tfq::image {

enum class ImageKind { kUnknown, kJpeg, kPng, kGif, kBmp, kWebp, kTiff, kHeif, kAvif, kJpeg2000, kJpegXl };

ImageKind SniffImageKind(std::string_view bytes);

// "JPEG", "PNG", "GIF", ...; "unknown" for kUnknown.
const char* ImageKindName(ImageKind kind);

// The error for bytes that are neither JPEG nor PNG (kInvalidData): "empty file (0 bytes)",
// "unsupported image format: GIF", or "not an image: starts with 3c 68 74 6d" for unknown bytes.
Status UnsupportedImageError(ImageKind kind, std::string_view bytes);

}  // namespace tfq::image

#endif  // TFQ_IMAGE_SNIFF_H_
