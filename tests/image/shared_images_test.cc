// The shared image sets (../shared/images, see its PROVENANCE.md): every odd file is either
// converted or refused with a clear message, and a sample of real photos converts. Skipped when
// the shared folder is absent.
#include <dirent.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "common/test_env.h"
#include "image/convert.h"
#include "test_images.h"

namespace tfq::image {
namespace {

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') names.push_back(e->d_name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string ImagesDir() {
  std::string shared = tfq::testing::SharedDir();
  return shared.empty() ? "" : shared + "/images";
}

struct Expect {
  StatusCode code;
  const char* message;  // a prefix of the expected message; "" for success
};

// What each odd file must give when converted to 224x224 with default options.
const std::map<std::string, Expect>& OddExpectations() {
  static const std::map<std::string, Expect> m = {
      {"corrupt_data_olympus_exif_corrupted.jpg",
       {StatusCode::kCorruption, "corrupt JPEG data: premature end of data segment"}},
      {"corrupt_header.jpg", {StatusCode::kCorruption, "truncated JPEG: no image data"}},
      {"empty_zero_bytes.jpg", {StatusCode::kInvalidData, "empty file (0 bytes)"}},
      {"jpeg12bit_monkey12.jpg", {StatusCode::kInvalidData, "12-bit JPEG is not supported"}},
      {"truncated_2569067123_first10000bytes.jpg",
       {StatusCode::kCorruption, "truncated JPEG: premature end of data"}},
      {"truncated_n01440764_tench_first60000bytes.JPEG",
       {StatusCode::kCorruption, "truncated JPEG: premature end of data"}},
      {"truncated_progressive_pil.jpg", {StatusCode::kCorruption, "truncated JPEG: premature end of data"}},
  };
  return m;
}

TEST_CASE("every odd file converts or is refused with a clear message" * doctest::test_suite("shared")) {
  std::string dir = ImagesDir();
  REQUIRE_MESSAGE(!dir.empty(), "no shared folder (set TFQ_SHARED_DIR)");
  std::vector<std::string> names = ListDir(dir + "/odd");
  REQUIRE(names.size() >= 20);
  ConvertOptions o;
  o.resize.mode = ResizeMode::kExact;
  o.resize.width = o.resize.height = 224;
  ImageConverter converter(o);  // one converter for all: failures must not leak into the next file
  ConvertedImage out;
  for (const std::string& name : names) {
    CAPTURE(name);
    std::string bytes = tfq::testing::ReadFileOrDie(dir + "/odd/" + name);
    Status s = converter.Convert(bytes, &out);
    auto it = OddExpectations().find(name);
    if (it == OddExpectations().end()) {
      CHECK_MESSAGE(s.ok(), s.message());
      if (s.ok()) {
        CHECK(out.width == 224);
        CHECK(testing::DecodeJpegForTest(out.bytes, 3).width == 224);
      }
    } else {
      CHECK(s.code() == it->second.code);
      CHECK(s.message().rfind(it->second.message, 0) == 0);
    }
  }
}

TEST_CASE("odd files with the other options: keep_original, gray, no resize, allow_partial" * doctest::test_suite("shared")) {
  std::string dir = ImagesDir();
  if (dir.empty()) return;
  auto read = [&](const char* name) { return tfq::testing::ReadFileOrDie(dir + "/odd/" + name); };
  ConvertOptions keep;
  keep.keep_original = KeepOriginal::kAlways;
  std::string giant = read("giant_20000x14000_gray.jpg");
  Result<ConvertedImage> r = ConvertImage(giant, keep);  // checked at 1/8 scale
  REQUIRE(r.ok());
  CHECK(r->width == 20000);
  CHECK(r->channels == 1);
  ConvertOptions none;  // full size: 280 megapixels, over the default limit
  r = ConvertImage(giant, none);
  CHECK(r.status().code() == StatusCode::kResourceExhausted);
  CHECK(r.status().message() == "JPEG of 20000x14000 pixels is over the limit of 178956970 pixels");
  ConvertOptions partial;
  partial.resize.mode = ResizeMode::kShorterSide;
  partial.resize.side = 64;
  partial.allow_partial = true;
  r = ConvertImage(read("truncated_n01440764_tench_first60000bytes.JPEG"), partial);
  REQUIRE(r.ok());
  CHECK(r->partial);
  ConvertOptions gray = partial;
  gray.allow_partial = false;
  gray.channels = 1;
  gray.auto_orient = true;
  gray.format = OutputFormat::kPng;
  for (const char* name : {"cmyk_Channel_digital_image_CMYK_color.jpg", "exif_orientation6_Landscape_6.jpg",
                           "png_disguised_as_jpeg_hopper.JPEG", "arithmetic_testimgari.jpg"}) {
    CAPTURE(name);
    r = ConvertImage(read(name), gray);
    REQUIRE_MESSAGE(r.ok(), r.status().message());
    CHECK(r->channels == 1);
    CHECK(std::min(r->width, r->height) == 64);
  }
  // Landscape_6 is stored 450x600 and shown rotated: 600 wide.
  r = ConvertImage(read("exif_orientation6_Landscape_6.jpg"), gray);
  CHECK(r->width > r->height);
}

TEST_CASE("a sample of the ImageNet and camera photos converts" * doctest::test_suite("shared")) {
  std::string dir = ImagesDir();
  if (dir.empty()) return;
  ConvertOptions o;
  o.resize.mode = ResizeMode::kShorterSide;
  o.resize.side = 256;
  ImageConverter converter(o);
  ConvertedImage out;
  int n = 0;
  for (const char* set : {"imagenet", "large"}) {
    std::vector<std::string> names = ListDir(dir + "/" + set);
    for (size_t i = 0; i < names.size(); i += (set[0] == 'i' ? 25 : 6)) {
      CAPTURE(names[i]);
      Status s = converter.Convert(tfq::testing::ReadFileOrDie(dir + "/" + set + "/" + names[i]), &out);
      CHECK_MESSAGE(s.ok(), s.message());
      CHECK(std::min(out.width, out.height) == 256);
      ++n;
    }
  }
  CHECK(n > 10);
}

}  // namespace
}  // namespace tfq::image
