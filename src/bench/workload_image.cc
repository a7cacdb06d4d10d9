// image-resize: what `tfq convert` does per image — decode, resize to 224x224 (cover, then the
// centre crop), encode as JPEG quality 90 — with ImageConverter, one per thread, on JPEGs
// generated here in three common sizes (VGA, 1024x768 and 1080p photos), so that the reduced-
// scale DCT decoding is exercised as real datasets exercise it. images/s.
//
// Always on generated images, even when files are named: TFRecord inputs rarely hold source
// photos, and which feature would is not something to guess.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "bench/generate.h"
#include "bench/workload.h"
#include "image/convert.h"
#include "image/jpeg_encoder.h"

namespace tfq::bench {
namespace {

// Smooth gradients, a few flat rectangles with hard edges and mild noise: a photo's mix of low
// and high frequencies, so that the JPEG is neither trivially small nor noise.
image::Image SyntheticPhoto(int width, int height, SplitMix64& rng) {
  image::Image img;
  img.Reset(width, height, 3);
  for (int y = 0; y < height; ++y) {
    uint8_t* row = img.row(y);
    for (int x = 0; x < width; ++x) {
      const uint64_t noise = rng.Next();
      row[3 * x + 0] = static_cast<uint8_t>((x * 255 / width + (noise & 15)) & 255);
      row[3 * x + 1] = static_cast<uint8_t>((y * 255 / height + ((noise >> 8) & 15)) & 255);
      row[3 * x + 2] = static_cast<uint8_t>(((x + y) * 127 / (width + height) + ((noise >> 16) & 15)) & 255);
    }
  }
  for (int r = 0; r < 12; ++r) {
    const int x0 = static_cast<int>(rng.Between(0, width - 1)), y0 = static_cast<int>(rng.Between(0, height - 1));
    const int x1 = std::min<int>(width, x0 + static_cast<int>(rng.Between(8, width / 3)));
    const int y1 = std::min<int>(height, y0 + static_cast<int>(rng.Between(8, height / 3)));
    const uint8_t c[3] = {static_cast<uint8_t>(rng.Next()), static_cast<uint8_t>(rng.Next()),
                          static_cast<uint8_t>(rng.Next())};
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) {
        for (int k = 0; k < 3; ++k) img.row(y)[3 * x + k] = c[k];
      }
    }
  }
  return img;
}

class ImageWorkload : public Workload {
 public:
  Status Prepare(Dataset&, size_t max_threads) override {
    SplitMix64 rng(42);
    image::JpegEncoder encoder;
    for (auto [w, h] : {std::pair{640, 480}, std::pair{1024, 768}, std::pair{1920, 1080}}) {
      std::string jpeg;
      TFQ_RETURN_IF_ERROR(encoder.Encode(SyntheticPhoto(w, h, rng).view(), 90, image::Subsampling::k420, &jpeg));
      inputs_.push_back(std::move(jpeg));
    }
    image::ConvertOptions options;
    options.resize.mode = image::ResizeMode::kExact;
    options.resize.width = 224;
    options.resize.height = 224;
    options.resize.crop_center = true;
    options.quality = 90;
    TFQ_RETURN_IF_ERROR(image::ValidateConvertOptions(options));
    for (size_t i = 0; i < max_threads; ++i) {
      converters_.push_back(std::make_unique<image::ImageConverter>(options));
    }
    outputs_.resize(max_threads);
    return Status::OK();
  }

  Status RunPass(size_t thread, size_t, Work* work) override {
    for (const std::string& input : inputs_) {
      TFQ_RETURN_IF_ERROR(converters_[thread]->Convert(input, &outputs_[thread]));
      work->bytes += input.size();
      ++work->items;
    }
    return Status::OK();
  }

 private:
  std::vector<std::string> inputs_;
  std::vector<std::unique_ptr<image::ImageConverter>> converters_;  // one per thread
  std::vector<image::ConvertedImage> outputs_;
};

}  // namespace
}  // namespace tfq::bench

TFQ_BENCH_WORKLOADS(image) {
  using namespace tfq::bench;
  WorkloadInfo info = Describe<ImageWorkload>(
      "image-resize",
      "JPEG decode + resize to 224x224 (centre crop) + JPEG encode, generated photos (images/s)",
      70, Metric::kItems);
  info.items_unit = "images/s";
  registry.Add(std::move(info));
}
