// A main() for the fuzz targets in builds without libFuzzer: feeds every file named on the command
// line, or found (recursively, in sorted order) in a directory named there, to
// LLVMFuzzerTestOneInput once, after the empty input. ctest runs it over the committed seeds and regression inputs, so
// every reproducer stays fixed in the ordinary (and the ASan+UBSan) test runs.
//
// A missing directory is not an error (a target may have no regressions yet); an unreadable file
// is. A bug shows as the sanitizer's report or an abort() from the target's own checks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> InputsUnder(const fs::path& root) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_regular_file(root, ec)) return {root};
  if (!fs::is_directory(root, ec)) return files;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(root, ec)) {
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  // The empty input first, as libFuzzer runs it (so no seed file needs to be empty).
  uint8_t none[1] = {0};
  LLVMFuzzerTestOneInput(none, 0);
  size_t replayed = 1;
  for (int i = 1; i < argc; ++i) {
    for (const fs::path& path : InputsUnder(argv[i])) {
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "replay: error: cannot read %s\n", path.c_str());
        return 1;
      }
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      // A copy of exactly `size` bytes, as libFuzzer passes, so ASan sees reads past the end.
      std::vector<uint8_t> copy(bytes.begin(), bytes.end());
      LLVMFuzzerTestOneInput(copy.data(), copy.size());
      ++replayed;
    }
  }
  std::printf("replayed %zu inputs\n", replayed);
  return 0;
}
