// Status and Result: how every tfq library function reports failure.
//
// The library never prints, exits or aborts (see docs/architecture.md); it returns a Status that
// names what went wrong and where ("train.tfrecord: record 12 (byte 3456): data CRC mismatch").
// Only apps/ turns a Status into a message on stderr and an exit code (see ExitCodeFor).
//
// An OK Status is a null pointer, so returning success costs nothing (LevelDB's idea).
#ifndef TFQ_COMMON_STATUS_H_
#define TFQ_COMMON_STATUS_H_

#include <cassert>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace tfq {

// What kind of failure happened. The kind, not the message, decides the exit code.
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,    // the caller (usually the user's command line) asked for something invalid
  kNotFound,           // a named file or directory does not exist
  kIoError,            // the operating system refused a read, write, rename, ...
  kCorruption,         // input bytes are not what the format requires (CRC, framing, wire format)
  kInvalidData,        // well-formed input whose values are unacceptable (bad CSV row, wrong type)
  kResourceExhausted,  // a stated limit was hit (record size cap, pixel limit, memory bound)
  kBrokenPipe,         // the reader of our output went away (`tfq ... | head`): not an error to report
  kCancelled,          // stopped on request (SIGINT/SIGTERM, consumer stopped the pipeline)
  kInternal,           // a bug in tfq
};

class [[nodiscard]] Status {
 public:
  Status() noexcept = default;
  Status(StatusCode code, std::string message);
  Status(const Status& other);
  Status& operator=(const Status& other);
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) { return {StatusCode::kInvalidArgument, std::move(msg)}; }
  static Status NotFound(std::string msg) { return {StatusCode::kNotFound, std::move(msg)}; }
  static Status IoError(std::string msg) { return {StatusCode::kIoError, std::move(msg)}; }
  static Status Corruption(std::string msg) { return {StatusCode::kCorruption, std::move(msg)}; }
  static Status InvalidData(std::string msg) { return {StatusCode::kInvalidData, std::move(msg)}; }
  static Status ResourceExhausted(std::string msg) { return {StatusCode::kResourceExhausted, std::move(msg)}; }
  static Status BrokenPipe(std::string msg) { return {StatusCode::kBrokenPipe, std::move(msg)}; }
  static Status Cancelled(std::string msg) { return {StatusCode::kCancelled, std::move(msg)}; }
  static Status Internal(std::string msg) { return {StatusCode::kInternal, std::move(msg)}; }

  // Builds an IoError from errno: "<context>: <strerror(errno_value)>"; ENOENT becomes NotFound and
  // EPIPE becomes BrokenPipe so that callers can tell them apart. EFBIG (a write beyond the
  // process's file-size limit) says so: "<context>: file too large for this process's file-size
  // limit (ulimit -f)".
  static Status FromErrno(std::string_view context, int errno_value);

  bool ok() const { return state_ == nullptr; }
  StatusCode code() const { return state_ ? state_->code : StatusCode::kOk; }
  // The message without a code prefix; empty for OK.
  const std::string& message() const;
  // "OK" or the message; what apps print after "tfq: error: ".
  std::string ToString() const;

  // Returns a copy whose message is "<prefix>: <message>", keeping the code. OK stays OK.
  Status WithPrefix(std::string_view prefix) const;

 private:
  struct State {
    StatusCode code;
    std::string message;
  };
  std::unique_ptr<State> state_;
};

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design, as absl::StatusOr
  Result(Status status) : status_(std::move(status)) {}  // NOLINT: must not be OK

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  // The value; only after ok() (checked where assertions are on: the Debug and sanitizer builds).
  T& value() & { return Checked(); }
  const T& value() const& { return Checked(); }
  T&& value() && { return std::move(Checked()); }
  T* operator->() { return &Checked(); }
  T& operator*() { return Checked(); }

 private:
  T& Checked() {
    assert(value_.has_value() && "Result::value() of a failed Result");
    return *value_;
  }
  const T& Checked() const {
    assert(value_.has_value() && "Result::value() of a failed Result");
    return *value_;
  }
  Status status_;
  std::optional<T> value_;
};

}  // namespace tfq

#define TFQ_RETURN_IF_ERROR(expr)              \
  do {                                         \
    ::tfq::Status tfq_status_ = (expr);        \
    if (!tfq_status_.ok()) return tfq_status_; \
  } while (0)

// TFQ_ASSIGN_OR_RETURN(T name, expr): evaluates `expr` (a Result<T>) and returns its Status from
// the enclosing function if it failed; else declares `name` with its value, moved out. As Arrow's
// ARROW_ASSIGN_OR_RAISE and TensorFlow's TF_ASSIGN_OR_RETURN; `expr` is evaluated once.
#define TFQ_ASSIGN_OR_RETURN(lhs, rexpr) \
  TFQ_ASSIGN_OR_RETURN_IMPL_(TFQ_STATUS_CONCAT_(tfq_result_, __LINE__), lhs, rexpr)
#define TFQ_ASSIGN_OR_RETURN_IMPL_(result, lhs, rexpr) \
  auto result = (rexpr);                               \
  if (!result.ok()) return result.status();            \
  lhs = std::move(result).value()
#define TFQ_STATUS_CONCAT_(a, b) TFQ_STATUS_CONCAT_INNER_(a, b)
#define TFQ_STATUS_CONCAT_INNER_(a, b) a##b

#endif  // TFQ_COMMON_STATUS_H_
