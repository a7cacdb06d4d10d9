// `<prefix>.manifest.json`: what a conversion wrote and what it could not read.
//
// One run writes `<prefix>.manifest.json`; task i of a scale-out run of m tasks writes
// `<prefix>.manifest-0000i-of-0000m.json` covering its own shards and failures, and
// MergeTaskManifests turns the m of them into the `<prefix>.manifest.json` one run would have
// written, byte for byte (nothing time- or machine-dependent is recorded). Format: see
// docs/convert-images.md; keys are written in a fixed order.
#ifndef TFQ_IMAGESET_RUN_MANIFEST_H_
#define TFQ_IMAGESET_RUN_MANIFEST_H_

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace tfq::imageset {

struct ShardEntry {
  uint64_t index = 0;
  std::string file;  // base name, in the manifest's directory
  uint64_t records = 0;
  uint64_t bytes = 0;  // file size
  std::string sha256;  // of the file's bytes
};

struct FailureEntry {
  uint64_t position = 0;  // in the shuffled order: failures are listed in processing order
  std::string path;
  std::string reason;
};

struct RunManifest {
  uint64_t files_found = 0;  // every input listed, in every task
  uint64_t ignored_files = 0;
  uint64_t num_shards = 0;
  uint64_t task_index = 0;
  uint64_t num_tasks = 1;  // > 1: a task manifest
  bool labelled = true;                  // false: the set has no labels (flat folder, no label column)
  std::vector<std::string> class_names;  // label = index + label_offset
  int64_t label_offset = 0;
  nlohmann::ordered_json options;  // what decides the bytes written (never threads or tasks)
  std::vector<ShardEntry> shards;  // this manifest's shards, by index
  std::vector<FailureEntry> failures;

  uint64_t records() const;
};

// "<prefix>.manifest.json", or "<prefix>.manifest-00001-of-00003.json" for a task of several.
std::string ManifestPath(const std::string& prefix, uint64_t task_index, uint64_t num_tasks);

nlohmann::ordered_json ManifestToJson(const RunManifest& m);
// kInvalidData naming `source` when a key is missing or mistyped.
Result<RunManifest> ManifestFromJson(const nlohmann::ordered_json& j, const std::string& source);

// The manifest file's text: pretty-printed JSON, every string through tfq::ToJsonText (bytes
// that are not UTF-8, as in a Latin-1 class or file name, become U+FFFD).
std::string ManifestText(const RunManifest& m);

// Writes the manifest atomically (temporary name, renamed when complete).
Status WriteManifest(const RunManifest& m, const std::string& path);
Result<RunManifest> ReadManifestFile(const std::string& path);

// Reads the task manifests of `prefix` for num_tasks tasks, checks that they belong to the same
// run (same inputs, shard count, labels, options) and that every shard is there exactly once,
// and returns the whole run's manifest. kNotFound for a missing task manifest, kInvalidData for
// manifests that do not fit together.
Result<RunManifest> MergeTaskManifests(const std::string& prefix, uint64_t num_tasks);

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_RUN_MANIFEST_H_
