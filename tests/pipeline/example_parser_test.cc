// ExampleParser on hand-made and random records: the fast paths (the one-pass direct decoder,
// packed int64 runs decoded in place, the key-order hint) give what the full decoder gives,
// errors included, and a malformed list is reported with its byte only when its feature is asked
// for (as TensorFlow's parser, which never decodes the rest).
#include <doctest/doctest.h>

#include <cstring>
#include <deque>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../example/random_examples.h"
#include "example/wire_format.h"
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

namespace {

// Everything a row put in the columns, as text (floats by their bits: NaN included).
std::string Dump(const Batch& batch) {
  std::string out;
  for (const Column& c : batch.columns) {
    out += c.key + ":";
    for (int64_t v : c.int64_values) out += " i" + std::to_string(v);
    for (float v : c.float_values) {
      uint32_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      out += " f" + std::to_string(bits);
    }
    for (size_t i = 0; c.dtype == DType::kBytes && i < c.num_values(); ++i) {
      out += " b" + std::to_string(c.bytes_value(i).size()) + "=" + std::string(c.bytes_value(i));
    }
    for (int64_t v : c.row_splits) out += " s" + std::to_string(v);
    out += "\n";
  }
  return out;
}

}  // namespace

// The direct decoder takes the layout every serializer writes; the same Example with an unknown
// field after it, written twice, or with every map entry twice (protobuf merges: every key's last
// entry wins, so the same Example), takes the full decoder. Rows, errors and the columns after an error must not differ.
TEST_CASE("the direct decoder and the full decoder give the same rows and the same errors") {
  const std::vector<FeatureSpec> specs = {
      VarLenInt64("label"),  VarLenFloat("a"), VarLenBytes("image/encoded", BytesLayout::kViews),
      VarLenBytes("k1"),     FixedLenInt64("k2", 2, {7}), FixedLenFloat("k3", 1, {0.5f}),
      VarLenBytes("feature", BytesLayout::kBlob), VarLenInt64("")};
  tfq::testing::RandomExamples random(42, {});
  std::mt19937 coin(7);
  ExampleParser direct_parser(&specs), full_parser(&specs);
  Batch direct, full;
  internal::ResetBatch(specs, &direct);
  internal::ResetBatch(specs, &full);
  size_t rows = 0, errors = 0;
  std::deque<std::string> kept;
  for (int i = 0; i < 3000; ++i) {
    Example e = random.NextExample();
    // Give the spec keys a fair chance to appear, with random kinds and lengths.
    if (i % 2 == 0) {
      e.has_features = true;
      for (const char* key : {"label", "a", "k2", "k3", "k1"}) {
        if (coin() % 2 == 0) e.features.emplace_back(key, random.NextFeature());
      }
      std::set<std::string> seen;  // keep the last entry of each key, as a map would
      FeatureMap unique;
      for (auto it = e.features.rbegin(); it != e.features.rend(); ++it) {
        if (seen.insert(it->first).second) unique.insert(unique.begin(), *it);
      }
      e.features = std::move(unique);
    }
    // Kept: the kViews column points into the records.
    const std::string& record = kept.emplace_back(tfq::testing::Serialize(e));
    const std::string& unknown_field = kept.emplace_back(record + std::string("\x78\x00", 2));
    const std::string& twice = kept.emplace_back(record + record);
    // Every map entry twice within one `features`: the layout the direct decoder reads, until it
    // meets a spec key the second time.
    std::string map;
    if (!record.empty()) {
      uint64_t length = 0;
      const char* p = wire::DecodeLength(record.data() + 1, record.data() + record.size(), &length);
      REQUIRE(p != nullptr);
      map.assign(p, length);
    }
    const std::string& entries_twice = kept.emplace_back(LengthDelimited(1, map + map));
    for (const std::string* variant : {&unknown_field, &twice, &entries_twice}) {
      CAPTURE(i);
      const Status a = direct_parser.AppendRow(record, &direct);
      const Status b = full_parser.AppendRow(*variant, &full);
      REQUIRE(a.code() == b.code());
      REQUIRE(a.message() == b.message());
      if (a.ok()) {
        ++rows;
      } else {
        ++errors;
      }
    }
    // The columns hold every row so far: compared now and then, and at the end.
    if (i % 250 == 249) REQUIRE(Dump(direct) == Dump(full));
  }
  // Both outcomes were exercised, and the variants really took the other decoder (a record that
  // the direct decoder takes never ends in an unknown field or repeats its `features`).
  CHECK(rows > 500);
  CHECK(errors > 500);
}

}  // namespace tfq::pipeline
