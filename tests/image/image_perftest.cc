// tfq_image_perftest: images/s of ImageConverter (decode + resize + encode, one thread, files
// preloaded in memory, or read in every pass with --from-files) on the shared image sets,
// measured in the same run as a plain TurboJPEG reference like the one in the issue (decode to
// RGB at the smallest covering n/8 scale, area resize, encode) and that reference's decode alone.
// Passes of the three are interleaved and the best pass of each is reported, so that other load
// on the machine hurts all three alike.
//
//   tfq_image_perftest [--shared DIR] [--seconds S] [--set imagenet|large|all] [--dct pow2|all]
//                      [--filter box|triangle|lanczos3] [--only tfq] [--from-files]
//
// --only tfq skips the reference (for profiling tfq alone, e.g. under perf record).
// --from-files: every pass reads each file (from the page cache) before converting it, in the
// timed loop, for all three alike: `tfq convert` and the other peers of scripts/bench-images.sh
// read their files too, so the comparison there uses this.
//
// imagenet: --size 224x224, large: --shorter-side 256; JPEG quality 90, 4:2:0.
#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <turbojpeg.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "image/convert.h"
#include "image/resize.h"

using namespace tfq::image;

namespace {

double Now(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// Reads the whole file into *out, reusing its capacity; false if it cannot be read.
bool ReadInto(const std::string& path, std::string* out) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const off_t size = lseek(fd, 0, SEEK_END);
  out->resize(size > 0 ? static_cast<size_t>(size) : 0);
  size_t done = 0;
  while (done < out->size()) {
    const ssize_t n = pread(fd, out->data() + done, out->size() - done, static_cast<off_t>(done));
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(fd);
  out->resize(done);
  return true;
}

// The files of `dir` in name order; their paths go to *paths.
std::vector<std::string> LoadDir(const std::string& dir, size_t* bytes, std::vector<std::string>* paths) {
  std::vector<std::string> names, files;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') names.push_back(e->d_name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  *bytes = 0;
  paths->clear();
  for (const std::string& n : names) {
    paths->push_back(dir + "/" + n);
    files.emplace_back();
    ReadInto(paths->back(), &files.back());
    *bytes += files.back().size();
  }
  return files;
}

// The reference: what a straightforward TurboJPEG program does.
class Reference {
 public:
  Reference() : dec_(tjInitDecompress()), enc_(tjInitCompress()) {}
  ~Reference() {
    tjDestroy(dec_);
    tjDestroy(enc_);
    tjFree(jpeg_);
  }

  // Returns false on error. decode_only skips the resize and encode.
  bool Run(const std::string& bytes, const ResizeSpec& spec, bool decode_only) {
    int w, h, ss, cs;
    auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    if (tjDecompressHeader3(dec_, data, bytes.size(), &w, &h, &ss, &cs) != 0) return false;
    int n;
    tjscalingfactor* factors = tjGetScalingFactors(&n);
    // Target size and the minimum decoded size that covers it.
    int ow, oh, need_w, need_h;
    if (spec.mode == ResizeMode::kExact) {
      ow = need_w = spec.width;
      oh = need_h = spec.height;
    } else {
      double s = double(spec.side) / std::min(w, h);
      ow = std::max(1, int(w * s + 0.5));
      oh = std::max(1, int(h * s + 0.5));
      need_w = ow;
      need_h = oh;
    }
    tjscalingfactor best = {1, 1};
    for (int i = 0; i < n; ++i) {
      tjscalingfactor f = factors[i];
      if (f.num > f.denom) continue;
      if (TJSCALED(w, f) >= need_w && TJSCALED(h, f) >= need_h && f.num * best.denom < best.num * f.denom)
        best = f;
    }
    int sw = TJSCALED(w, best), sh = TJSCALED(h, best);
    rgb_.resize(size_t(sw) * sh * 3);
    if (tjDecompress2(dec_, data, bytes.size(), rgb_.data(), sw, 0, sh, TJPF_RGB, 0) != 0) return false;
    if (decode_only) return true;
    small_.resize(size_t(ow) * oh * 3);
    resizer_.Resize(ImageView{rgb_.data(), sw, sh, 3, size_t(sw) * 3}, Region{0, 0, double(sw), double(sh)},
                    Filter::kBox, MutableImageView{small_.data(), ow, oh, 3, size_t(ow) * 3});
    return tjCompress2(enc_, small_.data(), ow, 0, oh, TJPF_RGB, &jpeg_, &jpeg_size_, TJSAMP_420, 90, 0) == 0;
  }

 private:
  tjhandle dec_, enc_;
  unsigned char* jpeg_ = nullptr;
  unsigned long jpeg_size_ = 0;
  std::vector<unsigned char> rgb_, small_;
  Resizer resizer_;
};

struct Best {
  double wall = 1e30, cpu = 1e30;
  void Update(double w, double c) {
    wall = std::min(wall, w);
    cpu = std::min(cpu, c);
  }
};

bool g_only_tfq = false;
bool g_from_files = false;

void Bench(const std::string& name, const std::vector<std::string>& files, const std::vector<std::string>& paths,
           size_t bytes, const ConvertOptions& o, double seconds) {
  ImageConverter converter(o);
  Reference ref;
  ConvertedImage out;
  size_t out_bytes = 0;
  int failures = 0;
  // Warm up: one pass of each, which also sizes every buffer.
  for (const std::string& f : files) {
    if (!converter.Convert(f, &out).ok()) ++failures;
    out_bytes += out.bytes.size();
    if (!g_only_tfq) ref.Run(f, o.resize, false);
  }
  Best tfq, reference, decode;
  std::string read_buffer;  // --from-files: each file as read in the pass, capacity reused
  const double start = Now(CLOCK_MONOTONIC);
  int passes = 0;
  while (passes < 3 || Now(CLOCK_MONOTONIC) - start < seconds) {
    for (int which = 0; which < (g_only_tfq ? 1 : 3); ++which) {
      double w0 = Now(CLOCK_MONOTONIC), c0 = Now(CLOCK_THREAD_CPUTIME_ID);
      for (size_t i = 0; i < files.size(); ++i) {
        const std::string* file = &files[i];
        if (g_from_files) {
          ReadInto(paths[i], &read_buffer);
          file = &read_buffer;
        }
        const std::string& f = *file;
        if (which == 0) {
          (void)converter.Convert(f, &out);
        } else {
          ref.Run(f, o.resize, which == 2);
        }
      }
      double w = Now(CLOCK_MONOTONIC) - w0, c = Now(CLOCK_THREAD_CPUTIME_ID) - c0;
      (which == 0 ? tfq : which == 1 ? reference : decode).Update(w, c);
    }
    ++passes;
  }
  const double n = files.size();
  std::printf("%s: %zu files, %.1f MB, %d failed, output %.1f KB/image, %d passes%s\n", name.c_str(),
              files.size(), bytes / 1e6, failures, out_bytes / n / 1e3, passes,
              g_from_files ? ", files read in every pass" : ", files preloaded");
  std::printf("  %-44s %9s %9s %8s\n", "", "img/s", "img/s cpu", "MB/s");
  auto line = [&](const char* what, const Best& b) {
    std::printf("  %-44s %9.1f %9.1f %8.1f\n", what, n / b.wall, n / b.cpu, bytes / 1e6 / b.wall);
  };
  line("tfq ImageConverter", tfq);
  if (g_only_tfq) return;
  line("reference: scaled decode + area resize + encode", reference);
  line("reference: scaled decode alone", decode);
  std::printf("  tfq / reference: %.2fx (cpu %.2fx); tfq / reference decode alone: %.2fx (cpu %.2fx)\n",
              reference.wall / tfq.wall, reference.cpu / tfq.cpu, decode.wall / tfq.wall,
              decode.cpu / tfq.cpu);
}

}  // namespace

int main(int argc, char** argv) {
  std::string shared = std::getenv("TFQ_SHARED_DIR") ? std::getenv("TFQ_SHARED_DIR") : TFQ_PERF_SHARED_DIR;
  double seconds = 10;
  std::string set = "all";
  ConvertOptions base;
  for (int i = 1; i < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--from-files") {  // the one flag without a value
      g_from_files = true;
      --i;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "tfq_image_perftest: error: %s: unknown option or missing value\n", a.c_str());
      return 2;
    }
    std::string v = argv[i + 1];
    if (a == "--shared") {
      shared = v;
    } else if (a == "--seconds") {
      seconds = std::atof(v.c_str());
    } else if (a == "--set") {
      set = v;
    } else if (a == "--dct") {
      base.dct_scales = v == "all" ? ScaleSet::kAllEighths : ScaleSet::kPowersOfTwo;
    } else if (a == "--only") {
      g_only_tfq = v == "tfq";
    } else if (a == "--filter") {
      base.filter = v == "box" ? Filter::kBox : v == "lanczos3" ? Filter::kLanczos3 : Filter::kTriangle;
    } else {
      std::fprintf(stderr, "tfq_image_perftest: error: unknown option %s\n", a.c_str());
      return 2;
    }
  }
