// Records built in tests of the spec inference, formats and schema validation.
#ifndef TFQ_TESTS_INSPECT_SPEC_TEST_UTIL_H_
#define TFQ_TESTS_INSPECT_SPEC_TEST_UTIL_H_

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "example/example.h"
#include "inspect/spec_inference.h"

namespace tfq::inspect {

// Feeds each Example to a SpecBuilder through its serialized bytes, as the CLI does.
inline Result<InferredSpec> InferFrom(const std::vector<Example>& examples) {
  SpecBuilder builder;
  for (const Example& e : examples) {
    std::string bytes;
    SerializeExample(e, &bytes);
    ExampleView view;
    REQUIRE(view.Parse(bytes).ok());
    builder.AddExample(view);
  }
  return builder.Finish();
}

inline Result<InferredSpec> InferFromSequences(const std::vector<SequenceExample>& examples) {
  SpecBuilder builder;
  for (const SequenceExample& e : examples) {
    std::string bytes;
    SerializeSequenceExample(e, &bytes);
    SequenceExampleView view;
    REQUIRE(view.Parse(bytes).ok());
    builder.AddSequenceExample(view);
  }
  return builder.Finish();
}

}  // namespace tfq::inspect

#endif  // TFQ_TESTS_INSPECT_SPEC_TEST_UTIL_H_
