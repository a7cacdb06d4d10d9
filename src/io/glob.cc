// ExpandInputPaths: shard globs expanded with glob(3), in byte order, without our temporaries.
#include "io/glob.h"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "io/file_system.h"
#include "io/paths.h"

namespace tfq {
namespace {

constexpr std::string_view kPartialPrefix = ".tfq-partial.";

// glob(3) reports directory errors through a plain function pointer; this is where the first one
// is kept for the message (per thread, so concurrent expansions do not mix).
thread_local std::string t_error_path;
thread_local int t_error_errno = 0;

int OnGlobError(const char* path, int errno_value) {
  // A missing directory in the pattern just means nothing matches there.
  if (errno_value == ENOENT || errno_value == ENOTDIR) return 0;
  t_error_path = path;
  t_error_errno = errno_value;
  return 1;  // stop: silently skipping an unreadable directory could drop shards
}

bool IsPartialOutput(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return base.substr(0, kPartialPrefix.size()) == kPartialPrefix;
}

// The manifests tfq writes beside the shards it converts ("PREFIX.manifest.json", and a task's
// "PREFIX.manifest-00001-of-00008.json"): `tfq inspect out/*` means the shards.
bool IsManifestBesideShards(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  auto ends_with = [&](std::string_view suffix) {
    return base.size() >= suffix.size() && base.substr(base.size() - suffix.size()) == suffix;
  };
  return ends_with(".manifest.json") ||
         (ends_with(".json") && base.find(".manifest-") != std::string_view::npos);
}

bool HasGlobCharacters(const std::string& arg) {
  return arg.find_first_of("*?[") != std::string::npos;
}

Status Expand(const std::string& pattern, std::vector<std::string>* out) {
  glob_t g = {};
  t_error_errno = 0;
  int rc = glob(pattern.c_str(), GLOB_NOSORT, OnGlobError, &g);
  std::vector<std::string> matches;
  if (rc == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i) {
      if (!IsPartialOutput(g.gl_pathv[i])) matches.emplace_back(g.gl_pathv[i]);
    }
  }
  globfree(&g);
  if (rc == GLOB_ABORTED) {
    return Status::IoError("cannot expand '" + pattern + "': " + t_error_path + ": " +
                           std::strerror(t_error_errno));
  }
  if (rc == GLOB_NOSPACE) return Status::ResourceExhausted("out of memory expanding '" + pattern + "'");
  if (matches.empty()) {
    // A file whose name merely contains a glob character ("a[1].tfrecord") is taken literally.
    struct stat st;
    if (stat(pattern.c_str(), &st) == 0) {
      out->push_back(pattern);
      return Status::OK();
    }
    return Status::NotFound("no files match '" + pattern + "'");
  }
  // Byte order, not the locale's collation: the same shards come out in the same order anywhere.
  std::sort(matches.begin(), matches.end());
  out->insert(out->end(), matches.begin(), matches.end());
  return Status::OK();
}

// A URL: a glob is matched against the store's listing (io/file_system.h), a plain URL is
// checked with one request, as a plain path is with stat().
Status ExpandUrl(const std::string& url, bool check_existence, std::vector<std::string>* out) {
  const FileSystem* fs = FileSystemForUrl(url);
  if (!fs) return UrlNotSupported(url);
  const size_t after_scheme = url.find("://") + 3;
  const bool glob = url.find_first_of("*?[", after_scheme) != std::string::npos &&
                    url.rfind("http", 0) != 0;  // '?' starts an http query
  if (!glob) {
    if (check_existence) TFQ_RETURN_IF_ERROR(fs->CheckExists(url));
    out->push_back(url);
    return Status::OK();
  }
  TFQ_ASSIGN_OR_RETURN(std::vector<std::string> matches, fs->Match(url));
  std::erase_if(matches, [](const std::string& m) { return IsPartialOutput(m); });
  if (matches.empty()) return Status::NotFound("no objects match '" + url + "'");
  out->insert(out->end(), matches.begin(), matches.end());
  return Status::OK();
}

}  // namespace

Result<std::vector<std::string>> ExpandInputPaths(const std::vector<std::string>& args,
                                                  bool check_existence) {
  std::vector<std::string> paths;
  std::string manifest;  // the first one skipped, for the message when nothing else is left
  for (const std::string& arg : args) {
    if (LooksLikeUrl(arg)) {
      TFQ_RETURN_IF_ERROR(ExpandUrl(arg, check_existence, &paths));
    } else if (arg == "-") {
      paths.push_back(arg);
    } else if (HasGlobCharacters(arg)) {
      TFQ_RETURN_IF_ERROR(Expand(arg, &paths));
    } else {
      // Checked here, before any input is read, so that nothing is printed for a run that
      // cannot finish (`n=$(tfq inspect --count missing)` must not read a count).
      struct stat st;
      if (check_existence && stat(arg.c_str(), &st) != 0) return Status::FromErrno(arg, errno);
      paths.push_back(arg);
    }
  }
  // The shell expands `tfq inspect out/*` before tfq sees it, so the manifests are dropped from
  // named paths too, not only from tfq's own glob matches.
  std::erase_if(paths, [&](const std::string& p) {
    if (!IsManifestBesideShards(p)) return false;
    if (manifest.empty()) manifest = p;
    return true;
  });
  if (paths.empty() && !manifest.empty()) {
    return Status::InvalidArgument(manifest + ": is the manifest tfq writes beside the shards, not "
                                   "record data; name the shards (PREFIX-*-of-*)");
  }
  return paths;
}

}  // namespace tfq