#ifdef NDEBUG
  const char* build = "release";
#else
  const char* build = "debug (numbers are not meaningful)";
#endif
  std::printf("tfq_image_perftest: 1 thread, %s build, filter %s, DCT scales %s, JPEG q90 4:2:0\n", build,
              FilterName(base.filter),
              base.dct_scales == ScaleSet::kAllEighths ? "all n/8" : "powers of two");
  bool any = false;
  if (set == "imagenet" || set == "all") {
    size_t bytes;
    std::vector<std::string> paths;
    auto files = LoadDir(shared + "/images/imagenet", &bytes, &paths);
    if (!files.empty()) {
      ConvertOptions o = base;
      o.resize = {ResizeMode::kExact, 224, 224, 0, false};
      Bench("imagenet to 224x224", files, paths, bytes, o, seconds);
      any = true;
    }
  }
  if (set == "large" || set == "all") {
    size_t bytes;
    std::vector<std::string> paths;
    auto files = LoadDir(shared + "/images/large", &bytes, &paths);
    if (!files.empty()) {
      ConvertOptions o = base;
      o.resize = {ResizeMode::kShorterSide, 0, 0, 256, false};
      Bench("large to shorter side 256", files, paths, bytes, o, seconds);
      any = true;
    }
  }
  if (!any) {
    std::fprintf(stderr, "tfq_image_perftest: error: no images under %s/images\n", shared.c_str());
    return 1;
  }
  return 0;
}
