// KeyedExampleEncoder writes the same bytes as ExampleEncoder (itself pinned against protobuf's
// serializer in example_encoder_test.cc) for every kind of feature, whatever the key lengths and
// value sizes, including the lengths where a varint grows a byte and records where the guessed
// head size is wrong.
#include "example/keyed_encoder.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "example/example.h"

namespace tfq {
namespace {

// One feature of a record, as both encoders are asked to write it.
struct Value {
  int what = 0;  // 0 int64, 1 float, 2 bytes, 3 int64 list, 4 float list, 5 bytes list, 6 empty
  FeatureKind empty_kind = FeatureKind::kNone;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::vector<std::string> strings;
};

std::string Reference(const std::vector<std::string>& keys, const std::vector<Value>& values) {
  ExampleEncoder enc;
  enc.Clear();
  for (size_t i = 0; i < keys.size(); ++i) {
    const Value& v = values[i];
    std::vector<std::string_view> views(v.strings.begin(), v.strings.end());
    switch (v.what) {
      case 0: case 3: enc.AddInt64s(keys[i], v.ints.data(), v.ints.size()); break;
      case 1: case 4: enc.AddFloats(keys[i], v.floats.data(), v.floats.size()); break;
      case 2: case 5: enc.AddBytes(keys[i], views); break;
      default: enc.AddEmpty(keys[i], v.empty_kind); break;
    }
  }
  std::string out;
  enc.Finish(&out);
  return out;
}

std::string Keyed(KeyedExampleEncoder& enc, const std::vector<Value>& values) {
  size_t room = KeyedExampleEncoder::kRecordRoom;
  for (size_t i = 0; i < values.size(); ++i) {
    room += enc.FeatureRoom(i) + 10 * values[i].ints.size() + 4 * values[i].floats.size();
    for (const std::string& s : values[i].strings) room += 11 + s.size();
  }
  std::string buf(room, '\xee');
  char* const begin = buf.data();
  char* p = enc.BeginRecord(begin);
  for (size_t i = 0; i < values.size(); ++i) {
    const Value& v = values[i];
    std::vector<std::string_view> views(v.strings.begin(), v.strings.end());
    switch (v.what) {
      case 0: p = enc.Int64(i, v.ints[0], p); break;
      case 1: p = enc.Float(i, v.floats[0], p); break;
      case 2: p = enc.Bytes(i, v.strings[0], p); break;
      case 3: p = enc.Int64s(i, v.ints, p); break;
      case 4: p = enc.Floats(i, v.floats, p); break;
      case 5: p = enc.BytesList(i, views, p); break;
      default: p = enc.Empty(i, v.empty_kind, p); break;
    }
  }
  char* end = enc.EndRecord(begin, p);
  REQUIRE(static_cast<size_t>(end - begin) <= room);
  return std::string(begin, end);
}

int64_t RandomInt(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: return static_cast<int64_t>(rng() % 128);
    case 1: return static_cast<int64_t>(rng() % 20000);  // one and two varint bytes, and three
    case 2: return -static_cast<int64_t>(rng() % 1000);  // ten varint bytes
    case 3: return std::numeric_limits<int64_t>::min();
    case 4: return std::numeric_limits<int64_t>::max();
    default: return static_cast<int64_t>(rng());
  }
}

std::string RandomString(std::mt19937_64& rng) {
  static const size_t kSizes[] = {0, 1, 3, 7, 8, 15, 16, 17, 31, 32, 33, 100, 110, 117, 118, 119, 120, 127, 128, 300, 20000};
  std::string s(kSizes[rng() % std::size(kSizes)], 'x');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

TEST_CASE("keyed records equal ExampleEncoder's, feature by feature and record by record") {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::string> keys;
    const size_t nkeys = 1 + rng() % 8;
    for (size_t i = 0; i < nkeys; ++i) {
      static const size_t kKeySizes[] = {0, 1, 5, 30, 31, 32, 33, 100, 110, 111, 112, 120, 127, 200};
      keys.push_back(std::string(kKeySizes[rng() % std::size(kKeySizes)], static_cast<char>('a' + i)) +
                     std::to_string(i));
    }
    KeyedExampleEncoder enc(keys);
    for (int record = 0; record < 20; ++record) {  // the head-size guess changes between records
      std::vector<Value> values(nkeys);
      for (Value& v : values) {
        v.what = static_cast<int>(rng() % 7);
        const size_t n = v.what <= 2 ? 1 : rng() % 4 == 0 ? 0 : 1 + rng() % (rng() % 3 == 0 ? 200 : 5);
        for (size_t j = 0; j < n; ++j) {
          if (v.what == 0 || v.what == 3) v.ints.push_back(RandomInt(rng));
          if (v.what == 1 || v.what == 4) v.floats.push_back(static_cast<float>(rng() % 1000) / 7.0f);
          if (v.what == 2 || v.what == 5) v.strings.push_back(RandomString(rng));
        }
        v.empty_kind = static_cast<FeatureKind>(rng() % 4);
      }
      INFO("trial ", trial, " record ", record);
      CHECK(Keyed(enc, values) == Reference(keys, values));
    }
  }
}

TEST_CASE("a record with no keys is an empty features message") {
  KeyedExampleEncoder enc(std::vector<std::string>{});
  CHECK(Keyed(enc, {}) == Reference({}, {}));
  CHECK(Keyed(enc, {}) == std::string("\x0a\x00", 2));
}

}  // namespace
}  // namespace tfq
