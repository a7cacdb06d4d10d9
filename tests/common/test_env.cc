#include "common/test_env.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace tfq::testing {
namespace {

std::vector<std::string>& DirsToRemove() {
  static std::vector<std::string> dirs;
  return dirs;
}

void RemoveTempDirs() {
  std::error_code ec;
  for (const auto& d : DirsToRemove()) std::filesystem::remove_all(d, ec);
}

}  // namespace

std::string SharedDir() {
  const char* env = std::getenv("TFQ_SHARED_DIR");
  std::string dir = env && *env ? env : TFQ_DEFAULT_SHARED_DIR;
  struct stat st;
  if (stat((dir + "/corpus").c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return "";
  return dir;
}

std::string MakeTempDir() {
  static std::once_flag once;
  // Construct the list before registering the hook: exit handlers run in reverse order of
  // registration, so the list must be registered (constructed) first to outlive the hook.
  std::call_once(once, [] {
    DirsToRemove();
    std::atexit(RemoveTempDirs);
  });
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/tfq-test-XXXXXX";
  if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed: " + templ);
  DirsToRemove().push_back(templ);
  return templ;
}

std::string ReadFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFileOrDie(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

bool PathExists(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

}  // namespace tfq::testing
