// Output sizes for the resize options, centre crops, and EXIF orientation.
//
// Sizes are planned in displayed orientation (what a viewer shows after EXIF rotation, when it is
// applied) and then mapped to the stored pixels, so that a 4000x3000 photo stored on its side
// and resized to --size 224x300 comes out 224 wide whether or not it is rotated afterwards.
#ifndef TFQ_IMAGE_GEOMETRY_H_
#define TFQ_IMAGE_GEOMETRY_H_

#include <string_view>

#include "common/status.h"
#include "image/image.h"
#include "image/resize.h"

namespace tfq::image {

enum class ResizeMode {
  kNone,         // keep the size
  kExact,        // --size WxH: exactly W x H; the aspect ratio changes unless crop_center
  kShorterSide,  // --shorter-side N: the shorter side becomes N (enlarging if needed), aspect kept
  kMaxSide,      // --max-side N: shrink so the longer side is at most N; smaller images are kept
};

struct ResizeSpec {
  ResizeMode mode = ResizeMode::kNone;
  int width = 0;   // kExact
  int height = 0;  // kExact
  int side = 0;    // kShorterSide, kMaxSide
  // kExact: scale to cover W x H, then keep the centre W x H. kShorterSide: keep the centre
  // N x N square. Not allowed with kNone or kMaxSide.
  bool crop_center = false;
};

// kInvalidArgument for sizes < 1 or > 65535, or a crop that the mode does not allow.
Status ValidateResizeSpec(const ResizeSpec& spec);

// Parses "WxH" (also "W,H" and "WXH"), e.g. for --size.
Status ParseSize(std::string_view text, int* width, int* height);

struct ResizePlan {
  int out_width = 0;
  int out_height = 0;
  Region region;  // the part of the source that becomes the whole output
};

// The output size and source region for a source of `width` x `height` (spec validated).
ResizePlan PlanResize(int width, int height, const ResizeSpec& spec);

// Whether the plan leaves the image as it is.
bool IsIdentityPlan(const ResizePlan& plan, int width, int height);

// Maps a region of the displayed image to the stored image for EXIF `orientation` (1..8), where
// the stored image is stored_width x stored_height.
Region DisplayedToStored(const Region& displayed, int orientation, int stored_width, int stored_height);

// Writes `src` shown in EXIF `orientation` into `dst`, whose size must be src's, swapped for
// orientations 5..8; channels must match. `dst` must not overlap `src`.
void ApplyOrientation(const ImageView& src, int orientation, const MutableImageView& dst);

// Copies the centre width x height of `src` (which must be at least that large) into `dst`.
void CenterCrop(const ImageView& src, int width, int height, Image* dst);

}  // namespace tfq::image

#endif  // TFQ_IMAGE_GEOMETRY_H_
