// make_image_folder: writes a small, deterministic image-classification folder, DIR/<class>/*,
// with tfq's own encoders (JpegEncoder, EncodePng), for the demo and the end-to-end tests.
//
//   make_image_folder DIR [--classes N] [--per-class M] [--bad]
//
// Class c's images are gradients tinted with the class's colour plus a stripe pattern whose
// frequency depends on the image, in assorted sizes: mostly JPEG (4:2:0 and 4:4:4, some gray), one
// in four PNG (some named .jpg, since tfq goes by content). --bad adds to the first class a
// truncated JPEG, an empty file and a text file named .jpg: three inputs that must fail.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/stat.h>

#include "image/image.h"
#include "image/jpeg_encoder.h"
#include "image/png_codec.h"

using tfq::image::Image;

namespace {

bool WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(f);
}

void Paint(int cls, int index, bool gray, Image* img) {
  const int width = 64 + 24 * ((index * 7 + cls) % 9), height = 48 + 20 * ((index * 5 + cls) % 7);
  img->Reset(width, height, gray ? 1 : 3);
  static const int kTint[][3] = {{230, 60, 50}, {60, 190, 70}, {50, 90, 230}, {220, 200, 40}, {160, 60, 200}};
  const int* tint = kTint[cls % 5];
  const int period = 4 + index % 11;
  for (int y = 0; y < height; ++y) {
    uint8_t* row = img->row(y);
    for (int x = 0; x < width; ++x) {
      const int shade = 80 + 120 * x / width + ((x + y) / period % 2) * 40;
      for (int c = 0; c < img->channels; ++c) {
        const int v = gray ? shade : shade * tint[c] / 255 + 30 * y / height;
        row[x * img->channels + c] = static_cast<uint8_t>(v > 255 ? 255 : v);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_image_folder DIR [--classes N] [--per-class M] [--bad]\n");
    return 2;
  }
  const std::string dir = argv[1];
  int classes = 3, per_class = 12;
  bool bad = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--classes" && i + 1 < argc) classes = std::atoi(argv[++i]);
    else if (a == "--per-class" && i + 1 < argc) per_class = std::atoi(argv[++i]);
    else if (a == "--bad") bad = true;
    else {
      std::fprintf(stderr, "make_image_folder: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  static const char* kNames[] = {"cat", "dog", "fish", "horse", "owl"};
  for (size_t at = 1; at <= dir.size(); ++at) {  // mkdir -p
    if (at == dir.size() || dir[at] == '/') mkdir(dir.substr(0, at).c_str(), 0755);
  }
  tfq::image::JpegEncoder jpeg;
  Image img;
  std::string bytes;
  for (int c = 0; c < classes; ++c) {
    const std::string class_dir = dir + "/" + (c < 5 ? kNames[c] : "class" + std::to_string(c));
    mkdir(class_dir.c_str(), 0755);
    for (int i = 0; i < per_class; ++i) {
      const bool png = i % 4 == 3, gray = i % 5 == 4;
      Paint(c, i, gray, &img);
      tfq::Status s = png ? tfq::image::EncodePng(img.view(), 6, &bytes)
                          : jpeg.Encode(img.view(), 85,
                                        i % 3 == 1 ? tfq::image::Subsampling::k444 : tfq::image::Subsampling::k420,
                                        &bytes);
      if (!s.ok()) {
        std::fprintf(stderr, "make_image_folder: %s\n", s.ToString().c_str());
        return 1;
      }
      char name[64];
      std::snprintf(name, sizeof name, "img%03d.%s", i, png && i % 8 != 7 ? "png" : "jpg");
      if (!WriteFile(class_dir + "/" + name, bytes)) {
        std::fprintf(stderr, "make_image_folder: cannot write %s/%s\n", class_dir.c_str(), name);
        return 1;
      }
      if (bad && c == 0 && i == 0) {
        WriteFile(class_dir + "/bad_truncated.jpg", bytes.substr(0, bytes.size() / 2));
        WriteFile(class_dir + "/bad_empty.jpg", "");
        WriteFile(class_dir + "/bad_text.jpg", "this is not an image\n");
      }
    }
  }
  return 0;
}
