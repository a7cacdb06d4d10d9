// What `tfq convert` for images works on: the list of image files with their labels, from a
// folder of class sub-folders or from a manifest (CSV or JSON lines), before any shuffling.
//
// Labels (docs/convert-images.md):
//  - folders: DIR/<class>/... ; classes in byte order of their names, label = position + offset;
//    every regular file below a class folder (at any depth, hidden files excepted) is an input,
//    in byte order of its path. Files directly in DIR belong to no class and are ignored (counted).
//    A path the listing cannot look at (a dangling symbolic link, a sub-folder that cannot be
//    listed) is an input that fails (ListingProblem), at its place in the order; only DIR itself
//    must be listable.
//  - --labels FILE: one class name per line, in label order; a class folder (or manifest class
//    name) missing from the file is an error.
//  - unlabelled: a DIR with no class folders is a flat folder whose files (directly in DIR, in
//    byte order) are the inputs, without labels; so is a manifest without a `label` column.
//    --labels and --label-offset are then usage errors.
//  - manifest: a `path` and a `label` column; a label column whose every value is an integer
//    gives the labels directly (plus the offset); otherwise the values are class names, labelled
//    as folders are. Other columns become extra features, typed as docs/csv.md says (int64, else
//    float, else bytes; an empty value is an empty list). Relative paths are relative to DIR.
#ifndef TFQ_IMAGESET_DATASET_H_
#define TFQ_IMAGESET_DATASET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "example/example_view.h"

namespace tfq::imageset {

// Why the folder listing could not look at a path. Such a path is still an input, one that fails
// (ListingFailure) as a file that cannot be read does: skipped, listed, counted.
enum class ListingProblem : uint8_t {
  kNone,
  kNoStat,     // stat() failed: a dangling symbolic link, a link loop, no permission
  kNoListing,  // a sub-folder that cannot be listed (opendir/readdir failed)
};

struct ImageEntry {
  std::string path;        // as opened: DIR/relative, or the manifest's absolute path
  int64_t label = 0;       // offset applied
  std::string class_text;  // image/class/text
  uint64_t bytes = 0;      // file size when listed (0 for manifest entries until stat'ed)
  ListingProblem problem = ListingProblem::kNone;
  int problem_errno = 0;   // the errno of the failed call
  std::vector<std::string> extras;  // one text value per ExtraColumn ("" = missing)
};

// The failure of an entry with a listing problem, naming its path and what to do.
Status ListingFailure(const ImageEntry& entry);

struct ExtraColumn {
  std::string name;
  FeatureKind kind = FeatureKind::kBytes;  // kInt64, kFloat or kBytes
};

struct Dataset {
  std::vector<ImageEntry> entries;  // in listing order (sorted), before the shuffle
  // Class names in label order (label = index + label_offset); empty for numeric manifest labels
  // without --labels.
  std::vector<std::string> class_names;
  int64_t label_offset = 0;
  std::vector<ExtraColumn> extra_columns;
  uint64_t ignored_files = 0;  // files directly in DIR (no class)
  // False for a set without labels: a flat folder (files directly in DIR, no class folders) or a
  // manifest without a label column. Its records have no label or class text.
  bool labelled = true;
};

struct DatasetOptions {
  std::string root;         // the input directory
  std::string manifest;     // "" = list the folders; else a .csv/.tsv/.jsonl/.json file
  std::string labels_file;  // "" = class names from folders/manifest in sorted order
  int64_t label_offset = 0;
};

// Lists the folder or reads the manifest. Errors: kNotFound / kIoError naming the path,
// kInvalidArgument for an empty dataset or a class missing from --labels, kInvalidData for a
// malformed manifest (naming its line).
Result<Dataset> LoadDataset(const DatasetOptions& options);

// Class names of a --labels file: one per line, trailing "\r" and surrounding blanks removed,
// empty lines skipped; a duplicate is kInvalidData.
Result<std::vector<std::string>> ReadLabelsFile(const std::string& path);

// Internal steps, exposed for tests.
Status ListImageFolder(const std::string& root, Dataset* out, std::vector<std::string>* classes);
Status ReadManifest(const std::string& path, const std::string& root, Dataset* out,
                    std::vector<std::string>* label_values);
// Decides the extra columns' kinds from their values (docs/csv.md's inference over every row);
// `was_string[c]` forces bytes (a JSON string stays bytes even if it looks like a number).
void InferExtraKinds(const std::vector<bool>& was_string, Dataset* dataset);

}  // namespace tfq::imageset

#endif  // TFQ_IMAGESET_DATASET_H_
