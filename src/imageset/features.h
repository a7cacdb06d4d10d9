// The features of one image record, under tensorflow/models' names by default.
//
//   image/height, image/width, image/channels   int64, of the stored image
//   image/colorspace                            bytes "RGB" | "GRAY" (KeepOriginal::kAlways: also "CMYK")
//   image/class/label                           int64 (neither in a set without labels)
//   image/class/text                            bytes, the class name
//   image/format                                bytes "JPEG" | "PNG" | "RAW"
//   image/filename                              bytes, the file's base name
//   image/key/sha256                            bytes, hex SHA-256 of the source file's bytes
//   image/encoded                               bytes, the stored image (RAW: uint8 HWC pixels)
//   <manifest extra columns>                    typed as docs/csv.md
//
// --keys tfds renames image/encoded to `image` and image/class/label to `label` (TFDS's
// image-classification names); --key OLD=NEW renames one key, --key OLD= drops it.
#ifndef TFQ_IMAGESET_FEATURES_H_
#define TFQ_IMAGESET_FEATURES_H_

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "example/example.h"
#include "image/convert.h"
#include "imageset/dataset.h"

namespace tfq::imageset {

enum FeatureId {
  kHeight, kWidth, kColorspace, kChannels, kLabel, kText, kFormat, kFilename, kSha256, kEncoded,
  kNumFeatures
};

// The key of every standard feature; "" leaves it out.
struct FeatureKeys {
  std::array<std::string, kNumFeatures> names;
  FeatureKeys();  // tensorflow/models' names
};

// Applies --keys (models|tfds) and then each --key OLD=NEW (OLD is a default name or an extra
// column's name, which extras may be renamed by; NEW may be empty to drop). kInvalidArgument for
// an unknown preset or key, or two features ending up with the same key.
Status ResolveFeatureKeys(std::string_view preset, const std::vector<std::string>& renames,
                          std::vector<ExtraColumn>* extras, FeatureKeys* keys);

// Appends one record's features to `encoder` (cleared first) and finishes it into *out.
// `sha256_hex` is the source bytes' digest.
void EncodeImageRecord(const FeatureKeys& keys, const std::vector<ExtraColumn>& extras,
                       const ImageEntry& entry, const image::ConvertedImage& image,
                       std::string_view sha256_hex, ExampleEncoder* encoder, std::string* out);

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_FEATURES_H_
