// tf.train.Example <-> Python: a serialized Example as a dict of NumPy arrays (parse_example),
// and a dict of Python values as a serialized Example (Writer.write, encode_example).
//
// Encoding picks each Feature's kind from the value (docs/python.md, "Writing"):
//   int, bool, NumPy integers and booleans       -> int64_list
//   float, NumPy floating point (as float32)     -> float_list
//   bytes, str (UTF-8)                           -> bytes_list
//   a list or tuple of one of these, or a NumPy array (flattened in C order) -> a list of that
//   kind; ints and floats mixed in one list are floats; an empty list is a Feature with no kind
//   (read back as an empty list of any dtype).
// Anything else (None, a dict, ints mixed with bytes, a complex array) is a TypeError, an int
// outside int64 a ValueError; `where` ("out.tfrecord: record 7") starts their messages.
//
// Needs the GIL.
#ifndef TFQ_PYTHON_EXAMPLE_CODEC_H_
#define TFQ_PYTHON_EXAMPLE_CODEC_H_

#include <string>
#include <string_view>

#include <pybind11/pybind11.h>

#include "example/example.h"

namespace tfq::python {

// Appends the Example for `features` to *out (the encoder is cleared first).
void EncodeExampleDict(const pybind11::dict& features, const std::string& where,
                       ExampleEncoder* encoder, std::string* out);

// {key: array}: int64 and float32 arrays, object arrays of bytes; a Feature with no list set is
// an empty object array. Malformed bytes raise tfq.CorruptionError.
pybind11::dict ParseExampleToDict(std::string_view record);

void RegisterExampleCodec(pybind11::module_& m);

}  // namespace tfq::python

#endif  // TFQ_PYTHON_EXAMPLE_CODEC_H_
