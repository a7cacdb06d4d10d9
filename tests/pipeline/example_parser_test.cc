// ExampleParser on hand-made records: the fast paths (packed int64 runs decoded in place, the
// key-order hint) give what the generic walk gives, and a malformed list is reported with its
// byte only when its feature is asked for (as TensorFlow's parser, which never decodes the rest).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "pipeline/batch.h"
#include "pipeline/example_parser.h"

namespace tfq::pipeline {
namespace {

// A varint, as protobuf writes it.
std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
  return out;
}

std::string LengthDelimited(uint32_t field, const std::string& payload) {
  return Varint((field << 3) | 2) + Varint(payload.size()) + payload;
}

// Example{features{feature{key: value}}} from a serialized Feature per key, in order.
std::string RawExample(const std::vector<std::pair<std::string, std::string>>& features) {
  std::string map;
  for (const auto& [key, feature] : features) {
    map += LengthDelimited(1, LengthDelimited(1, key) + LengthDelimited(2, feature));
  }
  return LengthDelimited(1, map);
}

std::string PackedInt64Feature(const std::string& run) {  // Feature{int64_list{value: [run]}}
  return LengthDelimited(3, LengthDelimited(1, run));
}

std::string UnpackedInt64Feature(const std::vector<uint64_t>& values) {
  std::string list;
  for (uint64_t v : values) list += Varint(1 << 3) + Varint(v);
  return LengthDelimited(3, list);
}

Status Parse(const std::vector<FeatureSpec>& specs, const std::string& record, Batch* batch) {
  internal::ResetBatch(specs, batch);
  ExampleParser parser(&specs);
  return parser.AppendRow(record, batch);
}

}  // namespace

TEST_CASE("packed int64 runs of every varint length decode as the generic walk does") {
  const std::vector<uint64_t> values = {0, 1, 127, 128, 300, 1ull << 35, ~0ull, 42};
  std::string run;
  for (uint64_t v : values) run += Varint(v);
  const std::vector<FeatureSpec> specs = {VarLenInt64("ids")};
  Batch packed, unpacked;
  REQUIRE(Parse(specs, RawExample({{"ids", PackedInt64Feature(run)}}), &packed).ok());
  REQUIRE(Parse(specs, RawExample({{"ids", UnpackedInt64Feature(values)}}), &unpacked).ok());
  std::vector<int64_t> expected(values.begin(), values.end());
  CHECK(packed.columns[0].int64_values == expected);
  CHECK(unpacked.columns[0].int64_values == expected);
  CHECK(packed.columns[0].row_splits == std::vector<int64_t>{0, 8});
}

TEST_CASE("a malformed list is an error naming its byte only when its feature is asked for") {
  // A packed run ending inside a varint; `good` parses.
  const std::string record = RawExample({{"bad", PackedInt64Feature(std::string("\x05\x80", 2))},
                                         {"good", PackedInt64Feature(Varint(7))}});
  Batch batch;
  SUBCASE("asked for") {
    const std::vector<FeatureSpec> specs = {VarLenInt64("good"), VarLenInt64("bad")};
    const Status s = Parse(specs, record, &batch);
    CHECK(s.code() == StatusCode::kCorruption);
    CHECK_MESSAGE(s.message().find("malformed varint in packed Int64List.value at byte") != std::string::npos,
                  s.message());
    // The row was rolled back: nothing of `good` stays either.
    CHECK(batch.columns[0].int64_values.empty());
    CHECK(batch.columns[0].row_splits == std::vector<int64_t>{0});
  }
  SUBCASE("not asked for") {
    const std::vector<FeatureSpec> specs = {VarLenInt64("good")};
    REQUIRE(Parse(specs, record, &batch).ok());
    CHECK(batch.columns[0].int64_values == std::vector<int64_t>{7});
  }
}

TEST_CASE("records listing their keys in different orders parse the same (the key hint)") {
  const std::vector<FeatureSpec> specs = {VarLenInt64("a"), VarLenInt64("b"), VarLenInt64("c")};
  Batch batch;
  internal::ResetBatch(specs, &batch);
  ExampleParser parser(&specs);
  const std::string abc = RawExample({{"a", PackedInt64Feature(Varint(1))},
                                      {"b", PackedInt64Feature(Varint(2))},
                                      {"c", PackedInt64Feature(Varint(3))}});
  const std::string cb = RawExample({{"c", PackedInt64Feature(Varint(30))},
                                     {"b", PackedInt64Feature(Varint(20))}});
  REQUIRE(parser.AppendRow(abc, &batch).ok());
  REQUIRE(parser.AppendRow(cb, &batch).ok());
  REQUIRE(parser.AppendRow(abc, &batch).ok());
  CHECK(batch.columns[0].int64_values == std::vector<int64_t>{1, 1});
  CHECK(batch.columns[1].int64_values == std::vector<int64_t>{2, 20, 2});
  CHECK(batch.columns[2].int64_values == std::vector<int64_t>{3, 30, 3});
  CHECK(batch.columns[0].row_splits == std::vector<int64_t>{0, 1, 1, 2});
}

}  // namespace tfq::pipeline
