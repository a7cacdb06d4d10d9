#include "io/paths.h"

#include <sys/stat.h>

#include <cctype>
#include <cerrno>

namespace tfq {

bool LooksLikeUrl(std::string_view path) {
  const size_t colon = path.find("://");
  if (colon == std::string_view::npos || colon == 0) return false;
  if (!std::isalpha(static_cast<unsigned char>(path[0]))) return false;
  for (size_t i = 1; i < colon; ++i) {
    const unsigned char c = static_cast<unsigned char>(path[i]);
    if (!std::isalnum(c) && c != '+' && c != '-' && c != '.') return false;
  }
  return true;
}

Status UrlNotSupported(const std::string& url) {
  const std::string scheme = url.substr(0, url.find("://") + 3);
  return Status::InvalidArgument(url + ": " + scheme +
                                 " URLs are not supported (tfq reads s3://, gs://, http://, https:// "
                                 "and file://); copy the data to a local folder first or pipe it in with -");
}

Status CreateParentDirectories(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos || slash == 0) return Status::OK();
  for (size_t end = 1; end <= slash; ++end) {
    if (end != slash && path[end] != '/') continue;
    if (path[end - 1] == '/') continue;  // "a//b": the empty component is the same folder
    const std::string folder = path.substr(0, end);
    if (mkdir(folder.c_str(), 0777) == 0 || errno == EEXIST) continue;
    const int err = errno;
    struct stat st;
    if (stat(folder.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;  // EACCES on an existing one
    return Status::FromErrno(folder + ": cannot create the output folder", err);
  }
  return Status::OK();
}

}  // namespace tfq
