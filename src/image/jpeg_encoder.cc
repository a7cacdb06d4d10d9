#include "image/jpeg_encoder.h"

#include <turbojpeg.h>

namespace tfq::image {
namespace {

tjhandle Tj(void* h) { return static_cast<tjhandle>(h); }

// The accurate integer DCT, as libjpeg (and so Pillow and TensorFlow) use by default; TurboJPEG
// defaults to the fast one, which measured no faster here for small images.
constexpr int kEncodeFlags = TJFLAG_ACCURATEDCT;

}  // namespace

JpegEncoder::JpegEncoder() = default;

JpegEncoder::~JpegEncoder() {
  if (buffer_) tjFree(buffer_);
  if (handle_) tjDestroy(Tj(handle_));
}

Status JpegEncoder::EnsureHandle() {
  if (!handle_) handle_ = tjInitCompress();
  if (!handle_) return Status::ResourceExhausted("cannot create a TurboJPEG compressor");
  return Status::OK();
}

Status JpegEncoder::Finish(int rc, std::string* out) {
  if (rc != 0) {
    std::string msg = tjGetErrorStr2(Tj(handle_));
    // As with decompression, a handle that failed is not trusted again; nor is its buffer (a new
    // handle would not know its capacity and would leak it when growing).
    tjDestroy(Tj(handle_));
    handle_ = nullptr;
    tjFree(buffer_);
    buffer_ = nullptr;
    buffer_size_ = 0;
    return Status::Internal("JPEG encoding failed: " + msg);
  }
  out->assign(reinterpret_cast<const char*>(buffer_), buffer_size_);
  return Status::OK();
}

Status JpegEncoder::Encode(const ImageView& image, int quality, Subsampling subsampling, std::string* out) {
  TFQ_RETURN_IF_ERROR(EnsureHandle());
  int pf = image.channels == 1 ? TJPF_GRAY : TJPF_RGB;
  int samp = image.channels == 1 ? TJSAMP_GRAY : static_cast<int>(subsampling);
  // With a buffer from an earlier call, TurboJPEG reuses it and grows it when needed.
  int rc = tjCompress2(Tj(handle_), image.data, image.width, static_cast<int>(image.stride), image.height, pf,
                       &buffer_, &buffer_size_, samp, quality, kEncodeFlags);
  return Finish(rc, out);
}

Status JpegEncoder::EncodeYuv(const YuvImage& image, int quality, std::string* out) {
  TFQ_RETURN_IF_ERROR(EnsureHandle());
  const unsigned char* planes[3] = {};
  int strides[3] = {};
  for (int p = 0; p < image.num_planes(); ++p) {
    planes[p] = image.planes[p].pixels.data();
    strides[p] = image.planes[p].width;
  }
  int rc = tjCompressFromYUVPlanes(Tj(handle_), planes, image.width, strides, image.height,
                                   static_cast<int>(image.subsampling), &buffer_, &buffer_size_, quality,
                                   kEncodeFlags);
  return Finish(rc, out);
}

}  // namespace tfq::image
