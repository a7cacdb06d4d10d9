// Image kind from magic bytes, and the errors that name what is not supported.
#include "image/sniff.h"

#include <doctest/doctest.h>

#include <string>

namespace tfq::image {
namespace {

using namespace std::string_literals;

TEST_CASE("magic bytes name the image kind, whatever the file is called") {
  CHECK(SniffImageKind("\xFF\xD8\xFF\xE0rest"s) == ImageKind::kJpeg);
  CHECK(SniffImageKind("\x89PNG\r\n\x1A\n\0\0\0\x0DIHDR"s) == ImageKind::kPng);
  CHECK(SniffImageKind("GIF89a..."s) == ImageKind::kGif);
  CHECK(SniffImageKind("GIF87a..."s) == ImageKind::kGif);
  CHECK(SniffImageKind("RIFF\x10\0\0\0WEBPVP8 "s) == ImageKind::kWebp);
  CHECK(SniffImageKind("II*\0\x08\0\0\0"s) == ImageKind::kTiff);
  CHECK(SniffImageKind("MM\0*\0\0\0\x08"s) == ImageKind::kTiff);
  CHECK(SniffImageKind("\0\0\0\x18"
                       "ftypheic\0\0\0\0"s) == ImageKind::kHeif);
  CHECK(SniffImageKind("\0\0\0\x18"
                       "ftypmif1\0\0\0\0"s) == ImageKind::kHeif);
  CHECK(SniffImageKind("\0\0\0\x1C"
                       "ftypavif\0\0\0\0"s) == ImageKind::kAvif);
  CHECK(SniffImageKind("BM\x36\0\x0C\0\0\0\0\0\x36\0\0\0"s) == ImageKind::kBmp);
}

TEST_CASE("near misses are unknown") {
  CHECK(SniffImageKind("") == ImageKind::kUnknown);
  CHECK(SniffImageKind("\xFF\xD8"s) == ImageKind::kUnknown);  // too short to be a JPEG
  CHECK(SniffImageKind("\x89PNG\r\n"s) == ImageKind::kUnknown);
  CHECK(SniffImageKind("BMW is a car brand") == ImageKind::kUnknown);
  CHECK(SniffImageKind("\0\0\0\x18"
                       "ftypisom\0\0\0\0"s) == ImageKind::kUnknown);  // an MP4 video
  CHECK(SniffImageKind("<!DOCTYPE html>") == ImageKind::kUnknown);
}

TEST_CASE("unsupported inputs get a message that says what they are") {
  Status s = UnsupportedImageError(ImageKind::kUnknown, "");
  CHECK(s.code() == StatusCode::kInvalidData);
  CHECK(s.message() == "empty file (0 bytes)");
  s = UnsupportedImageError(ImageKind::kGif, "GIF89a");
  CHECK(s.code() == StatusCode::kInvalidData);
  CHECK(s.message() == "unsupported image format: GIF (only JPEG and PNG are decoded)");
  s = UnsupportedImageError(ImageKind::kUnknown, "<html><body>");
  CHECK(s.message() == "not an image (neither JPEG nor PNG): starts with 3c 68 74 6d 6c 3e 3c 62");
  CHECK(std::string(ImageKindName(ImageKind::kHeif)) == "HEIF/HEIC");
}

}  // namespace
}  // namespace tfq::image
