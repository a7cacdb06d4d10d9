// tfq._tfq: the C++ core as Python sees it. The public API is the pure-Python package around it
// (python/tfq/__init__.py); names here are private and may change.
#include <pybind11/pybind11.h>

#include "example_codec.h"
#include "status_error.h"

namespace tfq::python {
void RegisterPipeline(pybind11::module_& m);
void RegisterRecords(pybind11::module_& m);
}  // namespace tfq::python

PYBIND11_MODULE(_tfq, m) {
  m.doc() = "tfq's C++ core (private; use the tfq package)";
  tfq::python::RegisterStatusErrors(m);
  tfq::python::RegisterExampleCodec(m);
  tfq::python::RegisterPipeline(m);
  tfq::python::RegisterRecords(m);
}
