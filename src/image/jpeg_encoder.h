// JpegEncoder: TurboJPEG compression from packed pixels or from Y'CbCr planes.
//
// Encoding from planes (tjCompressFromYUVPlanes) skips the RGB -> YCbCr conversion and the chroma
// downsampling, which tfq's resizer has already done by resizing each plane to its output size.
// Thread safety: none; one per thread. The output buffer is reused between calls.
#ifndef TFQ_IMAGE_JPEG_ENCODER_H_
#define TFQ_IMAGE_JPEG_ENCODER_H_

#include <string>

#include "common/status.h"
#include "image/image.h"

namespace tfq::image {

class JpegEncoder {
 public:
  JpegEncoder();
  ~JpegEncoder();
  JpegEncoder(const JpegEncoder&) = delete;
  JpegEncoder& operator=(const JpegEncoder&) = delete;

  // Encodes 1-channel (grayscale JPEG) or 3-channel RGB pixels; `subsampling` applies to RGB
  // (k444, k422 or k420). quality 1..100. Replaces *out.
  Status Encode(const ImageView& image, int quality, Subsampling subsampling, std::string* out);

  // Encodes planes laid out as YuvImage describes (its subsampling becomes the JPEG's).
  Status EncodeYuv(const YuvImage& image, int quality, std::string* out);

 private:
  Status EnsureHandle();
  Status Finish(int rc, std::string* out);

  void* handle_ = nullptr;           // tjhandle
  unsigned char* buffer_ = nullptr;  // tjAlloc'ed, grown by TurboJPEG
  unsigned long buffer_size_ = 0;
};

}  // namespace tfq::image

#endif  // TFQ_IMAGE_JPEG_ENCODER_H_
