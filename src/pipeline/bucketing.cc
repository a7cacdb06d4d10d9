#include "pipeline/bucketing.h"

#include <algorithm>

#include "pipeline/options.h"

namespace tfq::pipeline {
namespace {

Status InvalidBucketing(const std::string& what) {
  return Status::InvalidArgument("pipeline: bucketing " + what);
}

}  // namespace

Status ValidateBucketOptions(const BucketOptions& o, const std::vector<FeatureSpec>& specs) {
  if (o.length_key.empty()) {
    return InvalidBucketing("needs a length_key (the feature whose value count is a row's length)");
  }
  const bool known = std::any_of(specs.begin(), specs.end(),
                                 [&](const FeatureSpec& s) { return s.key == o.length_key; });
  if (!known) return InvalidBucketing("length_key '" + o.length_key + "' is not one of the features");
  for (size_t i = 0; i < o.boundaries.size(); ++i) {
    const std::string name =
        "boundaries[" + std::to_string(i) + "] = " + std::to_string(o.boundaries[i]);
    if (o.boundaries[i] == 0) return InvalidBucketing(name + ": a boundary must be at least 1");
    if (i > 0 && o.boundaries[i] <= o.boundaries[i - 1]) {
      return InvalidBucketing(name + ": boundaries must be strictly increasing");
    }
  }
  if (o.batch_sizes.size() != o.boundaries.size() + 1) {
    return InvalidBucketing("batch_sizes has " + std::to_string(o.batch_sizes.size()) +
                   " entries; give one per bucket, boundaries.size() + 1 = " +
                   std::to_string(o.boundaries.size() + 1));
  }
  for (size_t i = 0; i < o.batch_sizes.size(); ++i) {
    if (o.batch_sizes[i] == 0) {
      return InvalidBucketing("batch_sizes[" + std::to_string(i) + "] must be at least 1");
    }
  }
  if (o.pad_to_bucket_boundary && !o.pad) return InvalidBucketing("pad_to_bucket_boundary needs pad");
  if (o.pad_to_bucket_boundary && o.boundaries.empty()) {
    return InvalidBucketing("pad_to_bucket_boundary needs at least one boundary");
  }
  return Status::OK();
}

size_t BucketIndex(const std::vector<size_t>& boundaries, size_t length) {
  return static_cast<size_t>(std::upper_bound(boundaries.begin(), boundaries.end(), length) -
                             boundaries.begin());
}

}  // namespace tfq::pipeline
