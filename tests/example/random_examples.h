// Seeded random Examples and SequenceExamples for round-trip tests: every kind, empty lists,
// kind-less Features, int64 extremes, float specials, non-UTF-8 and unicode bytes, empty keys;
// and the helpers the round-trip tests share.
#ifndef TFQ_TESTS_EXAMPLE_RANDOM_EXAMPLES_H_
#define TFQ_TESTS_EXAMPLE_RANDOM_EXAMPLES_H_

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "example/example.h"

namespace tfq::testing {

class RandomExamples {
 public:
  struct Options {
    bool nan = true;          // include NaN (only the canonical quiet NaN: JSON keeps no payload)
    bool utf8_keys = false;   // keys must be valid UTF-8 (the JSON forms)
  };
  RandomExamples(uint64_t seed, Options options) : rng_(seed), options_(options) {}

  Example NextExample() {
    Example e;
    e.has_features = Below(8) != 0;
    if (e.has_features) e.features = NextMap();
    return e;
  }

  SequenceExample NextSequenceExample() {
    SequenceExample s;
    s.has_context = Below(4) != 0;
    s.has_feature_lists = Below(4) != 0;
    if (s.has_context) s.context = NextMap();
    if (s.has_feature_lists) {
      std::set<std::string> used;
      for (size_t n = Below(5); n > 0; --n) {
        std::string key = UniqueKey(&used);
        std::vector<Feature> steps(Below(4));
        for (Feature& f : steps) f = NextFeature();
        s.feature_lists.emplace_back(std::move(key), std::move(steps));
      }
    }
    return s;
  }

  Feature NextFeature() {
    const size_t n = Below(4) == 0 ? 0 : Below(20);
    switch (Below(7)) {
      case 0:
        return Feature();  // no kind
      case 1:
      case 2: {
        std::vector<std::string> v(n);
        for (auto& s : v) s = NextBytes();
        return Feature::Bytes(std::move(v));
      }
      case 3:
      case 4: {
        std::vector<float> v(n);
        for (auto& f : v) f = NextFloat();
        return Feature::Floats(std::move(v));
      }
      default: {
        std::vector<int64_t> v(n);
        for (auto& i : v) i = NextInt64();
        return Feature::Int64s(std::move(v));
      }
    }
  }

  int64_t NextInt64() {
    static constexpr int64_t kSpecial[] = {0, 1, -1, 127, 128, -128, std::numeric_limits<int64_t>::min(),
                                           std::numeric_limits<int64_t>::max(), int64_t{1} << 53,
                                           (int64_t{1} << 53) + 1};
    if (Below(3) == 0) return kSpecial[Below(std::size(kSpecial))];
    return static_cast<int64_t>(rng_()) >> Below(64);
  }

  float NextFloat() {
    switch (Below(6)) {
      case 0: {
        static constexpr float kSpecial[] = {0.0f, -0.0f, 1.0f, 0.1f, 1e20f, 1e-45f,
                                             std::numeric_limits<float>::max(),
                                             std::numeric_limits<float>::min(),
                                             std::numeric_limits<float>::infinity(),
                                             -std::numeric_limits<float>::infinity()};
        return kSpecial[Below(std::size(kSpecial))];
      }
      case 1:
        if (options_.nan) return std::numeric_limits<float>::quiet_NaN();
        return 2.5f;
      case 2:
        return static_cast<float>(static_cast<int>(Below(2000)) - 1000);
      default: {  // any finite bit pattern
        uint32_t bits;
        float f;
        do {
          bits = static_cast<uint32_t>(rng_());
          std::memcpy(&f, &bits, 4);
        } while (!std::isfinite(f));
        return f;
      }
    }
  }

  std::string NextBytes() {
    static const char* kSamples[] = {"", "hello", "a\"quote\\back", "tab\tnew\nline", "caf\xc3\xa9",
                                     "\xe2\x82\xac 100", "\xf0\x9f\x98\x80", "\xff\xfe", "\xc3",
                                     "\xed\xa0\x80", "NaN", "Infinity", "nul\0in"};
    if (Below(2) == 0) {
      const size_t i = Below(std::size(kSamples));
      return i == std::size(kSamples) - 1 ? std::string("nul\0in", 6) : std::string(kSamples[i]);
    }
    std::string s(Below(12), '\0');
    for (char& c : s) c = static_cast<char>(rng_());
    return s;
  }

 private:
  size_t Below(size_t n) { return static_cast<size_t>(rng_() % n); }

  std::string UniqueKey(std::set<std::string>* used) {
    static const char* kKeys[] = {"", "a", "image/encoded", "label", "caf\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac",
                                  "with space", "q\"uote", "features", "feature", "context", "feature_lists",
                                  "base64"};
    for (;;) {
      std::string key;
      if (Below(2) == 0) {
        key = kKeys[Below(std::size(kKeys))];
      } else if (!options_.utf8_keys && Below(4) == 0) {
        key = NextBytes();
      } else {
        key = std::to_string(Below(1000));
        key.insert(key.begin(), 'k');  // gcc 12 warns of a false -Wrestrict for "k" + ... and = "k"
      }
      if (used->insert(key).second) return key;
    }
  }

  FeatureMap NextMap() {
    FeatureMap map;
    std::set<std::string> used;
    for (size_t n = Below(4) == 0 ? Below(40) : Below(6); n > 0; --n) {
      map.emplace_back(UniqueKey(&used), NextFeature());
    }
    return map;
  }

  std::mt19937_64 rng_;
  Options options_;
};

inline std::string Serialize(const Example& e) {
  std::string out;
  SerializeExample(e, &out);
  return out;
}
inline std::string Serialize(const SequenceExample& s) {
  std::string out;
  SerializeSequenceExample(s, &out);
  return out;
}

inline float FromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// What the flat JSON form keeps of a Feature (docs/json-forms.md, "What flat loses"): all of it,
// except that a Feature with no kind prints [] and reads back as an empty bytes list. (Empty int64
// and float lists, and float lists of only non-finite values, print as typed lists,
// {"int64":[]}, {"float":["NaN"]}, and come back.)
inline Feature FlatImage(const Feature& f) {
  if (f.kind == FeatureKind::kNone) return Feature::Bytes({});
  return f;
}

}  // namespace tfq::testing

#endif  // TFQ_TESTS_EXAMPLE_RANDOM_EXAMPLES_H_
