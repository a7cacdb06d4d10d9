// StatsBuilder and SchemaBuilder against statistics computed here another way (two-pass mean and
// variance, plain counting) from generated records.
#include "inspect/feature_stats.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "example/example.h"
#include "inspect/schema.h"

namespace tfq::inspect {
namespace {

// Parses each serialized record and feeds both builders.
struct Fed {
  StatsBuilder stats;
  SchemaBuilder schema;
  explicit Fed(StatsOptions options, size_t max_features = kDefaultMaxFeatures)
      : stats(options), schema(max_features) {}
  void Add(const Example& example) {
    std::string bytes;
    SerializeExample(example, &bytes);
    ExampleView view;
    REQUIRE(view.Parse(bytes).ok());
    stats.AddExample(view);
    schema.AddExample(view);
  }
};

// What the values of one numeric feature should give, computed in two passes.
struct Expected {
  std::vector<double> finite;
  uint64_t nans = 0, infinities = 0, zeros = 0;
  void Add(double v) {
    if (std::isnan(v)) ++nans;
    else if (std::isinf(v)) ++infinities;
    else {
      finite.push_back(v);
      if (v == 0) ++zeros;
    }
  }
  double Mean() const {
    double sum = 0;
    for (double v : finite) sum += v;
    return sum / static_cast<double>(finite.size());
  }
  double Stddev() const {
    const double mean = Mean();
    double squares = 0;
    for (double v : finite) squares += (v - mean) * (v - mean);
    return std::sqrt(squares / static_cast<double>(finite.size()));
  }
};

std::string Bucket(size_t n) {
  if (n == 0) return "0";
  if (n == 1) return "1";
  size_t lo = 1;
  while (lo * 2 <= n && lo < 1024) lo *= 2;
  return lo >= 1024 ? ">=1024" : std::to_string(lo) + "-" + std::to_string(2 * lo - 1);
}

TEST_CASE("--stats of generated records match statistics computed independently") {
  std::mt19937 rng(11);
  const int kRecords = 500;
  Fed fed(StatsOptions{});
  Expected floats, ints;
  std::map<std::string, uint64_t> float_histogram, ints_histogram;
  std::map<std::string, uint64_t> word_counts;
  uint64_t ints_present = 0, words = 0, word_bytes = 0, jpegs = 0;
  uint64_t min_len = std::numeric_limits<uint64_t>::max(), max_len = 0;
  uint64_t ints_min_count = std::numeric_limits<uint64_t>::max(), ints_max_count = 0, ints_total = 0;
  const std::vector<std::string> vocabulary = {"cat", "dog", "emu", "yak", "", "gnu"};
  for (int r = 0; r < kRecords; ++r) {
    Example e;
    // "x": always 1-3 floats, now and then a NaN, an infinity or a zero.
    std::vector<float> xs(1 + rng() % 3);
    for (float& x : xs) {
      const unsigned pick = rng() % 40;
      x = pick == 0   ? std::numeric_limits<float>::quiet_NaN()
          : pick == 1 ? -std::numeric_limits<float>::infinity()
          : pick == 2 ? 0.0f
                      : static_cast<float>(static_cast<int>(rng() % 20001) - 10000) / 64.0f;
      floats.Add(x);
    }
    ++float_histogram[Bucket(xs.size())];
    e.features.emplace_back("x", Feature::Floats(xs));
    // "n": in about two records of three, 0-9 int64s.
    if (rng() % 3 != 0) {
      std::vector<int64_t> ns(rng() % 10);
      for (int64_t& n : ns) {
        n = static_cast<int64_t>(rng() % 1000) - 500;
        ints.Add(static_cast<double>(n));
      }
      ++ints_present;
      ++ints_histogram[Bucket(ns.size())];
      ints_min_count = std::min<uint64_t>(ints_min_count, ns.size());
      ints_max_count = std::max<uint64_t>(ints_max_count, ns.size());
      ints_total += ns.size();
      e.features.emplace_back("n", Feature::Int64s(ns));
    }
    // "w": one word, or a JPEG's first bytes (counted as an image, not as a top value).
    std::string w = rng() % 10 == 0 ? std::string("\xFF\xD8\xFF\xE0 jpeg", 9)
                                    : vocabulary[rng() % vocabulary.size()];
    if (w.size() == 9) ++jpegs;
    else ++word_counts[w];
    ++words;
    word_bytes += w.size();
    min_len = std::min<uint64_t>(min_len, w.size());
    max_len = std::max<uint64_t>(max_len, w.size());
    e.features.emplace_back("w", Feature::Bytes({w}));
    fed.Add(e);
  }

  const nlohmann::json j = fed.stats.ToJson();
  CHECK(j["records"] == kRecords);
  const auto& x = j["features"]["x"];
  CHECK(x["present_in"] == kRecords);
  CHECK(x["missing"] == 0);
  CHECK(x["numeric"]["count"] == floats.finite.size() + floats.nans + floats.infinities);
  CHECK(x["numeric"]["nan"] == floats.nans);
  CHECK(x["numeric"]["infinite"] == floats.infinities);
  CHECK(x["numeric"]["zeros"] == floats.zeros);
  CHECK(x["numeric"]["min"].get<double>() == *std::min_element(floats.finite.begin(), floats.finite.end()));
  CHECK(x["numeric"]["max"].get<double>() == *std::max_element(floats.finite.begin(), floats.finite.end()));
  CHECK(x["numeric"]["mean"].get<double>() == doctest::Approx(floats.Mean()).epsilon(1e-9));
  CHECK(x["numeric"]["stddev"].get<double>() == doctest::Approx(floats.Stddev()).epsilon(1e-9));
  for (const auto& [bucket, n] : float_histogram) CHECK(x["values_per_record_histogram"][bucket] == n);

  const auto& n = j["features"]["n"];
  CHECK(n["present_in"] == ints_present);
  CHECK(n["missing"] == kRecords - ints_present);
  CHECK(n["numeric"]["count"] == ints.finite.size());
  CHECK(n["numeric"]["zeros"] == ints.zeros);
  CHECK(n["numeric"]["mean"].get<double>() == doctest::Approx(ints.Mean()).epsilon(1e-9));
  CHECK(n["numeric"]["stddev"].get<double>() == doctest::Approx(ints.Stddev()).epsilon(1e-9));
  CHECK(n["values_per_record_histogram"].size() == ints_histogram.size());
  for (const auto& [bucket, count] : ints_histogram) CHECK(n["values_per_record_histogram"][bucket] == count);

  const auto& w = j["features"]["w"]["bytes"];
  CHECK(w["count"] == words);
  CHECK(w["total_bytes"] == word_bytes);
  CHECK(w["min_length"] == min_len);
  CHECK(w["max_length"] == max_len);
  CHECK(w["mean_length"].get<double>() == doctest::Approx(static_cast<double>(word_bytes) / words));
  CHECK(w["image_formats"]["jpeg"] == jpegs);
  CHECK(w["top_values_exact"] == true);
  std::vector<std::pair<std::string, uint64_t>> top(word_counts.begin(), word_counts.end());
  std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  REQUIRE(w["top_values"].size() == top.size());
  for (size_t i = 0; i < top.size(); ++i) {
    CHECK(w["top_values"][i]["value"] == top[i].first);
    CHECK(w["top_values"][i]["count"] == top[i].second);
  }

  // The schema of the same records.
  const nlohmann::json s = fed.schema.ToJson(/*sequence=*/false)["features"];
  CHECK(s["n"]["present_in"] == ints_present);
  CHECK(s["n"]["min_count"] == ints_min_count);
  CHECK(s["n"]["max_count"] == ints_max_count);
  CHECK(s["n"]["total_values"] == ints_total);
  CHECK(s["x"]["kind"] == "float");
  CHECK(s["w"]["kind"] == "bytes");
  CHECK_FALSE(j.contains("features_over_cap"));
}

TEST_CASE("top values past the sketch's counters are upper bounds and say so") {
  StatsOptions options;
  options.sketch_counters = 4;
  options.top_k = 2;
  Fed fed(options);
  // "a" 50 times, "b" 30 times, then 20 distinct values once each.
  for (int i = 0; i < 50; ++i) fed.Add(Example{{{"s", Feature::Bytes({"a"})}}});
  for (int i = 0; i < 30; ++i) fed.Add(Example{{{"s", Feature::Bytes({"b"})}}});
  for (int i = 0; i < 20; ++i) fed.Add(Example{{{"s", Feature::Bytes({"u" + std::to_string(i)})}}});
  const nlohmann::json j = fed.stats.ToJson();
  const auto& bytes = j["features"]["s"]["bytes"];
  CHECK(bytes["top_values_exact"] == false);
  REQUIRE(bytes["top_values"].size() == 2);
  CHECK(bytes["top_values"][0]["value"] == "a");
  CHECK(bytes["top_values"][0]["count"] == 50);
  CHECK(bytes["top_values"][1]["value"] == "b");
  CHECK(bytes["top_values"][1]["count"] == 30);
}

TEST_CASE("the sketch keeps Space-Saving's guarantees on skewed streams with many rare values") {
  // Every count is an upper bound by at most N / counters, and every value seen more than
  // N / counters times is kept: what evicting a value of the smallest count guarantees.
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    StatsOptions options;
    options.sketch_counters = 16;
    options.top_k = 16;
    Fed fed(options);
    std::map<std::string, uint64_t> truth;
    const int n = 3000;
    for (int i = 0; i < n; ++i) {
      // About half the values from 8 frequent ones, the rest mostly distinct.
      const std::string v = rng() % 2 ? "f" + std::to_string(rng() % 8) : "r" + std::to_string(rng() % 2000);
      ++truth[v];
      fed.Add(Example{{{"s", Feature::Bytes({v})}}});
    }
    const nlohmann::json j = fed.stats.ToJson();
    const auto& top = j["features"]["s"]["bytes"]["top_values"];
    const uint64_t bound = n / options.sketch_counters;
    std::map<std::string, uint64_t> reported;
    for (const auto& e : top) reported[e["value"].get<std::string>()] = e["count"].get<uint64_t>();
    for (const auto& [value, count] : reported) {
      CHECK(count >= truth[value]);
      CHECK(count - truth[value] <= bound);
    }
    for (const auto& [value, count] : truth) {
      if (count > bound) CHECK_MESSAGE(reported.count(value) == 1, value, " seen ", count, " times");
    }
  }
}

TEST_CASE("feature names beyond --max-features are pooled, counted and reported") {
  StatsOptions options;
  options.max_features = 3;
  Fed fed(options, /*max_features=*/3);
  // 10 records, each with its own name holding the value i, and "shared" holding 1.
  for (int64_t i = 0; i < 10; ++i) {
    fed.Add(Example{{{"shared", Feature::Int64s({1})}, {"k" + std::to_string(i), Feature::Int64s({i})}}});
  }
  const nlohmann::json j = fed.stats.ToJson();
  CHECK(j["features"].size() == 3);  // "shared", "k0", "k1": the first three names met
  CHECK(j["features"].contains("shared"));
  CHECK(j["features"].contains("k0"));
  CHECK(j["features"].contains("k1"));
  const auto& over = j["features_over_cap"];
  CHECK(over["max_features"] == 3);
  CHECK(over["occurrences"] == 8);             // k2..k9
  CHECK(over["numeric"]["count"] == 8);
  CHECK(over["numeric"]["min"] == 2.0);
  CHECK(over["numeric"]["max"] == 9.0);
  CHECK(over["numeric"]["mean"].get<double>() == doctest::Approx(5.5));
  const nlohmann::json s = fed.schema.ToJson(/*sequence=*/false);
  CHECK(s["features"].size() == 3);
  CHECK(s["features_over_cap"]["occurrences"] == 8);
  CHECK(s["features_over_cap"]["total_values"] == 8);
  CHECK(fed.schema.capped_features().reached());
}

TEST_CASE("feature lists have their own cap") {
  StatsOptions options;
  options.max_features = 1;
  StatsBuilder stats(options);
  SchemaBuilder schema(1);
  for (int i = 0; i < 3; ++i) {
    SequenceExample e;
    e.context = {{"id", Feature::Int64s({i})}};
    e.feature_lists = {{"l" + std::to_string(i), {Feature::Int64s({1, 2}), Feature::Int64s({3})}}};
    std::string bytes;
    SerializeSequenceExample(e, &bytes);
    SequenceExampleView view;
    REQUIRE(view.Parse(bytes).ok());
    stats.AddSequenceExample(view);
    schema.AddSequenceExample(view);
  }
  const nlohmann::json j = stats.ToJson();
  CHECK(j["context"].size() == 1);
  CHECK_FALSE(j.contains("context_over_cap"));
  CHECK(j["feature_lists"].size() == 1);
  CHECK(j["feature_lists_over_cap"]["occurrences"] == 2);
  CHECK(j["feature_lists_over_cap"]["numeric"]["count"] == 6);  // 2 lists x 3 values
  const nlohmann::json s = schema.ToJson(/*sequence=*/true);
  CHECK(s["feature_lists_over_cap"]["occurrences"] == 2);
  CHECK(s["feature_lists_over_cap"]["present_in"] == 2);
}

}  // namespace
}  // namespace tfq::inspect

