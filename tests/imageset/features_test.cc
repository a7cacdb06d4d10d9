#include "imageset/features.h"

#include <doctest/doctest.h>

#include "example/example.h"

namespace tfq::imageset {
namespace {

Example Decode(const std::string& record) {
  ExampleView view;
  REQUIRE(view.Parse(record).ok());
  Example ex;
  REQUIRE(ToExample(view, &ex).ok());
  return ex;
}

const Feature* Find(const Example& ex, const std::string& key) {
  for (const auto& [k, f] : ex.features) {
    if (k == key) return &f;
  }
  return nullptr;
}

TEST_CASE("features: tensorflow/models names and values") {
  FeatureKeys keys;
  std::vector<ExtraColumn> extras = {{"weight", FeatureKind::kFloat}, {"tag", FeatureKind::kBytes},
                                     {"n", FeatureKind::kInt64}};
  REQUIRE(ResolveFeatureKeys("models", {}, &extras, &keys).ok());
  ImageEntry e;
  e.path = "data/dog/x.jpg";
  e.label = 3;
  e.class_text = "dog";
  e.extras = {"0.5", "", "12"};
  image::ConvertedImage img;
  img.bytes = "JPEGBYTES";
  img.height = 2;
  img.width = 5;
  img.channels = 3;
  img.format = "JPEG";
  img.colorspace = "RGB";
  ExampleEncoder enc;
  std::string record;
  EncodeImageRecord(keys, extras, e, img, "abc123", &enc, &record);
  const Example ex = Decode(record);
  CHECK(Find(ex, "image/encoded")->bytes_list == std::vector<std::string>{"JPEGBYTES"});
  CHECK(Find(ex, "image/height")->int64_list == std::vector<int64_t>{2});
  CHECK(Find(ex, "image/width")->int64_list == std::vector<int64_t>{5});
  CHECK(Find(ex, "image/channels")->int64_list == std::vector<int64_t>{3});
  CHECK(Find(ex, "image/class/label")->int64_list == std::vector<int64_t>{3});
  CHECK(Find(ex, "image/class/text")->bytes_list == std::vector<std::string>{"dog"});
  CHECK(Find(ex, "image/filename")->bytes_list == std::vector<std::string>{"x.jpg"});
  CHECK(Find(ex, "image/format")->bytes_list == std::vector<std::string>{"JPEG"});
  CHECK(Find(ex, "image/colorspace")->bytes_list == std::vector<std::string>{"RGB"});
  CHECK(Find(ex, "image/key/sha256")->bytes_list == std::vector<std::string>{"abc123"});
  CHECK(Find(ex, "weight")->float_list == std::vector<float>{0.5f});
  CHECK(Find(ex, "tag")->kind == FeatureKind::kBytes);
  CHECK(Find(ex, "tag")->bytes_list.empty());  // missing: an empty list
  CHECK(Find(ex, "n")->int64_list == std::vector<int64_t>{12});
}

TEST_CASE("features: --keys tfds, --key renames and drops, conflicts") {
  std::vector<ExtraColumn> extras = {{"weight", FeatureKind::kFloat}};
  FeatureKeys keys;
  REQUIRE(ResolveFeatureKeys("tfds", {"image/filename=file_name", "image/key/sha256=", "weight=w"}, &extras,
                             &keys).ok());
  CHECK(keys.names[kEncoded] == "image");
  CHECK(keys.names[kLabel] == "label");
  CHECK(keys.names[kFilename] == "file_name");
  CHECK(keys.names[kSha256].empty());
  CHECK(extras[0].name == "w");
  CHECK(ResolveFeatureKeys("bogus", {}, &extras, &keys).code() == StatusCode::kInvalidArgument);
  CHECK(ResolveFeatureKeys("models", {"nope=x"}, &extras, &keys).code() == StatusCode::kInvalidArgument);
  CHECK(ResolveFeatureKeys("models", {"image/width=image/height"}, &extras, &keys).code() ==
        StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tfq::imageset
