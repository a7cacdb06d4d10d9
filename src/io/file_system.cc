#include "io/file_system.h"

#include <map>
#include <mutex>

#include "io/object_files.h"
#include "io/paths.h"

namespace tfq {
namespace {

// file:///abs/path: the local paths again, so that a tool that writes URLs everywhere works.
class LocalUrlFileSystem final : public FileSystem {
 public:
  Result<std::unique_ptr<InputStream>> OpenInput(const std::string& url, ReadPattern pattern) const override {
    return OpenInputFile(Path(url), pattern);
  }
  Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccess(const std::string& url) const override {
    return RandomAccessFile::Open(Path(url));
  }
  Result<std::unique_ptr<OutputStream>> Create(const std::string& url) const override {
    return CreateOutputFile(Path(url));
  }
  Result<std::vector<std::string>> Match(const std::string& pattern) const override {
    return Status::InvalidArgument(pattern + ": globs in file:// URLs are not expanded; give the path");
  }
  Status CheckExists(const std::string& url) const override {
    Result<std::unique_ptr<RandomAccessFile>> f = RandomAccessFile::Open(Path(url));
    return f.ok() ? Status::OK() : f.status();
  }
  Status Remove(const std::string& url) const override {
    return std::remove(Path(url).c_str()) == 0 ? Status::OK() : Status::FromErrno(url, errno);
  }

 private:
  static std::string Path(const std::string& url) { return url.substr(7); }  // "file://"
};

struct Registry {
  std::mutex mu;
  std::map<std::string, const FileSystem*, std::less<>> by_scheme;
};

Registry& TheRegistry() {
  static Registry* registry = [] {
    auto* r = new Registry();
    static const LocalUrlFileSystem local;
    r->by_scheme["file"] = &local;
    for (const char* scheme : {"s3", "gs", "http", "https"}) r->by_scheme[scheme] = ObjectFileSystem();
    return r;
  }();
  return *registry;
}

}  // namespace

const FileSystem* FileSystemForUrl(std::string_view path) {
  if (!LooksLikeUrl(path)) return nullptr;
  const std::string_view scheme = path.substr(0, path.find("://"));
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.by_scheme.find(scheme);
  return it == r.by_scheme.end() ? nullptr : it->second;
}

void RegisterFileSystem(const std::string& scheme, const FileSystem* fs) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.by_scheme[scheme] = fs;
}

}  // namespace tfq
