#include "reshard/spill.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <random>

#include "io/cleanup.h"
#include "reshard/file_sink.h"

namespace tfq::reshard {
namespace {

int OpenAnonymous(const std::string& dir) {
#ifdef O_TMPFILE
  int fd;
  do {
    fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  } while (fd < 0 && errno == EINTR);
  return fd;
#else
  errno = EOPNOTSUPP;
  return -1;
#endif
}

// The fallback: a hidden name that lives only between open() and unlink().
int OpenAndUnlink(const std::string& dir) {
  std::random_device entropy;  // only to keep concurrent runs apart; not part of any output
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string path = dir + "/.tfq-partial.shuffle-spill." + std::to_string(entropy()) + "." +
                             std::to_string(getpid());
    const int slot = RegisterTemporaryPath(path);
    int fd;
    do {
      fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    } while (fd < 0 && errno == EINTR);
    const int err = errno;
    if (fd >= 0) unlink(path.c_str());
    UnregisterTemporaryPath(slot);
    if (fd >= 0 || err != EEXIST) {
      errno = err;
      return fd;
    }
  }
  return -1;
}

}  // namespace

Result<std::unique_ptr<SpillFile>> SpillFile::Create(const std::string& dir) {
  int fd = OpenAnonymous(dir);
  if (fd < 0 && errno != ENOENT && errno != ENOTDIR && errno != EACCES && errno != EROFS) {
    fd = OpenAndUnlink(dir);  // the file system does not do O_TMPFILE
  }
  if (fd < 0) {
    return Status::FromErrno("cannot create the shuffle's temporary file in " + dir +
                                 " (choose another directory with --tmp-dir)",
                             errno);
  }
  return std::unique_ptr<SpillFile>(new SpillFile(fd, "temporary file in " + dir));
}

SpillFile::~SpillFile() { close(fd_); }

Status SpillFile::Append(const std::vector<std::string_view>& parts, uint64_t* offset) {
  *offset = size_;
  // pwritev takes at most IOV_MAX pieces, and may write fewer bytes than asked.
  std::vector<iovec> iov;
  iov.reserve(std::min<size_t>(parts.size(), IOV_MAX));
  size_t next = 0;
  while (next < parts.size()) {
    iov.clear();
    while (next < parts.size() && iov.size() < IOV_MAX) {
      if (!parts[next].empty()) {
        iov.push_back({const_cast<char*>(parts[next].data()), parts[next].size()});
      }
      ++next;
    }
    size_t first = 0;
    while (first < iov.size()) {
      const ssize_t n = pwritev(fd_, iov.data() + first, static_cast<int>(iov.size() - first),
                                static_cast<off_t>(size_));
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        const int err = n == 0 ? ENOSPC : errno;  // 0 bytes for a non-empty write: do not spin
        if (err == ENOSPC || err == EDQUOT) {
          return Status::IoError(name_ + ": disk full (" + std::strerror(err) +
                                 "); give a directory with more space with --tmp-dir");
        }
        return Status::FromErrno(name_, err);
      }
      size_ += static_cast<uint64_t>(n);
      size_t left = static_cast<size_t>(n);
      while (first < iov.size() && left >= iov[first].iov_len) left -= iov[first++].iov_len;
      if (left > 0) {
        iov[first].iov_base = static_cast<char*>(iov[first].iov_base) + left;
        iov[first].iov_len -= left;
      }
    }
  }
  return Status::OK();
}

Status SpillFile::ReadAt(uint64_t offset, uint64_t size, char* dst) const {
  return ReadAllAt(fd_, dst, size, offset, name_);
}

}  // namespace tfq::reshard
