// The two passes of the resizer and the choice of their order. The inner loops live in
// resize_kernels*.cc.
#include <algorithm>
#include <cstring>

#include "image/resize.h"
#include "image/resize_kernels.h"

namespace tfq::image {
namespace {

using kernels::Clamp8;
using kernels::kRound;

// Output row y = weighted sum of source rows: `len` bytes of each row from byte `col`;
// `row_offset` is subtracted from the weights' start (the source may begin part-way down).
void VerticalPass(const ImageView& src, size_t col, int len, int row_offset, const AxisWeights& w,
                  const MutableImageView& dst, std::vector<const uint8_t*>* rows) {
  const kernels::Kernels& k = kernels::Best();
  rows->resize(w.taps);
  for (int y = 0; y < w.out_size; ++y) {
    const int first = w.start[y] - row_offset;
    for (int t = 0; t < w.taps; ++t) (*rows)[t] = src.row(first + t) + col;
    k.vertical(rows->data(), &w.coeffs[static_cast<size_t>(y) * w.stride], w.taps, len, dst.row(y));
  }
}

// Interleaved channels: output column x = weighted sum of source columns, for every row.
template <int C, int Taps>
void HorizontalRows(const ImageView& src, int col_offset, const AxisWeights& w, const MutableImageView& dst) {
  const int taps = Taps > 0 ? Taps : w.taps;
  for (int y = 0; y < dst.height; ++y) {
    const uint8_t* in = src.row(y);
    uint8_t* out = dst.row(y);
    for (int x = 0; x < w.out_size; ++x) {
      const int16_t* c = &w.coeffs[static_cast<size_t>(x) * w.stride];
      const uint8_t* p = in + static_cast<size_t>(w.start[x] - col_offset) * C;
      int32_t a[C];
      for (int ch = 0; ch < C; ++ch) a[ch] = kRound;
      for (int k = 0; k < taps; ++k) {
        for (int ch = 0; ch < C; ++ch) a[ch] += p[k * C + ch] * c[k];
      }
      for (int ch = 0; ch < C; ++ch) out[x * C + ch] = Clamp8(a[ch]);
    }
  }
}

void HorizontalPass3(const ImageView& src, int col_offset, const AxisWeights& w,
                     const MutableImageView& dst) {
  switch (w.taps) {
    case 2: return HorizontalRows<3, 2>(src, col_offset, w, dst);
    case 3: return HorizontalRows<3, 3>(src, col_offset, w, dst);
    case 4: return HorizontalRows<3, 4>(src, col_offset, w, dst);
    case 5: return HorizontalRows<3, 5>(src, col_offset, w, dst);
    case 6: return HorizontalRows<3, 6>(src, col_offset, w, dst);
    default: return HorizontalRows<3, 0>(src, col_offset, w, dst);
  }
}

void HorizontalPass(const ImageView& src, int col_offset, const AxisWeights& w, const MutableImageView& dst) {
  if (src.channels == 3) return HorizontalPass3(src, col_offset, w, dst);
  const kernels::Kernels& k = kernels::Best();
  for (int y = 0; y < dst.height; ++y) k.horizontal1(src.row(y), src.width, col_offset, w, dst.row(y));
}

bool IsIdentity(int in_size, double in0, double in1, int out_size) {
  return out_size == in_size && in0 == 0.0 && in1 == static_cast<double>(in_size);
}

}  // namespace

const AxisWeights& Resizer::Weights(WeightCache* cache, Filter f, int in_size, double in0, double in1,
                                    int out_size) {
  for (CachedWeights& e : cache->entries) {
    if (e.valid && e.filter == f && e.w.in_size == in_size && e.in0 == in0 && e.in1 == in1 &&
        e.w.out_size == out_size) {
      return e.w;
    }
  }
  CachedWeights& e = cache->entries[cache->next];
  cache->next = (cache->next + 1) % WeightCache::kEntries;
  ComputeAxisWeights(f, in_size, in0, in1, out_size, &e.w);
  e.valid = true;
  e.filter = f;
  e.in0 = in0;
  e.in1 = in1;
  return e.w;
}

void Resizer::Resize(const ImageView& src, const Region& region, Filter filter, const MutableImageView& dst) {
  const int c = src.channels;
  const bool need_h = !IsIdentity(src.width, region.x0, region.x1, dst.width);
  const bool need_v = !IsIdentity(src.height, region.y0, region.y1, dst.height);
  if (!need_h && !need_v) {
    for (int y = 0; y < dst.height; ++y)
      std::memcpy(dst.row(y), src.row(y), static_cast<size_t>(dst.width) * c);
    return;
  }
  if (!need_h) {
    const AxisWeights& wy = Weights(&y_, filter, src.height, region.y0, region.y1, dst.height);
    VerticalPass(src, 0, dst.width * c, 0, wy, dst, &rows_);
    return;
  }
  const AxisWeights& wx = Weights(&x_, filter, src.width, region.x0, region.x1, dst.width);
  if (!need_v) {
    HorizontalPass(src, 0, wx, dst);
    return;
  }
  const AxisWeights& wy = Weights(&y_, filter, src.height, region.y0, region.y1, dst.height);

  // Source columns the horizontal pass reads, and source rows the vertical pass reads.
  const int col0 = wx.start.front(), col1 = wx.start.back() + wx.taps;
  const int row0 = wy.start.front(), row1 = wy.start.back() + wy.taps;
  // Rough cost of each order in multiply-adds, the vertical pass being about four times cheaper
  // per tap (16 pixels per instruction sequence against one output's 8 taps).
  const double out_px = double(dst.height) * dst.width * c;
  const double vh = double(dst.height) * (col1 - col0) * c * wy.taps / 4 + out_px * wx.stride;
  const double hv = double(row1 - row0) * dst.width * c * wx.stride + out_px * wy.taps / 4;
  if (vh <= hv) {
    // Vertical first, over the needed columns only; then horizontal on the short image.
    const int tw = col1 - col0;
    tmp_.resize(static_cast<size_t>(tw) * c * dst.height);
    MutableImageView tmp{tmp_.data(), tw, dst.height, c, static_cast<size_t>(tw) * c};
    VerticalPass(src, static_cast<size_t>(col0) * c, tw * c, 0, wy, tmp, &rows_);
    HorizontalPass(tmp.view(), col0, wx, dst);
  } else {
    // Horizontal first, over the needed rows only; then vertical on the narrow image.
    const int th = row1 - row0;
    tmp_.resize(static_cast<size_t>(dst.width) * c * th);
    MutableImageView tmp{tmp_.data(), dst.width, th, c, static_cast<size_t>(dst.width) * c};
    ImageView rows{src.row(row0), src.width, th, c, src.stride};
    HorizontalPass(rows, 0, wx, tmp);
    VerticalPass(tmp.view(), 0, dst.width * c, row0, wy, dst, &rows_);
  }
}

}  // namespace tfq::image
