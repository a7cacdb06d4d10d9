// The pipeline's seeded randomness: SplitMix64 and an unbiased bounded draw.
//
// std::mt19937_64 is portable but std::uniform_int_distribution and std::shuffle are not (each
// standard library maps bits to ranges its own way), and the project promises the same order for
// the same seed everywhere. So the whole mapping from seed to permutation is defined here.
#ifndef TFQ_PIPELINE_RANDOM_H_
#define TFQ_PIPELINE_RANDOM_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "common/random.h"

namespace tfq::pipeline {

// SplitMix64 (common/random.h) with the names the pipeline uses.
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  uint64_t Next() { return gen_.Next(); }
  // Uniform in [0, n) for n >= 1, without modulo bias.
  uint64_t Uniform(uint64_t n) { return gen_.Below(n); }
  // The generator's whole state: Rng(state()) continues with the same numbers.
  uint64_t state() const { return gen_.state(); }

 private:
  SplitMix64 gen_;
};

// Independent seeds for independent uses of one user seed (file order, shuffle buffer) and for
// each epoch: hashing keeps nearby inputs (seed 1 epoch 2, seed 2 epoch 1) unrelated.
inline uint64_t DeriveSeed(uint64_t seed, uint64_t stream, uint64_t epoch) {
  Rng rng(seed ^ (stream * 0xd1b54a32d192ed03ULL));
  rng.Next();
  Rng mixed(rng.Next() ^ (epoch * 0x8cb92ba72f3d8dd7ULL));
  return mixed.Next();
}

// Fisher-Yates: every permutation equally likely.
template <typename T>
void ShuffleVector(std::vector<T>* v, Rng* rng) {
  for (size_t i = v->size(); i > 1; --i) {
    const size_t j = static_cast<size_t>(rng->Uniform(i));
    if (j != i - 1) std::swap((*v)[i - 1], (*v)[j]);
  }
}

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_RANDOM_H_
