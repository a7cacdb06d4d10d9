#include "batch_to_python.h"

#include <memory>
#include <utility>

namespace py = pybind11;

namespace tfq::python {
namespace {

// What a NumPy array's base capsule owns: the values, and where to hand them back when NumPy
// drops them (none: freed).
template <typename T>
struct OwnedValues {
  std::vector<T> values;
  std::shared_ptr<BufferRecycler> recycler;
};

template <typename T>
py::array Owning(std::vector<T>* values, std::vector<py::ssize_t> shape,
                 const std::shared_ptr<BufferRecycler>& recycler = nullptr) {
  auto owned = std::make_unique<OwnedValues<T>>(OwnedValues<T>{std::move(*values), recycler});
  values->clear();
  const T* data = owned->values.data();
  py::capsule base(owned.get(), [](void* p) {
    std::unique_ptr<OwnedValues<T>> owned(static_cast<OwnedValues<T>*>(p));
    if (owned->recycler) owned->recycler->Return(std::move(owned->values));
  });
  owned.release();  // the capsule owns it now
  return py::array_t<T>(std::move(shape), data, base);
}

std::vector<py::ssize_t> RowsThen(size_t rows, const std::vector<py::ssize_t>& row_shape) {
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(rows)};
  shape.insert(shape.end(), row_shape.begin(), row_shape.end());
  return shape;
}

py::array ValuesOf(pipeline::Column* c, std::vector<py::ssize_t> shape,
                   const std::shared_ptr<BufferRecycler>& recycler) {
  switch (c->dtype) {
    case pipeline::DType::kInt64: return Owning(&c->int64_values, std::move(shape), recycler);
    case pipeline::DType::kFloat: return Owning(&c->float_values, std::move(shape), recycler);
    case pipeline::DType::kBytes: break;
  }
  return BytesArray(c->num_values(), std::move(shape), [c](size_t i) { return c->bytes_value(i); });
}

}  // namespace

py::array OwningArray(std::vector<int64_t>* values, std::vector<py::ssize_t> shape) {
  return Owning(values, std::move(shape));
}
py::array OwningArray(std::vector<float>* values, std::vector<py::ssize_t> shape) {
  return Owning(values, std::move(shape));
}

py::dict BatchToDict(pipeline::Batch* batch, const std::vector<ColumnShape>& shapes,
                     bool padding_mask, const py::object& ragged_type,
                     const std::shared_ptr<BufferRecycler>& recycler) {
  py::dict out;
  for (size_t i = 0; i < batch->columns.size(); ++i) {
    pipeline::Column& c = batch->columns[i];
    py::str key(c.key);
    if (!c.ragged && !c.lengths.empty()) {  // a VarLen column padded dense by bucketing
      const auto rows = static_cast<py::ssize_t>(batch->rows);
      out[key] = ValuesOf(&c, {rows, static_cast<py::ssize_t>(c.length)}, recycler);
      out[py::str(c.key + "__lengths")] = Owning(&c.lengths, {rows});
    } else if (c.ragged) {
      const auto n = static_cast<py::ssize_t>(c.num_values());
      py::array values = ValuesOf(&c, {n}, recycler);
      py::array splits = Owning(&c.row_splits, {static_cast<py::ssize_t>(batch->rows) + 1}, recycler);
      out[key] = ragged_type(std::move(values), std::move(splits));
    } else {
      out[key] = ValuesOf(&c, RowsThen(batch->rows, shapes[i].dense_shape), recycler);
    }
  }
  if (padding_mask) {
    py::array_t<bool> mask(static_cast<py::ssize_t>(batch->rows));
    bool* m = mask.mutable_data();
    for (size_t r = 0; r < batch->rows; ++r) m[r] = batch->sources[r].padding;
    out[kPaddingKey] = std::move(mask);
  }
  return out;
}

}  // namespace tfq::python
