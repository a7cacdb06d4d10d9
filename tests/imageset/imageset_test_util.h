// Small image folders written inside the tests (tfq_image's encoders), for the imageset tests.
#ifndef TFQ_TESTS_IMAGESET_IMAGESET_TEST_UTIL_H_
#define TFQ_TESTS_IMAGESET_IMAGESET_TEST_UTIL_H_

#include <sys/stat.h>

#include <string>

#include "common/test_env.h"
#include "image/jpeg_encoder.h"

namespace tfq::imageset::testutil {

// A w x h RGB JPEG whose pixels depend on `seed`.
inline std::string MakeJpeg(int w, int h, int seed) {
  image::Image img;
  img.Reset(w, h, 3);
  for (size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = static_cast<uint8_t>(i * 7 + seed * 31);
  image::JpegEncoder enc;
  std::string out;
  (void)enc.Encode(img.view(), 90, image::Subsampling::k420, &out);
  return out;
}

inline void MakeDir(const std::string& path) { mkdir(path.c_str(), 0755); }

inline void Put(const std::string& path, const std::string& bytes) { tfq::testing::WriteFileOrDie(path, bytes); }

}  // namespace tfq::imageset::testutil

#endif  // TFQ_TESTS_IMAGESET_IMAGESET_TEST_UTIL_H_
