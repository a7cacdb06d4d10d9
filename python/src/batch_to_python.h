// Batch columns -> Python objects, as tfq.Dataset hands them out (docs/python.md, "Batches").
//
// Numeric values and row splits are contiguous std::vectors: each is moved into a heap object
// that a NumPy array's base capsule owns, so NumPy sees the pipeline's memory without a copy
// (and the column is left empty); when NumPy drops it, it goes to the BufferRecycler, if any. Bytes values become an object array of `bytes`, one copy
// each: NumPy's fixed-width `S` arrays would drop trailing zero bytes.
//
// Needs the GIL.
#ifndef TFQ_PYTHON_BATCH_TO_PYTHON_H_
#define TFQ_PYTHON_BATCH_TO_PYTHON_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "buffer_recycler.h"
#include "pipeline/batch.h"

namespace tfq::python {

// A 1-D or reshaped array that owns `values` (moved from; left empty).
pybind11::array OwningArray(std::vector<int64_t>* values, std::vector<pybind11::ssize_t> shape);
pybind11::array OwningArray(std::vector<float>* values, std::vector<pybind11::ssize_t> shape);

// An object array of `bytes`, value(i) for i < n, in `shape` (whose product is n).
template <typename ValueAt>
pybind11::array BytesArray(size_t n, std::vector<pybind11::ssize_t> shape, ValueAt value) {
  pybind11::array out(pybind11::dtype("O"), std::move(shape));
  auto** slots = static_cast<PyObject**>(out.mutable_data());
  for (size_t i = 0; i < n; ++i) {
    const std::string_view v = value(i);
    PyObject* b = PyBytes_FromStringAndSize(v.data(), static_cast<Py_ssize_t>(v.size()));
    if (b == nullptr) throw pybind11::error_already_set();
    Py_XDECREF(slots[i]);  // NumPy fills a new object array with NULL or None
    slots[i] = b;
  }
  return out;
}

// How one column becomes a value of the batch dict.
struct ColumnShape {
  std::vector<pybind11::ssize_t> dense_shape;  // dense: the per-row shape (product = length)
};

// The batch as {key: array or ragged_type(values, row_splits)}; numeric columns are moved out.
// `shapes` is parallel to batch->columns.
// With `padding_mask`, the dict also has kPaddingKey: a bool array, true for the rows repeated to
// even out ranks (pipeline::RecordSource::padding).
inline constexpr const char* kPaddingKey = "__padding__";
pybind11::dict BatchToDict(pipeline::Batch* batch, const std::vector<ColumnShape>& shapes,
                           bool padding_mask, const pybind11::object& ragged_type,
                           const std::shared_ptr<BufferRecycler>& recycler);

}  // namespace tfq::python

#endif  // TFQ_PYTHON_BATCH_TO_PYTHON_H_
