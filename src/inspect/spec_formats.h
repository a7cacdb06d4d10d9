// An inferred spec (spec_inference.h) written as the feature description a reader of the records
// takes: `tfq inspect --spec FORMAT` (docs/specs.md shows each for one corpus file).
//
//   tf    Python source: `features = {...}` of tf.io.FixedLenFeature / tf.io.RaggedFeature for
//         tf.io.parse_example, or for SequenceExamples `context_features` and `sequence_features`
//         (FixedLenSequenceFeature / RaggedFeature) for tf.io.parse_sequence_example;
//   tfq   Python source: `features = {...}` of tfq.FixedLen / tfq.VarLen (docs/python.md);
//   dali  Python source: `features = {...}` of tfrec.FixedLenFeature / tfrec.VarLenFeature for
//         nvidia.dali.fn.readers.tfrecord;
//   tfds  JSON: a features.json (a FeaturesDict of tfds.features.Tensor) for
//         tfds.builder_from_directory;
//   tfdv  protobuf text: a tensorflow_metadata Schema (tfdv_schema.h writes it).
// tfq, dali and tfds read tf.train.Example only: a SequenceExample spec is kInvalidData for them.
// A feature name that is not valid UTF-8 cannot be a Python str key or a JSON key: kInvalidData.
#ifndef TFQ_INSPECT_SPEC_FORMATS_H_
#define TFQ_INSPECT_SPEC_FORMATS_H_

#include <string>
#include <string_view>

#include "common/status.h"
#include "inspect/spec_inference.h"

namespace tfq::inspect {

enum class SpecFormat { kTf, kTfq, kTfdv, kDali, kTfds };

// "tf", "tfq", "tfdv", "dali", "tfds"; anything else is kInvalidArgument listing them.
Result<SpecFormat> ParseSpecFormat(std::string_view name);

// The whole text to print, ending in a newline.
Result<std::string> FormatSpec(const InferredSpec& spec, SpecFormat format);

// `s` as a double-quoted Python string literal (valid UTF-8 expected; quotes, backslashes and
// control characters escaped).
std::string PythonStringLiteral(std::string_view s);

}  // namespace tfq::inspect

#endif  // TFQ_INSPECT_SPEC_FORMATS_H_
