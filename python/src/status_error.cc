#include "status_error.h"

namespace py = pybind11;

namespace tfq::python {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid_argument";
    case StatusCode::kNotFound: return "not_found";
    case StatusCode::kIoError: return "io_error";
    case StatusCode::kCorruption: return "corruption";
    case StatusCode::kInvalidData: return "invalid_data";
    case StatusCode::kResourceExhausted: return "resource_exhausted";
    case StatusCode::kBrokenPipe: return "broken_pipe";
    case StatusCode::kCancelled: return "cancelled";
    case StatusCode::kInternal: return "internal";
  }
  return "internal";
}

void RegisterStatusErrors(py::module_& m) {
  m.def("status_code_names", [] {
    py::list names;
    for (int c = static_cast<int>(StatusCode::kOk); c <= static_cast<int>(StatusCode::kInternal); ++c) {
      names.append(StatusCodeName(static_cast<StatusCode>(c)));
    }
    return names;
  }, "Every StatusCode's name, for tfq/_errors.py's table test.");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const StatusError& e) {
      // The table lives in Python, where the exception classes are; imported once per error.
      py::object error = py::module_::import("tfq._errors")
                             .attr("from_status")(StatusCodeName(e.status().code()),
                                                  e.status().message());
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
    }
  });
}

}  // namespace tfq::python
