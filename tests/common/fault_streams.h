// Fault injection for unit tests: streams that fail the way real devices do, part-way through.
//
//   FailingOutputStream  accepts `budget` bytes, then fails like a full disk (ENOSPC by default)
//                        or any other errno, in Write or, for buffered bytes, in Close. It can
//                        wrap a real file output, so that the test also sees what is (not) left
//                        on disk afterwards.
//   FailingInputStream   hands out the first `budget` bytes of its data, then fails like a bad
//                        sector (EIO), with the byte offset in the message.
//   FileSizeLimit        a real kernel failure for code that opens its own descriptors
//                        (reshard's shard sets): RLIMIT_FSIZE makes write() fail with EFBIG once
//                        a file would grow past the limit. Process-wide: one test at a time.
//
// The messages follow tfq's conventions (io/fd_writer.h, io/input_stream.h), so tests can check
// that an error travels up unchanged: the file's name and what happened.
#ifndef TFQ_TESTS_COMMON_FAULT_STREAMS_H_
#define TFQ_TESTS_COMMON_FAULT_STREAMS_H_

#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/input_stream.h"
#include "io/output_stream.h"

namespace tfq::testing {

// The Status a failed write of `name` gets in tfq (the text of io's WriteError).
inline Status InjectedWriteError(const std::string& name, int err) {
  if (err == ENOSPC) {
    return Status::IoError(name + ": disk full (" + std::strerror(err) +
                           "); free some space or write elsewhere");
  }
  return Status::FromErrno(name, err);
}

class FailingOutputStream final : public OutputStream {
 public:
  // kWrite: the write that crosses the budget fails. kClose: every write succeeds and Close
  // fails if more than the budget was written, as a buffered stream shows a full disk only
  // when its last buffer is flushed.
  enum class FailAt { kWrite, kClose };

  // Passes bytes to `inner` (may be null: they are dropped) until `budget` bytes were accepted;
  // then fails as `at` says, and every later call fails too, Close included.
  FailingOutputStream(std::string name, uint64_t budget, std::unique_ptr<OutputStream> inner = nullptr,
                      int err = ENOSPC, FailAt at = FailAt::kWrite)
      : name_(std::move(name)), budget_(budget), inner_(std::move(inner)), err_(err), at_(at) {}

  Status Write(std::string_view data) override {
    if (!error_.ok()) return error_;
    if (closed_) return Status::Internal(name_ + ": write after Close");
    if (written_ + data.size() > budget_ && at_ == FailAt::kClose) {
      written_ += data.size();  // the bytes "sit in a buffer"; Close will fail
      return Status::OK();
    }
    if (written_ + data.size() > budget_) {
      // What fits goes through first, as a short write would leave it on the device.
      const size_t fits = static_cast<size_t>(budget_ - written_);
      if (inner_ && fits > 0) (void)inner_->Write(data.substr(0, fits));
      written_ = budget_;
      error_ = InjectedWriteError(name_, err_);
      ++failures_;
      return error_;
    }
    written_ += data.size();
    return inner_ ? inner_->Write(data) : Status::OK();
  }
  Status Close() override {
    if (closed_) return Status::Internal(name_ + ": closed twice");
    closed_ = true;
    if (error_.ok() && written_ > budget_) {
      error_ = InjectedWriteError(name_, err_);
      ++failures_;
    }
    if (!error_.ok()) return error_;  // `inner` stays unclosed: abandoned when destroyed
    return inner_ ? inner_->Close() : Status::OK();
  }
  const std::string& name() const override { return name_; }
  uint64_t bytes_written() const override { return written_; }
  int failures() const { return failures_; }

 private:
  const std::string name_;
  const uint64_t budget_;
  std::unique_ptr<OutputStream> inner_;
  const int err_;
  const FailAt at_;
  uint64_t written_ = 0;
  int failures_ = 0;
  bool closed_ = false;
  Status error_;
};

class FailingInputStream final : public InputStream {
 public:
  // Serves data[0, budget) and then fails with `err` (EIO: a bad sector) for every call that
  // needs more; a budget at or past the end never fails.
  FailingInputStream(std::string name, std::string data, uint64_t budget, int err = EIO)
      : name_(std::move(name)), data_(std::move(data)), budget_(std::min<uint64_t>(budget, data_.size())),
        fails_(budget < data_.size()), err_(err) {}

  Status Peek(size_t min_bytes, std::string_view* available) override {
    *available = std::string_view(data_).substr(pos_, budget_ - pos_);
    if (available->size() < min_bytes && fails_) return Error();
    return Status::OK();
  }
  void Consume(size_t n) override { pos_ += n; }
  Status Skip(uint64_t n, uint64_t* skipped) override {
    *skipped = std::min<uint64_t>(n, budget_ - pos_);
    pos_ += *skipped;
    return *skipped < n && fails_ ? Error() : Status::OK();
  }
  uint64_t position() const override { return pos_; }
  const std::string& name() const override { return name_; }

 private:
  Status Error() const {
    return Status::IoError(name_ + ": read error at byte " + std::to_string(budget_) + ": " +
                           std::strerror(err_));
  }
  const std::string name_;
  const std::string data_;
  const uint64_t budget_;
  const bool fails_;
  const int err_;
  uint64_t pos_ = 0;
};

// While alive, no file of this process may grow past `bytes`: write() fails with EFBIG (SIGXFSZ
// is ignored meanwhile). Restores the previous limit and signal disposition when destroyed.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(uint64_t bytes) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    saved_signal_ = signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = saved_;
    limit.rlim_cur = static_cast<rlim_t>(bytes);
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    signal(SIGXFSZ, saved_signal_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  struct rlimit saved_;
  sighandler_t saved_signal_;
};

}  // namespace tfq::testing

#endif  // TFQ_TESTS_COMMON_FAULT_STREAMS_H_
