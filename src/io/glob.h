// Expanding input arguments: plain paths, "-" and shard globs such as "data/train-*-of-*".
#ifndef TFQ_IO_GLOB_H_
#define TFQ_IO_GLOB_H_

#include <string>
#include <vector>

#include "common/status.h"

namespace tfq {

// Expands each argument in order: an argument with glob characters (* ? [) becomes the sorted
// list of matching paths (an error if none match, naming the pattern); any other argument,
// including "-", is kept as it is (its existence is checked when it is opened). Hidden
// temporaries of unfinished outputs (".tfq-partial.*") never match.
//
// Details: matches are sorted in byte order (not the locale's), so shard order is the same
// everywhere. A missing directory in a pattern just matches nothing (kNotFound "no files match
// 'PATTERN'"); an unreadable one is kIoError rather than silently skipped. An argument with glob
// characters that matches nothing but names an existing file ("data[1].tfrecord") is kept as it is.
Result<std::vector<std::string>> ExpandInputPaths(const std::vector<std::string>& args);

}  // namespace tfq

#endif  // TFQ_IO_GLOB_H_
