// The EXIF orientation tag (0x0112), read from the TIFF structure inside an APP1 "Exif" segment
// (JPEG) or an eXIf chunk (PNG). Nothing else of EXIF is read.
//
// EXIF blocks in the wild are often damaged (cameras, editors, and the exif-samples test set);
// every offset is bounds-checked and anything unreadable means "no orientation" (1), never an error.
#ifndef TFQ_IMAGE_EXIF_H_
#define TFQ_IMAGE_EXIF_H_

#include <string_view>

namespace tfq::image {

// Orientation values as EXIF defines them; how to display the stored pixels:
//   1 as stored        2 mirrored left-right   3 rotated 180        4 mirrored top-bottom
//   5 transposed       6 rotated 90 clockwise  7 transversed        8 rotated 90 counter-clockwise
// (5-8 swap width and height.)
inline bool OrientationSwapsAxes(int orientation) { return orientation >= 5 && orientation <= 8; }

// `tiff` starts at the TIFF header ("II*\0" little-endian or "MM\0*" big-endian), i.e. after the
// "Exif\0\0" prefix of a JPEG APP1 segment. Returns 1..8; 1 when the tag is absent or unreadable.
int ParseExifOrientation(std::string_view tiff);

// Same, for the payload of a JPEG APP1 segment (which must start with "Exif\0\0"; anything else,
// e.g. XMP, gives 1).
int ParseApp1Orientation(std::string_view app1_payload);

}  // namespace tfq::image

#endif  // TFQ_IMAGE_EXIF_H_
