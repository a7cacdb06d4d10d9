// What tfq does with a path before opening it: URLs it cannot open yet, and the folders an output
// needs.
#ifndef TFQ_IO_PATHS_H_
#define TFQ_IO_PATHS_H_

#include <string>
#include <string_view>

#include "common/status.h"

namespace tfq {

// "s3://bucket/key", "gs://...", "https://...": a scheme of letters, digits, '+', '-', '.'
// before "://" (RFC 3986). Local paths that merely contain "://" later ("a/b://c") are not URLs.
bool LooksLikeUrl(std::string_view path);

// The error for a URL whose scheme no FileSystem serves (io/file_system.h; kInvalidArgument,
// exit 2), naming it and saying what to do instead.
Status UrlNotSupported(const std::string& url);

// Creates the folders above `path` that do not exist yet ("out/a/train" -> out/, out/a/), as
// `mkdir -p` would; the last component is not created. Errors name the folder that could not
// be made.
Status CreateParentDirectories(const std::string& path);

}  // namespace tfq

#endif  // TFQ_IO_PATHS_H_
