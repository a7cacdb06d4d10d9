// Expanding input arguments: plain paths, "-" and shard globs such as "data/train-*-of-*".
#ifndef TFQ_IO_GLOB_H_
#define TFQ_IO_GLOB_H_

#include <string>
#include <vector>

#include "common/status.h"

namespace tfq {

// Expands each argument in order: an argument with glob characters (* ? [) becomes the sorted
// list of matching paths (an error if none match, naming the pattern); "-" and any other
// argument are kept as they are, once stat() has found them: a missing one is kNotFound
// ("PATH: No such file or directory"), before anything is read. `check_existence` false leaves
// that to the opening (the record pipeline, whose skip mode skips missing files at their turn). A URL ("s3://b/k") goes to
// its scheme's FileSystem (io/file_system.h): a glob ("s3://b/train-*") is matched against the
// store's listing, a plain URL is checked with one request; an unknown scheme is kInvalidArgument. Hidden temporaries of unfinished outputs
// (".tfq-partial.*") never match a glob. The manifests tfq writes beside shards
// ("*.manifest.json", "*.manifest-00001-of-00008.json") are dropped from the list, whether a
// glob matched them or the shell did (`tfq inspect out/*`); if nothing else is left, that is
// kInvalidArgument naming the manifest.
//
// Details: matches are sorted in byte order (not the locale's), so shard order is the same
// everywhere. A missing directory in a pattern just matches nothing (kNotFound "no files match
// 'PATTERN'"); an unreadable one is kIoError rather than silently skipped. An argument with glob
// characters that matches nothing but names an existing file ("data[1].tfrecord") is kept as it is.
Result<std::vector<std::string>> ExpandInputPaths(const std::vector<std::string>& args,
                                                  bool check_existence = true);

}  // namespace tfq

#endif  // TFQ_IO_GLOB_H_
