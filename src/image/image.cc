#include "image/image.h"

#include <cstring>

namespace tfq::image {

int ChromaFactorX(Subsampling s) {
  switch (s) {
    case Subsampling::k422:
    case Subsampling::k420: return 2;
    case Subsampling::k411: return 4;
    default: return 1;
  }
}

int ChromaFactorY(Subsampling s) {
  switch (s) {
    case Subsampling::k420:
    case Subsampling::k440: return 2;
    default: return 1;
  }
}

int PlaneWidth(int plane, int width, Subsampling s) {
  if (plane == 0) return width;
  int f = ChromaFactorX(s);
  return (width + f - 1) / f;
}

int PlaneHeight(int plane, int height, Subsampling s) {
  if (plane == 0) return height;
  int f = ChromaFactorY(s);
  return (height + f - 1) / f;
}

void YuvImage::Reset(int w, int h, Subsampling s) {
  width = w;
  height = h;
  subsampling = s;
  if (s == Subsampling::kGray) {
    planes[0].Reset(w, h, 1);
    return;
  }
  int fx = ChromaFactorX(s), fy = ChromaFactorY(s);
  planes[0].Reset(PlaneWidth(1, w, s) * fx, PlaneHeight(1, h, s) * fy, 1);
  for (int p = 1; p < 3; ++p) planes[p].Reset(PlaneWidth(p, w, s), PlaneHeight(p, h, s), 1);
}

ImageView YuvImage::plane_view(int p) const {
  ImageView v = planes[p].view();
  if (p == 0) {
    v.width = width;
    v.height = height;
  }
  return v;
}

MutableImageView YuvImage::mutable_plane_view(int p) {
  MutableImageView v = planes[p].mutable_view();
  if (p == 0) {
    v.width = width;
    v.height = height;
  }
  return v;
}

void YuvImage::PadLuma() {
  Image& y = planes[0];
  if (width <= 0 || height <= 0) return;
  for (int r = 0; r < height; ++r) {
    uint8_t* row = y.row(r);
    for (int c = width; c < y.width; ++c) row[c] = row[width - 1];
  }
  for (int r = height; r < y.height; ++r) std::memcpy(y.row(r), y.row(height - 1), y.stride());
}

}  // namespace tfq::image
