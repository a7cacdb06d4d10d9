// Pixel buffers shared by the image part: packed 8-bit images and planar YCbCr images.
//
// Every buffer here is a plain owning container whose storage is reused: Reset() keeps the
// capacity, so a per-thread object that decodes image after image stops allocating once it has
// seen the largest one. Views (ImageView) borrow storage and live no longer than their owner's next
// Reset().
#ifndef TFQ_IMAGE_IMAGE_H_
#define TFQ_IMAGE_IMAGE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tfq::image {

// A read-only view of packed (interleaved, HWC) 8-bit pixels; rows are `stride` bytes apart.
struct ImageView {
  const uint8_t* data = nullptr;
  int width = 0;
  int height = 0;
  int channels = 0;
  size_t stride = 0;

  const uint8_t* row(int y) const { return data + static_cast<size_t>(y) * stride; }
};

// A writable view of packed 8-bit pixels; rows are `stride` bytes apart.
struct MutableImageView {
  uint8_t* data = nullptr;
  int width = 0;
  int height = 0;
  int channels = 0;
  size_t stride = 0;

  uint8_t* row(int y) const { return data + static_cast<size_t>(y) * stride; }
  ImageView view() const { return {data, width, height, channels, stride}; }
};

// A packed 8-bit image, rows top to bottom with no padding (stride == width * channels).
struct Image {
  int width = 0;
  int height = 0;
  int channels = 0;
  std::vector<uint8_t> pixels;

  // Sets the shape and makes room for the pixels; old contents are left unspecified. Keeps the
  // capacity so that reuse does not allocate.
  void Reset(int w, int h, int c) {
    width = w;
    height = h;
    channels = c;
    pixels.resize(static_cast<size_t>(w) * h * c);
  }
  size_t stride() const { return static_cast<size_t>(width) * channels; }
  uint8_t* row(int y) { return pixels.data() + static_cast<size_t>(y) * stride(); }
  const uint8_t* row(int y) const { return pixels.data() + static_cast<size_t>(y) * stride(); }
  ImageView view() const { return {pixels.data(), width, height, channels, stride()}; }
  MutableImageView mutable_view() { return {pixels.data(), width, height, channels, stride()}; }
};

// Chroma subsampling of a planar image, named as TurboJPEG names it; the values are TJSAMP_*.
enum class Subsampling { k444 = 0, k422 = 1, k420 = 2, kGray = 3, k440 = 4, k411 = 5 };

// Samples of luma per chroma sample, horizontally and vertically.
int ChromaFactorX(Subsampling s);
int ChromaFactorY(Subsampling s);
// Size of the samples of plane `plane` (0 = Y, 1 = Cb, 2 = Cr) that carry image content for a
// `width` x `height` image: the luma size, or the chroma size rounded up to a whole sample.
int PlaneWidth(int plane, int width, Subsampling s);
int PlaneHeight(int plane, int height, Subsampling s);

// A planar Y'CbCr image (JPEG's colour model) or a single gray plane (Subsampling::kGray), laid
// out as TurboJPEG's *YUVPlanes functions expect: every plane is an Image with one channel and a
// whole number of chroma samples, so the Y plane is padded to a multiple of the chroma factor
// (an odd-width 4:2:0 image has an even-width Y plane). The padding is not image content; writers
// fill it with PadLuma() so that encoded output never depends on uninitialised bytes.
struct YuvImage {
  int width = 0;  // the luma size (content, without padding)
  int height = 0;
  Subsampling subsampling = Subsampling::k444;
  Image planes[3];

  int num_planes() const { return subsampling == Subsampling::kGray ? 1 : 3; }
  // Sets the size and subsampling and shapes every plane accordingly.
  void Reset(int w, int h, Subsampling s);
  // The content of plane `p` (without the Y padding).
  ImageView plane_view(int p) const;
  MutableImageView mutable_plane_view(int p);
  // Replicates the last content column and row of the Y plane into its padding.
  void PadLuma();
};

}  // namespace tfq::image

#endif  // TFQ_IMAGE_IMAGE_H_
