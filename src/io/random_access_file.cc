#include "io/random_access_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "io/fd_writer.h"
#include "io/file_system.h"
#include "io/paths.h"

namespace tfq {
namespace {

// Copies that go through user memory (copy_file_range refused, or a non-local source) move this
// much per read.
constexpr size_t kCopyBufferBytes = size_t{1} << 20;

int OpenRetryingEintr(const std::string& path, int flags) {
  for (;;) {
    const int fd = open(path.c_str(), flags);
    if (fd >= 0 || errno != EINTR) return fd;
  }
}

class PreadRandomAccessFile final : public RandomAccessFile {
 public:
  PreadRandomAccessFile(std::string name, int fd, uint64_t size)
      : RandomAccessFile(std::move(name), size), fd_(fd) {}
  ~PreadRandomAccessFile() override { close(fd_); }
  Status Read(uint64_t offset, size_t n, char* dst, size_t* got) const override;
  Result<uint64_t> CurrentSize() const override;
  void WillNeed(uint64_t offset, uint64_t n) const override;
  Result<std::unique_ptr<InputStream>> OpenStream(ReadPattern pattern) const override;
  int AppendRangeTo(int out_fd, uint64_t offset, uint64_t n, RangeCopyScratch* scratch) const override;

 private:
  const int fd_;
};

}  // namespace

Result<std::unique_ptr<RandomAccessFile>> RandomAccessFile::Open(const std::string& path,
                                                                const RandomAccessOptions& options) {
  if (LooksLikeUrl(path)) {
    const FileSystem* fs = FileSystemForUrl(path);
    if (!fs) return UrlNotSupported(path);
    return fs->OpenRandomAccess(path);
  }
  // Without O_NOATIME each of millions of small preads checks whether the access time is due
  // (docs/benchmarks.md); only the owner (or CAP_FOWNER) may ask for it.
  int fd = options.no_access_time ? OpenRetryingEintr(path, O_RDONLY | O_CLOEXEC | O_NOATIME) : -1;
  if (fd < 0) fd = OpenRetryingEintr(path, O_RDONLY | O_CLOEXEC);
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
  if (options.random_order) posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
  return std::unique_ptr<RandomAccessFile>(
      new PreadRandomAccessFile(path, fd, static_cast<uint64_t>(st.st_size)));
}

Status RandomAccessFile::ReadExactly(uint64_t offset, size_t n, char* dst) const {
  size_t got = 0;
  TFQ_RETURN_IF_ERROR(Read(offset, n, dst, &got));
  if (got < n) {
    return Status::IoError(name_ + ": ends before byte " + std::to_string(offset + n) +
                           " (was it truncated by someone else?)");
  }
  return Status::OK();
}

Result<std::unique_ptr<InputStream>> RandomAccessFile::OpenStream(ReadPattern pattern) const {
  return OpenInputFile(name_, pattern);
}

int RandomAccessFile::AppendRangeTo(int out_fd, uint64_t offset, uint64_t n, RangeCopyScratch* scratch) const {
  if (n > 0 && !scratch->buffer) scratch->buffer = AllocatePageBuffer(kCopyBufferBytes);
  while (n > 0) {
    size_t got = 0;
    const size_t want = static_cast<size_t>(std::min<uint64_t>(n, kCopyBufferBytes));
    if (!Read(offset, want, scratch->buffer.get(), &got).ok() || got == 0) return EIO;
    if (const int err = WriteFully(out_fd, scratch->buffer.get(), got)) return err;
    offset += got;
    n -= got;
  }
  return 0;
}

Result<uint64_t> PreadRandomAccessFile::CurrentSize() const {
  struct stat st;
  if (fstat(fd_, &st) != 0) return Status::FromErrno(name(), errno);
  return static_cast<uint64_t>(st.st_size);
}

void PreadRandomAccessFile::WillNeed(uint64_t offset, uint64_t n) const {
  posix_fadvise(fd_, static_cast<off_t>(offset), static_cast<off_t>(n), POSIX_FADV_WILLNEED);
}

Result<std::unique_ptr<InputStream>> PreadRandomAccessFile::OpenStream(ReadPattern pattern) const {
  // Offsets are explicit on both sides, so sharing the open file is safe.
  const int fd = fcntl(fd_, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return Status::FromErrno(name(), errno);
  return NewRegularFileStream(name(), fd, size(), pattern);
}

int PreadRandomAccessFile::AppendRangeTo(int out_fd, uint64_t offset, uint64_t n,
                                         RangeCopyScratch* scratch) const {
  off_t in = static_cast<off_t>(offset);
  while (n > 0 && !scratch->kernel_copy_refused) {
    const ssize_t r = copy_file_range(fd_, &in, out_fd, nullptr, n, 0);
    if (r > 0) {
      n -= static_cast<uint64_t>(r);
      continue;
    }
    if (r == 0) return EIO;  // the input ended early: it shrank under us
    if (errno == EINTR) continue;
    if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return errno;
    scratch->kernel_copy_refused = true;  // across file systems, or not supported: copy by hand
  }
  // The buffer loop of the base class, through pread.
  return RandomAccessFile::AppendRangeTo(out_fd, static_cast<uint64_t>(in), n, scratch);
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
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, Open(path));
  std::string bytes(static_cast<size_t>(file->size()), '\0');
  size_t got = 0;
  TFQ_RETURN_IF_ERROR(file->Read(0, bytes.size(), bytes.data(), &got));
  bytes.resize(got);
  return bytes;
}

}  // namespace tfq
