#include "common/status.h"

#include <cerrno>
#include <cstring>

namespace tfq {

Status::Status(StatusCode code, std::string message)
    : state_(code == StatusCode::kOk ? nullptr : new State{code, std::move(message)}) {}

Status::Status(const Status& other)
    : state_(other.state_ ? new State(*other.state_) : nullptr) {}

Status& Status::operator=(const Status& other) {
  if (this != &other) state_.reset(other.state_ ? new State(*other.state_) : nullptr);
  return *this;
}

Status Status::FromErrno(std::string_view context, int errno_value) {
  std::string msg(context);
  if (errno_value == EFBIG) {
    // A write past RLIMIT_FSIZE (batch schedulers set it; SIGXFSZ is ignored in main()).
    return IoError(msg + ": file too large for this process's file-size limit (ulimit -f)");
  }
  msg += ": ";
  msg += std::strerror(errno_value);
  switch (errno_value) {
    case ENOENT: return NotFound(std::move(msg));
    case EPIPE: return BrokenPipe(std::move(msg));
    case ENOSPC:
    case EDQUOT: return IoError(msg + " (free some space or write elsewhere)");
    default: return IoError(std::move(msg));
  }
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return state_ ? state_->message : kEmpty;
}

std::string Status::ToString() const { return state_ ? state_->message : std::string("OK"); }

Status Status::WithPrefix(std::string_view prefix) const {
  if (ok()) return Status();
  std::string msg(prefix);
  msg += ": ";
  msg += state_->message;
  return Status(state_->code, std::move(msg));
}

}  // namespace tfq
