// Listing DIR/<class>/*, reading --labels files, and assigning labels (dataset.h has the rules).
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <map>

#include "csv/values.h"
#include "imageset/dataset.h"
#include "io/file_streams.h"

namespace tfq::imageset {
namespace {

bool IsHidden(const char* name) { return name[0] == '.'; }

// Names in a directory (hidden ones and "."/".." left out), sorted in byte order. Returns 0 or
// the errno of the call that failed.
int ReadDirectory(const std::string& dir, std::vector<std::string>* names) {
  DIR* d = opendir(dir.c_str());
  if (!d) return errno;
  names->clear();
  errno = 0;
  while (dirent* e = readdir(d)) {
    if (!IsHidden(e->d_name)) names->emplace_back(e->d_name);
  }
  const int err = errno;
  closedir(d);
  if (err) return err;
  std::sort(names->begin(), names->end());
  return 0;
}

ImageEntry ProblemEntry(const std::string& path, const std::string& class_name, ListingProblem problem, int err) {
  ImageEntry e;
  e.path = path;
  e.class_text = class_name;
  e.problem = problem;
  e.problem_errno = err;
  return e;
}

// The folders from the class folder down to the one being listed, to find symbolic-link loops.
struct FolderId {
  dev_t dev;
  ino_t ino;
  bool operator==(const FolderId& o) const { return dev == o.dev && ino == o.ino; }
};

// Appends every regular file below `dir` (recursively, byte order at each level) to *out; a path
// that cannot be looked at becomes an entry that fails, and so does a link back to a folder
// being listed (which would otherwise repeat its files until the path is too long).
void ListFiles(const std::string& dir, const std::string& class_name, std::vector<FolderId>* above,
               std::vector<ImageEntry>* out) {
  std::vector<std::string> names;
  if (const int err = ReadDirectory(dir, &names)) {
    out->push_back(ProblemEntry(dir, class_name, ListingProblem::kNoListing, err));
    return;
  }
  for (const std::string& name : names) {
    const std::string path = dir + "/" + name;
    struct stat st;
    if (stat(path.c_str(), &st) != 0) {
      out->push_back(ProblemEntry(path, class_name, ListingProblem::kNoStat, errno));
    } else if (S_ISDIR(st.st_mode)) {
      const FolderId id{st.st_dev, st.st_ino};
      if (std::find(above->begin(), above->end(), id) != above->end()) {
        out->push_back(ProblemEntry(path, class_name, ListingProblem::kNoStat, ELOOP));
        continue;
      }
      above->push_back(id);
      ListFiles(path, class_name, above, out);
      above->pop_back();
    } else if (S_ISREG(st.st_mode)) {
      ImageEntry e;
      e.path = path;
      e.class_text = class_name;
      e.bytes = static_cast<uint64_t>(st.st_size);
      out->push_back(std::move(e));
    }
  }
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

Status ListingFailure(const ImageEntry& e) {
  const int err = e.problem_errno;
  if (e.problem == ListingProblem::kNoListing) {
    return Status::FromErrno(e.path + ": cannot list this folder, its files are skipped", err);
  }
  struct stat st;
  if (err == ENOENT && lstat(e.path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    return Status::NotFound(e.path + ": a symbolic link to a path that does not exist");
  }
  return Status::FromErrno(e.path, err);
}

Status ListImageFolder(const std::string& root, Dataset* out, std::vector<std::string>* classes) {
  std::vector<std::string> names;
  if (const int err = ReadDirectory(root, &names)) return Status::FromErrno(root, err);
  classes->clear();
  std::vector<ImageEntry> loose;  // regular files directly in DIR
  for (const std::string& name : names) {
    const std::string path = root + "/" + name;
    struct stat st;
    if (stat(path.c_str(), &st) != 0) {
      // Maybe a class folder behind a dangling link: not ignored like a stray file, but failed.
      out->entries.push_back(ProblemEntry(path, "", ListingProblem::kNoStat, errno));
    } else if (S_ISDIR(st.st_mode)) {
      classes->push_back(name);
      std::vector<FolderId> above{{st.st_dev, st.st_ino}};
      ListFiles(path, name, &above, &out->entries);
    } else if (S_ISREG(st.st_mode)) {
      ImageEntry e;
      e.path = path;
      e.bytes = static_cast<uint64_t>(st.st_size);
      loose.push_back(std::move(e));
    } else {
      ++out->ignored_files;
    }
  }
  if (!classes->empty()) {
    out->ignored_files += loose.size();
    return Status::OK();
  }
  if (loose.empty() && out->entries.empty()) {
    return Status::InvalidArgument(root + ": no class folders and no image files (expected DIR/<class>/<image "
                                   "files>, or DIR/<image files> for a set without labels)");
  }
  // A flat folder: its files, without labels, in byte order with the paths that failed to stat.
  out->labelled = false;
  std::vector<ImageEntry> all;
  std::merge(std::make_move_iterator(loose.begin()), std::make_move_iterator(loose.end()),
             std::make_move_iterator(out->entries.begin()), std::make_move_iterator(out->entries.end()),
             std::back_inserter(all), [](const ImageEntry& a, const ImageEntry& b) { return a.path < b.path; });
  out->entries = std::move(all);
  return Status::OK();
}

Result<std::vector<std::string>> ReadLabelsFile(const std::string& path) {
  TFQ_ASSIGN_OR_RETURN(auto in, OpenInputFile(path));
  std::string text;
  std::string_view chunk;
  while (true) {
    Status s = in->Peek(1 << 16, &chunk);
    if (!s.ok()) return s;
    if (chunk.empty()) break;
    text.append(chunk);
    in->Consume(chunk.size());
  }
  std::vector<std::string> names;
  std::map<std::string, size_t> seen;
  size_t line_no = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    ++line_no;
    const std::string_view name = Trim(std::string_view(text).substr(start, end - start));
    start = end + 1;
    if (name.empty()) continue;
    auto [it, inserted] = seen.emplace(std::string(name), line_no);
    if (!inserted) {
      return Status::InvalidData(path + ": line " + std::to_string(line_no) + ": class \"" +
                                 std::string(name) + "\" already on line " +
                                 std::to_string(it->second));
    }
    names.emplace_back(name);
  }
  if (names.empty()) return Status::InvalidData(path + ": no class names");
  return names;
}

Result<Dataset> LoadDataset(const DatasetOptions& options) {
  Dataset ds;
  ds.label_offset = options.label_offset;
  std::vector<std::string> classes;       // folders, or the manifest's label values
  std::vector<std::string> label_values;  // manifest only: per entry
  if (options.manifest.empty()) {
    TFQ_RETURN_IF_ERROR(ListImageFolder(options.root, &ds, &classes));
  } else {
    TFQ_RETURN_IF_ERROR(ReadManifest(options.manifest, options.root, &ds, &label_values));
  }
  if (ds.entries.empty()) {
    return Status::InvalidArgument((options.manifest.empty() ? options.root : options.manifest) +
                                   ": no image files found");
  }
  if (!ds.labelled) {
    const std::string what = (options.manifest.empty() ? options.root + " holds no class folders"
                                                        : options.manifest + " has no label column") +
                             ": the set has no labels";
    if (!options.labels_file.empty()) return Status::InvalidArgument("--labels: " + what);
    if (options.label_offset != 0) return Status::InvalidArgument("--label-offset: " + what);
    return ds;
  }
  std::vector<std::string> from_file;
  if (!options.labels_file.empty()) {
    TFQ_ASSIGN_OR_RETURN(from_file, ReadLabelsFile(options.labels_file));
  }
  // Numeric manifest labels are used as given.
  bool numeric = !options.manifest.empty();
  for (const std::string& v : label_values) {
    int64_t n;
    if (!csv::ParseInt64(v, &n)) numeric = false;
  }
  if (numeric) {
    ds.class_names = from_file;
    for (ImageEntry& e : ds.entries) {
      int64_t n = 0;
      (void)csv::ParseInt64(e.class_text, &n);
      if (__builtin_add_overflow(n, options.label_offset, &e.label)) {
        return Status::InvalidData(e.path + ": label " + e.class_text + " plus --label-offset " +
                                   std::to_string(options.label_offset) + " is beyond 64 bits");
      }
      if (n >= 0 && static_cast<uint64_t>(n) < from_file.size()) e.class_text = from_file[n];
    }
    return ds;
  }
  if (!options.manifest.empty()) {
    classes = label_values;
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  }
  if (!from_file.empty()) {
    std::map<std::string_view, bool> known;
    for (const std::string& n : from_file) known[n] = true;
    for (const std::string& c : classes) {
      if (!known.count(c)) {
        return Status::InvalidArgument("class \"" + c + "\" is not in " + options.labels_file);
      }
    }
    classes = from_file;
  }
  std::map<std::string_view, int64_t> index;
  for (size_t i = 0; i < classes.size(); ++i) index[classes[i]] = static_cast<int64_t>(i);
  for (ImageEntry& e : ds.entries) {
    if (e.problem != ListingProblem::kNone) continue;  // fails before its label matters
    if (e.class_text.empty()) return Status::InvalidData(e.path + ": empty label");
    e.label = index.at(e.class_text) + options.label_offset;
  }
  ds.class_names = std::move(classes);
  return ds;
}

void InferExtraKinds(const std::vector<bool>& was_string, Dataset* dataset) {
  for (size_t c = 0; c < dataset->extra_columns.size(); ++c) {
    bool all_int = !was_string[c], all_float = !was_string[c];
    for (const ImageEntry& e : dataset->entries) {
      const std::string& v = e.extras[c];
      if (v.empty()) continue;
      const csv::ValueFit fit = csv::ClassifyValue(v);
      all_int = all_int && fit.int64;
      all_float = all_float && fit.float32;
    }
    dataset->extra_columns[c].kind =
        all_int ? FeatureKind::kInt64 : all_float ? FeatureKind::kFloat : FeatureKind::kBytes;
  }
}

}  // namespace tfq::imageset
