// StagedFile: a local output written under a hidden staging name and given its final name only
// when it is complete, the one place that creates, renames and removes such files.
//
// A dataset must never be left half-written under a name that looks finished (io/output_stream.h
// says why). The staging file is registered with the interrupt cleanup (io/cleanup.h) before it
// exists and for as long as it does; destroying a StagedFile that was not renamed removes it.
// RenameTo can keep guarding the final name, so that a set of files renamed one by one
// (reshard/shard_set.h) is removed whole if interrupted or if a later rename fails.
//
// Thread safety: none; one thread owns a StagedFile.
#ifndef TFQ_IO_STAGED_FILE_H_
#define TFQ_IO_STAGED_FILE_H_

#include <memory>
#include <string>

#include "common/status.h"

namespace tfq {

class StagedFile {
 public:
  // Creates (or truncates) `staged_path`, creating the folders above it that are missing. Errors:
  // a folder that cannot be made (io/paths.h), or Status::FromErrno(error_context, errno).
  static Result<std::unique_ptr<StagedFile>> Create(std::string staged_path, const std::string& error_context);
  // Closes a descriptor still held; removes the staging file unless renamed, and the final name
  // if still guarded (neither Keep nor Remove was called after a guarded RenameTo).
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  // Hands the descriptor (open for writing, at offset 0) to a writer that closes it. Once only.
  int ReleaseDescriptor();

  // Renames the staging file to `final_path`; returns 0 or the errno of rename(2), the staging
  // file then still existing. With `guard_final`, the final name is registered with the interrupt
  // cleanup from before the rename until Keep or Remove.
  int RenameTo(const std::string& final_path, bool guard_final);
  // After a guarded RenameTo: the file stays under its final name...
  void Keep();
  // ... or is removed again (a set that did not complete).
  void Remove();

  const std::string& staged_path() const { return staged_path_; }

 private:
  StagedFile(std::string staged_path, int fd, int cleanup_slot)
      : staged_path_(std::move(staged_path)), fd_(fd), cleanup_slot_(cleanup_slot) {}

  const std::string staged_path_;
  int fd_;
  int cleanup_slot_;  // the staging name's, then the guarded final name's
  bool guarded_ = false;  // renamed with guard_final, and neither kept nor removed yet
  std::string final_path_;  // set by a successful RenameTo
};

}  // namespace tfq

#endif  // TFQ_IO_STAGED_FILE_H_
