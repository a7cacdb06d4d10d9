// The encoder: byte equality with Google's protobuf serializer, the streaming encoder, and
// decode(encode(x)) == x on seeded random messages.
//
// The expected bytes were produced with python3-protobuf 3.21 (C++ backend) and classes
// generated from /work/shared/oracle/proto/tfq_example.proto:
//   protoc -I /work/shared/oracle/proto --python_out=/tmp/pbgen tfq_example.proto
//   import tfq_example_pb2 as pb   # (with /tmp/pbgen on sys.path)
// Maps are serialized with deterministic=True (keys sorted), so the C++ values list their
// entries in sorted key order.
#include "example/example.h"

#include <cmath>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include "random_examples.h"
#include "wire_builder.h"

namespace tfq {
namespace {

using testing::Serialize;

using testing::FromHex;


// e = pb.Example(); f = e.features.feature
// f[""].int64_list.value.append(7)
// f["a"].int64_list.value.extend([1, -1, 0, 300, 2**63-1, -2**63])
// f["b"].float_list.value.extend([0.5, -2.25, float('inf'), -0.0])
// f["c"].bytes_list.value.extend([b"", b"hello", b"\xff\x00"])
// f["d"].SetInParent()                 # a Feature with no kind
// f["e"].int64_list.SetInParent()      # empty lists of each kind
// f["f"].float_list.SetInParent()
// f["g"].bytes_list.SetInParent()
// e.SerializeToString(deterministic=True).hex()
constexpr const char* kEveryKindHex =
    "0a8a010a090a0012051a030a01070a2a0a016112251a230a2101ffffffffffffffffff0100ac02ffffffffffffffff7f80"
    "8080808080808080010a190a0162121412120a100000003f000010c00000807f000000800a140a0163120f0a0d0a000a05"
    "68656c6c6f0a02ff000a050a016412000a070a016512021a000a070a0166120212000a070a016712020a00";

Example EveryKind() {
  Example e;
  e.features = {
      {"", Feature::Int64s({7})},
      {"a", Feature::Int64s({1, -1, 0, 300, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()})},
      {"b", Feature::Floats({0.5f, -2.25f, std::numeric_limits<float>::infinity(), -0.0f})},
      {"c", Feature::Bytes({"", "hello", std::string("\xff\x00", 2)})},
      {"d", Feature()},
      {"e", Feature::Int64s({})},
      {"f", Feature::Floats({})},
      {"g", Feature::Bytes({})},
  };
  return e;
}

TEST_CASE("an Example with every kind serializes byte for byte as protobuf does") {
  CHECK(Serialize(EveryKind()) == FromHex(kEveryKindHex));
}

TEST_CASE("presence of the features field") {
  Example none;
  none.has_features = false;
  CHECK(Serialize(none).empty());  // pb.Example().SerializeToString() == b""
  Example empty;                   // e = pb.Example(); e.features.SetInParent()
  CHECK(Serialize(empty) == FromHex("0a00"));
}

TEST_CASE("multi-byte lengths") {
  // e.features.feature["big"].bytes_list.value.append(bytes(range(200)))
  // e.features.feature["floats"].float_list.value.extend([i * 0.25 for i in range(40)])
  const std::string expected = FromHex(
      "0a8d030ad6010a0362696712ce010acb010ac801000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c"
      "1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d"
      "4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e"
      "7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
      "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c70ab1010a06666c6f61747312a60112a3010aa0010000000000"
      "00803e0000003f0000403f0000803f0000a03f0000c03f0000e03f0000004000001040000020400000304000004040000050"
      "400000604000007040000080400000884000009040000098400000a0400000a8400000b0400000b8400000c0400000c840"
      "0000d0400000d8400000e0400000e8400000f0400000f84000000041000004410000084100000c4100001041000014410000"
      "184100001c41");
  std::string big;
  for (int i = 0; i < 200; ++i) big.push_back(static_cast<char>(i));
  std::vector<float> floats;
  for (int i = 0; i < 40; ++i) floats.push_back(i * 0.25f);
  Example e;
  e.features = {{"big", Feature::Bytes({big})}, {"floats", Feature::Floats(floats)}};
  CHECK(Serialize(e) == expected);
}

TEST_CASE("a SequenceExample serializes byte for byte as protobuf does") {
  // s = pb.SequenceExample()
  // s.context.feature["len"].int64_list.value.append(2)
  // fl = s.feature_lists.feature_list
  // fl["tokens"].feature.add().bytes_list.value.extend([b"x", b"yz"])
  // fl["tokens"].feature.add()
  // fl["tokens"].feature.add().float_list.value.extend([1.0, 2.0])
  // fl["empty"].SetInParent()
  // s.SerializeToString(deterministic=True).hex()
  SequenceExample s;
  s.context = {{"len", Feature::Int64s({2})}};
  s.feature_lists = {{"empty", {}},
                     {"tokens", {Feature::Bytes({"x", "yz"}), Feature(), Feature::Floats({1.0f, 2.0f})}}};
  CHECK(Serialize(s) == FromHex("0a0e0a0c0a036c656e12051a030a010212320a090a05656d70747912000a250a06746f6b656e73121b"
                                "0a090a070a01780a02797a0a000a0c120a0a080000803f00000040"));
  SequenceExample lists_only;  // s = pb.SequenceExample(); s.feature_lists.SetInParent()
  lists_only.has_context = false;
  CHECK(Serialize(lists_only) == FromHex("1200"));
  SequenceExample context_only;  // s = pb.SequenceExample(); s.context.SetInParent()
  context_only.has_feature_lists = false;
  CHECK(Serialize(context_only) == FromHex("0a00"));
  SequenceExample nothing;
  nothing.has_context = nothing.has_feature_lists = false;
  CHECK(Serialize(nothing).empty());
}

TEST_CASE("SerializeFeature writes one Feature message") {
  std::string out = "prefix";
  SerializeFeature(Feature::Int64s({1}), &out);
  CHECK(out == "prefix" + FromHex("1a030a0101"));
  out.clear();
  SerializeFeature(Feature(), &out);
  CHECK(out.empty());
}

TEST_CASE("the streaming ExampleEncoder writes the same bytes as SerializeExample") {
  ExampleEncoder encoder;
  for (int round = 0; round < 2; ++round) {  // reuse after Clear
    encoder.Clear();
    const int64_t ints[] = {1, -1, 0, 300, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
    const float floats[] = {0.5f, -2.25f, std::numeric_limits<float>::infinity(), -0.0f};
    encoder.AddInt64("", 7);
    encoder.AddInt64s("a", ints, std::size(ints));
    encoder.AddFloats("b", floats, std::size(floats));
    const std::string nul("\xff\x00", 2);
    encoder.AddBytes("c", std::vector<std::string_view>{"", "hello", nul});
    encoder.AddEmpty("d", FeatureKind::kNone);
    encoder.AddEmpty("e", FeatureKind::kInt64);
    encoder.AddEmpty("f", FeatureKind::kFloat);
    encoder.AddEmpty("g", FeatureKind::kBytes);
    std::string out = "x";
    encoder.Finish(&out);
    CHECK(out == "x" + FromHex(kEveryKindHex));
  }
  encoder.Clear();
  encoder.AddBytes("s", "one");
  encoder.AddFloat("f", 1.5f);
  encoder.AddInt64s("empty", nullptr, 0);
  encoder.AddFloats("empty_f", nullptr, 0);
  std::string out;
  encoder.Finish(&out);
  Example e;
  e.features = {{"s", Feature::Bytes({"one"})}, {"f", Feature::Floats({1.5f})},
                {"empty", Feature::Int64s({})}, {"empty_f", Feature::Floats({})}};
  CHECK(out == Serialize(e));
  encoder.Clear();
  out.clear();
  encoder.Finish(&out);
  CHECK(out == FromHex("0a00"));
}

TEST_CASE("decode(encode(x)) == x for seeded random Examples") {
  testing::RandomExamples random(20240611, {.nan = false});
  ExampleView view;
  for (int i = 0; i < 2000; ++i) {
    const Example x = random.NextExample();
    const std::string bytes = Serialize(x);
    REQUIRE(view.Parse(bytes).ok());
    Example y;
    REQUIRE(ToExample(view, &y).ok());
    CHECK(y == x);
  }
}

TEST_CASE("decode(encode(x)) == x for seeded random SequenceExamples") {
  testing::RandomExamples random(7, {.nan = false});
  SequenceExampleView view;
  for (int i = 0; i < 1000; ++i) {
    const SequenceExample x = random.NextSequenceExample();
    const std::string bytes = Serialize(x);
    REQUIRE(view.Parse(bytes).ok());
    SequenceExample y;
    REQUIRE(ToSequenceExample(view, &y).ok());
    CHECK(y == x);
  }
}

TEST_CASE("NaN survives the wire bit for bit") {
  testing::RandomExamples random(99, {.nan = true});
  ExampleView view;
  for (int i = 0; i < 300; ++i) {
    const std::string bytes = Serialize(random.NextExample());
    REQUIRE(view.Parse(bytes).ok());
    Example y;
    REQUIRE(ToExample(view, &y).ok());
    CHECK(Serialize(y) == bytes);
  }
}

}  // namespace
}  // namespace tfq
