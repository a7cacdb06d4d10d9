#include "io/staged_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "io/cleanup.h"
#include "io/paths.h"

namespace tfq {
namespace {

int CreateForWriting(const std::string& path) {
  for (;;) {
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EINTR) return fd;
  }
}

}  // namespace

Result<std::unique_ptr<StagedFile>> StagedFile::Create(std::string staged_path, const std::string& error_context) {
  // Registered before it exists: a signal between open() and registration would leak it.
  const int slot = RegisterTemporaryPath(staged_path);
  int fd = CreateForWriting(staged_path);
  if (fd < 0 && errno == ENOENT) {  // every output creates the folders it needs (docs/reliability.md)
    Status made = CreateParentDirectories(staged_path);
    if (!made.ok()) {
      UnregisterTemporaryPath(slot);
      return made;
    }
    fd = CreateForWriting(staged_path);
  }
  if (fd < 0) {
    const int err = errno;
    UnregisterTemporaryPath(slot);
    return Status::FromErrno(error_context, err);
  }
  return std::unique_ptr<StagedFile>(new StagedFile(std::move(staged_path), fd, slot));
}

StagedFile::~StagedFile() {
  if (fd_ >= 0) close(fd_);
  if (final_path_.empty()) {
    unlink(staged_path_.c_str());
  } else if (guarded_) {
    unlink(final_path_.c_str());  // guarded and never kept
  }
  UnregisterTemporaryPath(cleanup_slot_);
}

int StagedFile::ReleaseDescriptor() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

int StagedFile::RenameTo(const std::string& final_path, bool guard_final) {
  const int final_slot = guard_final ? RegisterTemporaryPath(final_path) : -1;
  if (rename(staged_path_.c_str(), final_path.c_str()) != 0) {
    const int err = errno;
    UnregisterTemporaryPath(final_slot);
    return err;
  }
  final_path_ = final_path;
  UnregisterTemporaryPath(cleanup_slot_);  // after the rename, so no instant is unprotected
  cleanup_slot_ = final_slot;
  guarded_ = guard_final;
  return 0;
}

void StagedFile::Keep() {
  UnregisterTemporaryPath(cleanup_slot_);
  cleanup_slot_ = -1;
  guarded_ = false;
}

void StagedFile::Remove() {
  if (!final_path_.empty()) unlink(final_path_.c_str());
  Keep();
}

}  // namespace tfq
