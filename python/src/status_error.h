// StatusError: how a failed tfq::Status crosses into Python.
//
// Binding code throws StatusError (ThrowIfError) with the GIL held or not; the translator that
// RegisterStatusErrors installs turns it into the exception class tfq/_errors.py maps the
// StatusCode to (tfq.CorruptionError for kCorruption, FileNotFoundError's subclass for kNotFound,
// ...), carrying the Status message unchanged: the text the CLI prints after "tfq: error: ",
// naming the file, record and byte offset.
#ifndef TFQ_PYTHON_STATUS_ERROR_H_
#define TFQ_PYTHON_STATUS_ERROR_H_

#include <exception>
#include <string>

#include <pybind11/pybind11.h>

#include "common/status.h"

namespace tfq::python {

class StatusError : public std::exception {
 public:
  explicit StatusError(Status status) : status_(std::move(status)) {}
  const Status& status() const { return status_; }
  const char* what() const noexcept override { return status_.message().c_str(); }

 private:
  Status status_;
};

inline void ThrowIfError(const Status& status) {
  if (!status.ok()) throw StatusError(status);
}

// The snake_case name of a code ("invalid_argument", "corruption", ...): the key of
// tfq/_errors.py's table.
const char* StatusCodeName(StatusCode code);

void RegisterStatusErrors(pybind11::module_& m);

}  // namespace tfq::python

#endif  // TFQ_PYTHON_STATUS_ERROR_H_
