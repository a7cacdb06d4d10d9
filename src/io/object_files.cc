// The FileSystem of object-store URLs: streams from io/object_files.h, globs over listings.
#include "io/object_files.h"

#include <fnmatch.h>

#include <algorithm>

namespace tfq {
namespace {

class ObjectFileSystemImpl final : public FileSystem {
 public:
  Result<std::unique_ptr<InputStream>> OpenInput(const std::string& url, ReadPattern pattern) const override {
    TFQ_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectStore> store, ObjectStore::ForUrl(url));
    return OpenObjectInput(std::move(store), url, pattern);
  }

  Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccess(const std::string& url) const override {
    TFQ_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectStore> store, ObjectStore::ForUrl(url));
    TFQ_ASSIGN_OR_RETURN(uint64_t size, store->Size(url));
    return NewObjectRandomAccessFile(std::move(store), url, size);
  }

  Result<std::unique_ptr<OutputStream>> Create(const std::string& url) const override {
    TFQ_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectStore> store, ObjectStore::ForUrl(url));
    if (url.back() == '/') return Status::InvalidArgument(url + ": names a folder, not an object");
    if (url.rfind("http", 0) == 0) {
      return Status::InvalidArgument(url + ": http(s) URLs can only be read; write to s3:// or gs://");
    }
    return NewObjectOutput(std::move(store), url);
  }

  // Lists the objects under the pattern's literal prefix and keeps those the pattern matches,
  // '*' and '?' not crossing '/' (as gsutil's and TensorFlow's GetMatchingPaths).
  Result<std::vector<std::string>> Match(const std::string& pattern) const override {
    TFQ_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectStore> store, ObjectStore::ForUrl(pattern));
    const size_t literal = pattern.find_first_of("*?[");
    TFQ_ASSIGN_OR_RETURN(std::vector<ObjectEntry> listed, store->List(pattern.substr(0, literal)));
    std::vector<std::string> matches;
    for (const ObjectEntry& e : listed) {
      if (fnmatch(pattern.c_str(), e.url.c_str(), FNM_PATHNAME) == 0) matches.push_back(e.url);
    }
    std::sort(matches.begin(), matches.end());
    return matches;
  }

  Status CheckExists(const std::string& url) const override {
    TFQ_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectStore> store, ObjectStore::ForUrl(url));
    Result<uint64_t> size = store->Size(url);
    return size.ok() ? Status::OK() : size.status();
  }

  Status Remove(const std::string& url) const override {
    TFQ_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectStore> store, ObjectStore::ForUrl(url));
    return store->DeleteObject(url);
  }
};

}  // namespace

const FileSystem* ObjectFileSystem() {
  static const ObjectFileSystemImpl fs;
  return &fs;
}

}  // namespace tfq
