#include "io/output_set.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "io/cleanup.h"
#include "io/file_system.h"
#include "io/paths.h"

namespace tfq {
namespace {

// Whether removing `name` removes an output file: a regular file, or one that does not exist
// yet. Never a device, a FIFO or standard output ("<stdout>", the name such streams report).
bool IsRemovableFile(const std::string& name) {
  if (name == "<stdout>") return false;
  if (LooksLikeUrl(name)) return false;  // an object: removed through its FileSystem below
  struct stat st;
  if (lstat(name.c_str(), &st) != 0) return errno == ENOENT;
  return S_ISREG(st.st_mode);
}

}  // namespace

Status CloseTogether(std::span<OutputStream* const> outputs) {
  std::vector<int> slots;
  std::vector<bool> removable(outputs.size(), false);
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i] || !IsRemovableFile(outputs[i]->name())) continue;
    removable[i] = true;
    slots.push_back(RegisterTemporaryPath(outputs[i]->name()));
  }
  Status status;
  // First everything that can fail but the renames (flushing the last buffers takes milliseconds),
  // so that the set then takes its final names back to back: a SIGKILL, which no cleanup can
  // follow, leaves part of a set only if it falls between two renames.
  for (size_t i = 0; i < outputs.size() && status.ok(); ++i) {
    if (outputs[i]) status = outputs[i]->FinishWriting();
  }
  std::vector<std::string> completed;
  std::vector<std::string> completed_objects;
  for (size_t i = 0; i < outputs.size() && status.ok(); ++i) {
    if (!outputs[i]) continue;
    status = outputs[i]->Close();
    if (status.ok() && removable[i]) completed.push_back(outputs[i]->name());
    if (status.ok() && FileSystemForUrl(outputs[i]->name())) completed_objects.push_back(outputs[i]->name());
  }
  if (!status.ok()) {
    for (const std::string& path : completed) unlink(path.c_str());
    for (const std::string& url : completed_objects) {
      Status ignored = FileSystemForUrl(url)->Remove(url);  // best effort: the first error is the one to report
      (void)ignored;
    }
  }
  for (int slot : slots) UnregisterTemporaryPath(slot);
  return status;
}

}  // namespace tfq
