#include "example_codec.h"

#include <cstdint>
#include <limits>
#include <vector>

#include <pybind11/numpy.h>

#include "batch_to_python.h"
#include "status_error.h"

namespace py = pybind11;

namespace tfq::python {
namespace {

// Adds one feature's value; `what` ("out.tfrecord: record 7: feature 'x'") prefixes errors.
class FeatureAdder {
 public:
  FeatureAdder(ExampleEncoder* encoder, std::string_view key, std::string what)
      : encoder_(encoder), key_(key), what_(std::move(what)) {}

  void Add(py::handle v) {
    if (PyLong_Check(v.ptr())) return encoder_->AddInt64(key_, ToInt64(v));
    if (PyFloat_Check(v.ptr())) return encoder_->AddFloat(key_, static_cast<float>(PyFloat_AS_DOUBLE(v.ptr())));
    if (PyBytes_Check(v.ptr()) || PyUnicode_Check(v.ptr())) return encoder_->AddBytes(key_, BytesOf(v));
    if (PyList_Check(v.ptr()) || PyTuple_Check(v.ptr())) return AddSequence(py::reinterpret_borrow<py::sequence>(v));
    if (py::isinstance<py::array>(v) || py::hasattr(v, "dtype")) return AddArray(py::array::ensure(v));
    throw py::type_error(what_ + ": " + TypeName(v) + " is not a Feature value (int, float, bytes, str, "
                         "a list of one of them, or a NumPy array)");
  }

 private:
  static std::string TypeName(py::handle v) {
    if (v.is_none()) return "None";
    return "a value of type " + py::str(py::type::handle_of(v).attr("__name__")).cast<std::string>();
  }

  int64_t ToInt64(py::handle v) const {
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (overflow != 0) {
      throw py::value_error(what_ + ": " + py::str(v).cast<std::string>() + " is outside the int64 range");
    }
    if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
    return x;
  }

  // A view of bytes or of a str's UTF-8 form; valid while `v` lives.
  std::string_view BytesOf(py::handle v) const {
    if (PyBytes_Check(v.ptr())) {
      return std::string_view(PyBytes_AS_STRING(v.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(v.ptr())));
    }
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(v.ptr(), &size);
    if (utf8 == nullptr) throw py::error_already_set();  // a lone surrogate, for one
    return std::string_view(utf8, static_cast<size_t>(size));
  }

  void AddSequence(const py::sequence& seq) {
    const size_t n = seq.size();
    if (n == 0) return encoder_->AddEmpty(key_, FeatureKind::kNone);
    size_t ints = 0, floats = 0, strings = 0, numpy = 0;
    for (py::handle item : seq) {
      if (PyLong_Check(item.ptr())) ++ints;
      else if (PyFloat_Check(item.ptr())) ++floats;
      else if (PyBytes_Check(item.ptr()) || PyUnicode_Check(item.ptr())) ++strings;
      else if (py::hasattr(item, "dtype")) ++numpy;
    }
    if (ints == n) {
      std::vector<int64_t> values;
      values.reserve(n);
      for (py::handle item : seq) values.push_back(ToInt64(item));
      return encoder_->AddInt64s(key_, values.data(), n);
    }
    if (ints + floats == n) {
      std::vector<float> values;
      values.reserve(n);
      for (py::handle item : seq) {
        values.push_back(static_cast<float>(PyLong_Check(item.ptr()) ? static_cast<double>(ToInt64(item))
                                                                     : PyFloat_AS_DOUBLE(item.ptr())));
      }
      return encoder_->AddFloats(key_, values.data(), n);
    }
    if (strings == n) {
      std::vector<std::string_view> values;
      values.reserve(n);
      for (py::handle item : seq) values.push_back(BytesOf(item));
      return encoder_->AddBytes(key_, values);
    }
    if (numpy + ints + floats == n && numpy > 0) {  // NumPy scalars: let NumPy pick the dtype
      return AddArray(py::array::ensure(seq));
    }
    throw py::type_error(what_ + ": a list must hold ints, floats, or bytes/str, not a mix of them or "
                         "other values (" + TypeName(py::object(seq[0])) + " first)");
  }

