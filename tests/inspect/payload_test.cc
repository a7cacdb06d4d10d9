// PayloadParser: Examples, SequenceExamples found without --sequence, and bytes that are neither.
#include "inspect/payload.h"

#include <doctest/doctest.h>

#include <string>

#include "example/example.h"

namespace tfq::inspect {
namespace {

std::string SerializedExample(int64_t id) {
  std::string out;
  SerializeExample(Example{{{"id", Feature::Int64s({id})}}}, &out);
  return out;
}

std::string SerializedSequence(int64_t id) {
  SequenceExample s;
  s.context = {{"id", Feature::Int64s({id})}};
  s.feature_lists = {{"tok", {Feature::Int64s({1, 2}), Feature::Int64s({3})}}};
  std::string out;
  SerializeSequenceExample(s, &out);
  return out;
}

TEST_CASE("Examples parse as Examples") {
  PayloadParser parser(/*sequence=*/false);
  REQUIRE(parser.Parse(SerializedExample(7)).ok());
  CHECK_FALSE(parser.sequence());
  CHECK_FALSE(parser.found_sequence());
  CHECK(parser.example().features().size() == 1);
  REQUIRE(parser.Parse("").ok());  // an empty record is an empty Example
  CHECK_FALSE(parser.example().has_features());
}

TEST_CASE("a SequenceExample without --sequence is found once and read whole from then on") {
  PayloadParser parser(/*sequence=*/false);
  REQUIRE(parser.Parse(SerializedExample(1)).ok());
  CHECK_FALSE(parser.sequence());
  REQUIRE(parser.Parse(SerializedSequence(2)).ok());
  CHECK(parser.sequence());
  CHECK(parser.found_sequence());
  REQUIRE(parser.sequence_example().feature_lists().size() == 1);
  CHECK(parser.sequence_example().feature_lists()[0].steps.size() == 2);
  CHECK(parser.sequence_example().context().size() == 1);
  // An Example after it reads as a SequenceExample with only a context; nothing is said again.
  REQUIRE(parser.Parse(SerializedExample(3)).ok());
  CHECK(parser.sequence());
  CHECK_FALSE(parser.found_sequence());
  CHECK(parser.sequence_example().context().size() == 1);
  CHECK(parser.sequence_example().feature_lists().empty());
}

TEST_CASE("with --sequence nothing is found: every record is a SequenceExample") {
  PayloadParser parser(/*sequence=*/true);
  REQUIRE(parser.Parse(SerializedSequence(1)).ok());
  CHECK_FALSE(parser.found_sequence());
  CHECK(parser.sequence_example().feature_lists().size() == 1);
}

TEST_CASE("bytes with neither features nor feature_lists are not an Example, though they parse") {
  for (bool sequence : {false, true}) {
    CAPTURE(sequence);
    PayloadParser parser(sequence);
    const std::string unknown_fields("\x18\x01\x22\x03" "abc", 7);  // fields 3 and 4
    Status s = parser.Parse(unknown_fields);
    CHECK(s.code() == StatusCode::kInvalidData);
    CHECK(s.message().find("not a tf.train.Example or SequenceExample") != std::string::npos);
    // A field 2 that is not length-delimited is no feature_lists either (for a SequenceExample
    // it is a wrong wire type: kCorruption).
    CHECK(parser.Parse(std::string("\x10\x07", 2)).code() ==
          (sequence ? StatusCode::kCorruption : StatusCode::kInvalidData));
    // Malformed bytes stay kCorruption, with the view's message.
    CHECK(parser.Parse(std::string("\x0a\x05" "ab", 4)).code() == StatusCode::kCorruption);
  }
}

}  // namespace
}  // namespace tfq::inspect
