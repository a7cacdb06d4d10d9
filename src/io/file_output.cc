// CreateOutputFile: regular files are written under a hidden temporary name and renamed into place
// by Close(); standard output and special files (/dev/null, FIFOs) are written directly.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "io/fd_writer.h"
#include "io/file_streams.h"
#include "io/file_system.h"
#include "io/paths.h"
#include "io/random_access_file.h"
#include "io/staged_file.h"

namespace tfq {
namespace {

constexpr size_t kWriteBuffer = size_t{1} << 20;

// Writes straight to a descriptor: there is nothing to rename, and an unclosed stream simply
// stops (its buffered bytes are dropped, as a stream that was abandoned must not look complete).
class DirectOutputStream final : public OutputStream {
 public:
  DirectOutputStream(std::string name, int fd, bool owns_fd)
      : name_(std::move(name)), fd_(fd), owns_fd_(owns_fd), writer_(fd, name_, kWriteBuffer) {}
  ~DirectOutputStream() override {
    if (owns_fd_ && !closed_) close(fd_);
  }

  Status Write(std::string_view data) override {
    if (closed_) return Status::Internal(name_ + ": write after Close");
    bytes_written_ += data.size();
    return writer_.Write(data);
  }
  Status Close() override {
    if (closed_) return Status::Internal(name_ + ": closed twice");
    closed_ = true;
    Status s = writer_.Flush();
    if (owns_fd_ && close(fd_) != 0 && s.ok()) s = WriteError(name_, errno);
    return s;
  }
  const std::string& name() const override { return name_; }
  uint64_t bytes_written() const override { return bytes_written_; }

 private:
  const std::string name_;
  const int fd_;
  const bool owns_fd_;
  FdWriter writer_;
  uint64_t bytes_written_ = 0;
  bool closed_ = false;
};

// Writes a staged temporary (io/staged_file.h: registered with the interrupt cleanup while it
// exists, so Ctrl-C does not leave it behind either), renamed to `path` by Close().
class AtomicFileOutputStream final : public OutputStream {
 public:
  AtomicFileOutputStream(std::string path, std::unique_ptr<StagedFile> temp)
      : path_(std::move(path)),
        temp_(std::move(temp)),
        fd_(temp_->ReleaseDescriptor()),
        writer_(fd_, path_, kWriteBuffer) {}
  ~AtomicFileOutputStream() override {
    if (!closed_) Abandon();
  }

  Status Write(std::string_view data) override {
    if (closed_) return Status::Internal(path_ + ": write after Close");
    bytes_written_ += data.size();
    return writer_.Write(data);
  }

  // From a local file inside the kernel, after the bytes buffered so far.
  Status AppendRange(std::shared_ptr<const RandomAccessFile> source, uint64_t offset, uint64_t n) override {
    if (closed_) return Status::Internal(path_ + ": write after Close");
    TFQ_RETURN_IF_ERROR(writer_.Flush());
    bytes_written_ += n;
    if (const int err = source->AppendRangeTo(fd_, offset, n, &copy_scratch_)) return WriteError(path_, err);
    return Status::OK();
  }

  Status FinishWriting() override {
    if (closed_) return Status::Internal(path_ + ": closed twice");
    if (fd_ < 0) return Status::OK();  // finished already
    Status s = writer_.Flush();
    // close() is where NFS and some FUSE file systems report a failed write; and after close()
    // the descriptor is gone even on EINTR, so it is not retried.
    if (s.ok()) {
      int rc = close(fd_);
      fd_ = -1;
      if (rc != 0) s = WriteError(path_, errno);
    }
    if (!s.ok()) Abandon();
    return s;
  }

  Status Close() override {
    if (closed_) return Status::Internal(path_ + ": closed twice");
    Status s = FinishWriting();
    if (s.ok()) {
      if (const int err = temp_->RenameTo(path_, /*guard_final=*/false)) {
        s = Status::IoError(path_ + ": cannot rename the finished temporary file " + temp_->staged_path() +
                            " into place: " + std::strerror(err));
      }
    }
    if (!s.ok()) {
      Abandon();
      return s;
    }
    closed_ = true;
    temp_.reset();
    return s;
  }

  const std::string& name() const override { return path_; }
  uint64_t bytes_written() const override { return bytes_written_; }

 private:
  void Abandon() {
    closed_ = true;
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    temp_.reset();  // removes the temporary
  }

  const std::string path_;
  std::unique_ptr<StagedFile> temp_;
  int fd_;
  FdWriter writer_;
  RangeCopyScratch copy_scratch_;
  uint64_t bytes_written_ = 0;
  bool closed_ = false;
};

int OpenForWriting(const char* path, int extra_flags) {
  for (;;) {
    int fd = open(path, O_WRONLY | O_CLOEXEC | extra_flags, 0666);
    if (fd >= 0 || errno != EINTR) return fd;
  }
}

}  // namespace

Result<std::unique_ptr<OutputStream>> CreateOutputFile(const std::string& path) {
  if (path == "-") {
    return std::unique_ptr<OutputStream>(
        std::make_unique<DirectOutputStream>("<stdout>", STDOUT_FILENO, /*owns_fd=*/false));
  }
  if (path.empty()) return Status::InvalidArgument("the output path is empty");
  if (LooksLikeUrl(path)) {
    const FileSystem* fs = FileSystemForUrl(path);
    if (!fs) return UrlNotSupported(path);
    return fs->Create(path);
  }
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Status::InvalidArgument(path + ": is a directory");
    if (!S_ISREG(st.st_mode)) {
      // /dev/null, a FIFO, a process substitution: renaming a file over them would be wrong.
      int fd = OpenForWriting(path.c_str(), 0);
      if (fd < 0) return Status::FromErrno(path, errno);
      return std::unique_ptr<OutputStream>(
          std::make_unique<DirectOutputStream>(path, fd, /*owns_fd=*/true));
    }
  }
  size_t slash = path.rfind('/');
  size_t base_start = slash == std::string::npos ? 0 : slash + 1;
  if (base_start == path.size()) return Status::InvalidArgument(path + ": is a directory");
  std::string temp_path = path.substr(0, base_start) + ".tfq-partial." +
                          path.substr(base_start) + "." + std::to_string(getpid());

  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<StagedFile> temp,
                       StagedFile::Create(std::move(temp_path), path + ": cannot create"));
  return std::unique_ptr<OutputStream>(std::make_unique<AtomicFileOutputStream>(path, std::move(temp)));
}

}  // namespace tfq