  void AddArray(const py::array& a) {
    if (!a) throw py::type_error(what_ + ": the value does not convert to a NumPy array");
    const char kind = a.dtype().kind();
    if (kind == 'b' || kind == 'i' || kind == 'u') {
      if (kind == 'u' && a.itemsize() == 8 && a.size() > 0 &&
          py::int_(a.attr("max")()).cast<uint64_t>() > uint64_t{std::numeric_limits<int64_t>::max()}) {
        throw py::value_error(what_ + ": a uint64 value is outside the int64 range");
      }
      auto values = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
      return encoder_->AddInt64s(key_, values.data(), static_cast<size_t>(values.size()));
    }
    if (kind == 'f') {
      auto values = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a);
      return encoder_->AddFloats(key_, values.data(), static_cast<size_t>(values.size()));
    }
    if (kind == 'S' || kind == 'U' || kind == 'O') {
      py::object items = a.attr("ravel")().attr("tolist")();
      return AddSequence(py::reinterpret_borrow<py::sequence>(items));
    }
    throw py::type_error(what_ + ": a NumPy array of dtype " + py::str(a.dtype()).cast<std::string>() +
                         " has no Feature kind (use integers, floating point, bytes or str)");
  }

  ExampleEncoder* encoder_;
  std::string_view key_;
  std::string what_;
};

}  // namespace

void EncodeExampleDict(const py::dict& features, const std::string& where, ExampleEncoder* encoder,
                       std::string* out) {
  encoder->Clear();
  for (auto [key, value] : features) {
    if (!PyUnicode_Check(key.ptr())) {
      throw py::type_error(where + ": feature names are str, not " +
                           py::str(py::type::handle_of(key).attr("__name__")).cast<std::string>());
    }
    const std::string name = key.cast<std::string>();
    FeatureAdder(encoder, name, where + ": feature '" + name + "'").Add(value);
  }
  encoder->Finish(out);
}

py::dict ParseExampleToDict(std::string_view record) {
  ExampleView view;
  ThrowIfError(view.Parse(record).WithPrefix("not a tf.train.Example"));
  py::dict out;
  for (const FeaturesView::Entry& e : view.features().entries()) {
    py::str key(e.key.data(), e.key.size());
    switch (e.feature.kind()) {
      case FeatureKind::kInt64: {
        std::vector<int64_t> values;
        ThrowIfError(e.feature.AppendInt64s(&values));
        const auto n = static_cast<py::ssize_t>(values.size());
        out[key] = OwningArray(&values, {n});
        break;
      }
      case FeatureKind::kFloat: {
        std::vector<float> values;
        ThrowIfError(e.feature.AppendFloats(&values));
        const auto n = static_cast<py::ssize_t>(values.size());
        out[key] = OwningArray(&values, {n});
        break;
      }
      case FeatureKind::kBytes: {
        std::vector<std::string_view> values;
        ThrowIfError(e.feature.AppendBytes(&values));
        out[key] = BytesArray(values.size(), {static_cast<py::ssize_t>(values.size())},
                              [&values](size_t i) { return values[i]; });
        break;
      }
      case FeatureKind::kNone:
        out[key] = py::array(py::dtype("O"), std::vector<py::ssize_t>{0});
        break;
    }
  }
  return out;
}

void RegisterExampleCodec(py::module_& m) {
  m.def(
      "parse_example",
      [](py::buffer record) {
        py::buffer_info info = record.request();
        return ParseExampleToDict(
            std::string_view(static_cast<const char*>(info.ptr), static_cast<size_t>(info.size * info.itemsize)));
      },
      py::arg("record"));
  m.def(
      "encode_example",
      [](const py::dict& features) {
        ExampleEncoder encoder;
        std::string out;
        EncodeExampleDict(features, "encode_example", &encoder, &out);
        return py::bytes(out);
      },
      py::arg("features"));
}

}  // namespace tfq::python
