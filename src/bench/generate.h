// Synthetic data for `tfq bench` when no files are named: deterministic for a seed, so that two
// runs (and two machines) measure the same bytes.
#ifndef TFQ_BENCH_GENERATE_H_
#define TFQ_BENCH_GENERATE_H_

#include <cstdint>
#include <string>

namespace tfq::bench {

// SplitMix64: tiny, fast and good enough to make benchmark data; not for statistics.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (a slight modulo bias does not matter here).
  uint64_t Between(uint64_t lo, uint64_t hi) { return lo + Next() % (hi - lo + 1); }
  // Uniform in [0, 1).
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// Appends framed TFRecord records of serialized tf.Examples to *framed until it holds at least
// `bytes` bytes (at least one record). The records look like an image-classification dataset with
// a few tabular columns: an "image/encoded" payload of 1-8 KiB (half-compressible, so gzip has
// real work), size and label int64s, bounding-box float lists of varying length, a text field, an
// int64 id list and a 32-float embedding; about 5 KiB each.
void GenerateExampleRecords(uint64_t bytes, uint64_t seed, std::string* framed);

}  // namespace tfq::bench

#endif  // TFQ_BENCH_GENERATE_H_
