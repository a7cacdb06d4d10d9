#include "image/geometry.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

#include "image/exif.h"

namespace tfq::image {
namespace {

constexpr int kMaxSide = 65535;  // the JPEG format's limit

bool ValidSide(int n) { return n >= 1 && n <= kMaxSide; }

// Rounds a scaled side to a whole number of pixels, never below 1.
int ScaledSide(int side, double scale) {
  return std::clamp(static_cast<int>(std::lround(side * scale)), 1, kMaxSide);
}

}  // namespace

Status ValidateResizeSpec(const ResizeSpec& spec) {
  switch (spec.mode) {
    case ResizeMode::kNone:
      if (spec.crop_center) {
        return Status::InvalidArgument("a centre crop needs a target size (--size or --shorter-side)");
      }
      return Status::OK();
    case ResizeMode::kExact:
      if (!ValidSide(spec.width) || !ValidSide(spec.height)) {
        return Status::InvalidArgument("image size must be 1..65535 pixels per side, got " +
                                       std::to_string(spec.width) + "x" + std::to_string(spec.height));
      }
      return Status::OK();
    case ResizeMode::kShorterSide:
    case ResizeMode::kMaxSide:
      if (!ValidSide(spec.side)) {
        return Status::InvalidArgument("image side must be 1..65535 pixels, got " +
                                       std::to_string(spec.side));
      }
      if (spec.mode == ResizeMode::kMaxSide && spec.crop_center) {
        return Status::InvalidArgument("a centre crop goes with --size or --shorter-side, not --max-side");
      }
      return Status::OK();
  }
  return Status::InvalidArgument("unknown resize mode");
}

Status ParseSize(std::string_view text, int* width, int* height) {
  size_t sep = text.find_first_of("xX,");
  auto bad = [&] {
    return Status::InvalidArgument("bad image size '" + std::string(text) + "': expected WxH, e.g. 224x224");
  };
  if (sep == std::string_view::npos) return bad();
  std::string_view w = text.substr(0, sep), h = text.substr(sep + 1);
  auto parse = [](std::string_view s, int* v) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
  };
  if (!parse(w, width) || !parse(h, height)) return bad();
  if (!ValidSide(*width) || !ValidSide(*height)) {
    return Status::InvalidArgument("bad image size '" + std::string(text) + "': sides must be 1..65535");
  }
  return Status::OK();
}

ResizePlan PlanResize(int width, int height, const ResizeSpec& spec) {
  ResizePlan plan{width, height, Region{0, 0, double(width), double(height)}};
  switch (spec.mode) {
    case ResizeMode::kNone: break;
    case ResizeMode::kExact:
      plan.out_width = spec.width;
      plan.out_height = spec.height;
      if (spec.crop_center) {
        // Scale so W x H is covered, then take the centre: the region has the output's aspect.
        double scale = std::max(double(spec.width) / width, double(spec.height) / height);
        double rw = std::min(spec.width / scale, double(width));
        double rh = std::min(spec.height / scale, double(height));
        plan.region = {(width - rw) / 2, (height - rh) / 2, (width + rw) / 2, (height + rh) / 2};
      }
      break;
    case ResizeMode::kShorterSide: {
      int shorter = std::min(width, height);
      if (spec.crop_center) {
        plan.out_width = plan.out_height = spec.side;
        plan.region = {(width - shorter) / 2.0, (height - shorter) / 2.0, (width + shorter) / 2.0,
                       (height + shorter) / 2.0};
      } else {
        double scale = double(spec.side) / shorter;
        plan.out_width = width <= height ? spec.side : ScaledSide(width, scale);
        plan.out_height = height < width ? spec.side : ScaledSide(height, scale);
      }
      break;
    }
    case ResizeMode::kMaxSide: {
      int longer = std::max(width, height);
      if (longer > spec.side) {
        double scale = double(spec.side) / longer;
        plan.out_width = width >= height ? spec.side : ScaledSide(width, scale);
        plan.out_height = height > width ? spec.side : ScaledSide(height, scale);
      }
      break;
    }
  }
  return plan;
}

bool IsIdentityPlan(const ResizePlan& plan, int width, int height) {
  return plan.out_width == width && plan.out_height == height && plan.region.x0 == 0 && plan.region.y0 == 0 &&
         plan.region.x1 == width && plan.region.y1 == height;
}

Region DisplayedToStored(const Region& d, int orientation, int stored_width, int stored_height) {
  const double w = stored_width, h = stored_height;
  // Where the displayed point (u, v) comes from in the stored image (continuous coordinates).
  auto map = [&](double u, double v, double* x, double* y) {
    // clang-format off
    switch (orientation) {
      case 2: *x = w - u; *y = v; break;
      case 3: *x = w - u; *y = h - v; break;
      case 4: *x = u; *y = h - v; break;
      case 5: *x = v; *y = u; break;
      case 6: *x = v; *y = h - u; break;
      case 7: *x = w - v; *y = h - u; break;
      case 8: *x = w - v; *y = u; break;
      default: *x = u; *y = v; break;
    }
    // clang-format on
  };
  double ax, ay, bx, by;
  map(d.x0, d.y0, &ax, &ay);
  map(d.x1, d.y1, &bx, &by);
  return {std::min(ax, bx), std::min(ay, by), std::max(ax, bx), std::max(ay, by)};
}

void ApplyOrientation(const ImageView& src, int orientation, const MutableImageView& dst) {
  const int c = src.channels;
  const int w = src.width, h = src.height;
  const ptrdiff_t stride = static_cast<ptrdiff_t>(src.stride);
  for (int y = 0; y < dst.height; ++y) {
    // The source of dst(0, y), and the step in bytes from dst(x, y) to dst(x + 1, y).
    const uint8_t* p;
    ptrdiff_t step;
    // clang-format off
    switch (orientation) {
      case 2: p = src.row(y) + (w - 1) * c; step = -c; break;
      case 3: p = src.row(h - 1 - y) + (w - 1) * c; step = -c; break;
      case 4: p = src.row(h - 1 - y); step = c; break;
      case 5: p = src.row(0) + y * c; step = stride; break;
      case 6: p = src.row(h - 1) + y * c; step = -stride; break;
      case 7: p = src.row(h - 1) + (w - 1 - y) * c; step = -stride; break;
      case 8: p = src.row(0) + (w - 1 - y) * c; step = stride; break;
      default: p = src.row(y); step = c; break;
    }
    // clang-format on
    uint8_t* out = dst.row(y);
    if (c == 1) {
      for (int x = 0; x < dst.width; ++x, p += step) out[x] = *p;
    } else {
      for (int x = 0; x < dst.width; ++x, p += step, out += c) std::memcpy(out, p, c);
    }
  }
}

void CenterCrop(const ImageView& src, int width, int height, Image* dst) {
  dst->Reset(width, height, src.channels);
  const int x0 = (src.width - width) / 2, y0 = (src.height - height) / 2;
  for (int y = 0; y < height; ++y) {
    std::memcpy(dst->row(y), src.row(y0 + y) + static_cast<size_t>(x0) * src.channels, dst->stride());
  }
}

}  // namespace tfq::image
