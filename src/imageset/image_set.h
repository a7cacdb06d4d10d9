// ConvertImageSet: a folder of images (or a manifest) into sharded TFRecord files of
// tf.train.Example, plus `<prefix>.manifest.json`. The library behind `tfq convert DIR -o PREFIX`;
// docs/convert-images.md describes the behaviour for users.
//
//   1. list the inputs and assign labels (dataset.h);
//   2. shuffle the order with the seed (random.h), cut it into shards (shard_plan.h);
//   3. convert this task's images in parallel, in order (record_converter.h), writing each
//      record to its shard; a file that cannot be converted is a failure, counted and listed;
//   4. write the manifest (with the shards' SHA-256, taken as they were written), then give the
//      shards, --labels-out and the manifest their final names together (io/output_set.h): a run
//      that fails at any step, or is interrupted, leaves none of them.
//
// Records written + failures = images of this task's shards. Nothing is printed: failures and
// progress go to an observer, which is called from one thread at a time.
#ifndef TFQ_IMAGESET_IMAGE_SET_H_
#define TFQ_IMAGESET_IMAGE_SET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "image/convert.h"
#include "imageset/dataset.h"
#include "io/compression.h"

namespace tfq::imageset {

// build_image_data.py seeds its shuffle with 12345; tfq uses the same number (not the same order).
constexpr uint64_t kDefaultSeed = 12345;
// Target shard size when neither a shard count nor a size is given (tensorflow's advice: 100 MB+).
constexpr uint64_t kDefaultShardSize = 256ull << 20;

struct ImageSetOptions {
  DatasetOptions dataset;
  image::ConvertOptions convert;
  std::string keys_preset = "models";    // models | tfds
  std::vector<std::string> key_renames;  // OLD=NEW
  bool shuffle = true;
  uint64_t seed = kDefaultSeed;
  uint64_t num_shards = 0;  // 0: from shard_size
  uint64_t shard_size = 0;  // bytes per shard (estimated); 0 with num_shards 0: kDefaultShardSize
  std::string prefix;       // shards are ShardName(prefix, k, N, suffix)
  std::string suffix;
  Compression compression = Compression::kNone;
  uint64_t task_index = 0;
  uint64_t num_tasks = 1;
  int threads = 0;  // 0: all cores; more than the usable CPUs: one per CPU
  bool strict = false;                // the first failure stops the run (an error)
  uint64_t max_failures = UINT64_MAX;  // more failures than this stop the run (an error)
  std::string labels_out;             // also write the class names, one per line
};

struct ImageFailure {
  uint64_t position;
  const std::string& path;
  const Status& status;  // the message starts with the path
};

struct ImageSetProgress {
  uint64_t done = 0;   // inputs of this task handled (written or failed)
  uint64_t total = 0;  // inputs of this task
  uint64_t failures = 0;
  uint64_t source_bytes = 0;  // read so far
  uint64_t output_bytes = 0;  // records written so far (framed)
};

class ImageSetObserver {
 public:
  virtual ~ImageSetObserver() = default;
  virtual void OnFailure(const ImageFailure& failure) {}
  virtual void OnProgress(const ImageSetProgress& progress) {}
};

struct ImageSetResult {
  uint64_t files_found = 0;  // in the whole dataset
  uint64_t task_images = 0;  // in this task's shards
  uint64_t records = 0;
  uint64_t failures = 0;
  uint64_t bytes = 0;  // shard file bytes
  std::vector<std::string> shard_paths;
  std::string manifest_path;
};

Result<ImageSetResult> ConvertImageSet(const ImageSetOptions& options, ImageSetObserver* observer);

// Merges the task manifests of a run of `num_tasks` tasks into `<prefix>.manifest.json`, after
// checking that every shard they list is still the file its task wrote (shard_check.h: existence,
// size and SHA-256, reading `threads` shards at once). The result counts the merged run: its
// records, failures, shard files and their bytes.
Result<ImageSetResult> MergeImageSetManifests(const std::string& prefix, uint64_t num_tasks, int threads = 0);

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_IMAGE_SET_H_