namespace tfq::inspect {
namespace {

// Records with a numeric feature, a string feature of `distinct` values and, every seventh
// record, a feature of its own.
std::vector<Example> MergeRecords(size_t n, int distinct) {
  std::mt19937 rng(5);
  std::vector<Example> records;
  for (size_t i = 0; i < n; ++i) {
    Example e;
    e.features.emplace_back("x", Feature::Floats({static_cast<float>(rng() % 1000) / 7.0f}));
    e.features.emplace_back("w", Feature::Bytes({"v" + std::to_string(rng() % distinct)}));
    if (i % 7 == 0) e.features.emplace_back("rare", Feature::Int64s({static_cast<int64_t>(i)}));
    records.push_back(std::move(e));
  }
  return records;
}

// Statistics of `records` cut after each index in `cuts`, merged in order.
nlohmann::json MergedStats(const std::vector<Example>& records, const std::vector<size_t>& cuts,
                           const StatsOptions& options) {
  Fed total(options);
  size_t begin = 0;
  std::vector<size_t> ends = cuts;
  ends.push_back(records.size());
  for (size_t end : ends) {
    Fed part(options);
    for (size_t i = begin; i < end; ++i) part.Add(records[i]);
    total.stats.Merge(part.stats);
    begin = end;
  }
  return total.stats.ToJson();
}

}  // namespace

TEST_CASE("merged statistics equal one pass's, up to rounding in mean and stddev") {
  const std::vector<Example> records = MergeRecords(3000, 200);
  StatsOptions options;
  const nlohmann::json one = MergedStats(records, {}, options);
  nlohmann::json merged = MergedStats(records, {1, 999, 1000, 2500}, options);
  for (const char* name : {"x"}) {
    const auto& a = one["features"][name]["numeric"];
    auto& b = merged["features"][name]["numeric"];
    CHECK(b["mean"].get<double>() == doctest::Approx(a["mean"].get<double>()).epsilon(1e-12));
    CHECK(b["stddev"].get<double>() == doctest::Approx(a["stddev"].get<double>()).epsilon(1e-12));
    b["mean"] = a["mean"];
    b["stddev"] = a["stddev"];
  }
  CHECK(merged == one);  // counts, extremes, histograms, exact top values, the rare feature
}

TEST_CASE("merged sketches past their counters keep the largest, as upper bounds, and say so") {
  const std::vector<Example> records = MergeRecords(4000, 400);
  StatsOptions options;
  options.sketch_counters = 100;
  options.top_k = 3;
  const nlohmann::json one = MergedStats(records, {}, options);
  const nlohmann::json merged = MergedStats(records, {1300, 2600}, options);
  const auto& bytes = merged["features"]["w"]["bytes"];
  CHECK_FALSE(bytes["top_values_exact"].get<bool>());
  std::map<std::string, uint64_t> truth;
  for (const Example& e : records) ++truth[e.features[1].second.bytes_list[0]];
  for (const auto& top : bytes["top_values"]) {
    CHECK(top["count"].get<uint64_t>() >= truth[top["value"].get<std::string>()]);
  }
  // The same cut gives the same answer every time.
  CHECK(MergedStats(records, {1300, 2600}, options) == merged);
  CHECK(one["features"]["w"]["bytes"]["count"] == bytes["count"]);
}

}  // namespace tfq::inspect

namespace tfq::inspect {

TEST_CASE("a merged schema pools the names past the cap with every occurrence, as one pass does") {
  auto example = [](const char* name) {
    Example e;
    e.features.emplace_back(name, Feature::Int64s({1}));
    return e;
  };
  Fed one({}, 2), first({}, 2), later({}, 2);
  for (const char* name : {"a", "b", "c", "c", "c"}) one.Add(example(name));
  for (const char* name : {"a", "b"}) first.Add(example(name));
  for (const char* name : {"c", "c", "c"}) later.Add(example(name));
  first.schema.Merge(later.schema);
  CHECK(first.schema.ToJson(false) == one.schema.ToJson(false));
  CHECK(first.schema.capped_features().other_occurrences() == 3);
}

}  // namespace tfq::inspect
