#include "io/random_access_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "io/file_system.h"
#include "io/paths.h"

namespace tfq {
namespace {

class PreadRandomAccessFile final : public RandomAccessFile {
 public:
  PreadRandomAccessFile(std::string name, int fd, uint64_t size)
      : RandomAccessFile(std::move(name), size), fd_(fd) {}
  ~PreadRandomAccessFile() override { close(fd_); }
  Status Read(uint64_t offset, size_t n, char* dst, size_t* got) const override;

 private:
  const int fd_;
};

}  // namespace

Result<std::unique_ptr<RandomAccessFile>> RandomAccessFile::Open(const std::string& path) {
  if (LooksLikeUrl(path)) {
    const FileSystem* fs = FileSystemForUrl(path);
    if (!fs) return UrlNotSupported(path);
    return fs->OpenRandomAccess(path);
  }
  int fd;
  do {
    fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Status::FromErrno(path, errno);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    close(fd);
    return Status::FromErrno(path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return Status::InvalidArgument(path + (S_ISDIR(st.st_mode) ? ": is a directory"
                                                                : ": random access needs a regular "
                                                                  "file (not standard input or a pipe)"));
  }
  return std::unique_ptr<RandomAccessFile>(
      new PreadRandomAccessFile(path, fd, static_cast<uint64_t>(st.st_size)));
}

Status PreadRandomAccessFile::Read(uint64_t offset, size_t n, char* dst, size_t* got) const {
  *got = 0;
  while (*got < n) {
    const ssize_t r = pread(fd_, dst + *got, n - *got, static_cast<off_t>(offset + *got));
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno(name(), errno);
    }
    *got += static_cast<size_t>(r);
  }
  return Status::OK();
}

Result<std::string> RandomAccessFile::ReadAll(const std::string& path) {
  Result<std::unique_ptr<RandomAccessFile>> file = Open(path);
  if (!file.ok()) return file.status();
  std::string bytes(static_cast<size_t>((*file)->size()), '\0');
  size_t got = 0;
  TFQ_RETURN_IF_ERROR((*file)->Read(0, bytes.size(), bytes.data(), &got));
  bytes.resize(got);
  return bytes;
}

}  // namespace tfq
