// ShuffleBuffer: tf.data's shuffle(buffer_size) algorithm.
//
// Fill the buffer with the first `capacity` elements; then, for each output, pick a uniformly
// random slot, emit its element and put the next input element in its place. When the input
// ends, the emptied slot is filled with the last element instead, and the buffer drains. With a
// capacity at least the input's size the result is a uniform permutation; smaller buffers only
// mix elements that are within about `capacity` positions of each other.
//
// Thread safety: none.
#ifndef TFQ_PIPELINE_SHUFFLE_BUFFER_H_
#define TFQ_PIPELINE_SHUFFLE_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "pipeline/random.h"

namespace tfq::pipeline {

template <typename T>
class ShuffleBuffer {
 public:
  // Memory grows with use, not with `capacity` (a large buffer over a small input stays small).
  explicit ShuffleBuffer(size_t capacity) : capacity_(capacity), rng_(0) {}

  // Empties the buffer and restarts the random sequence from `seed`.
  void Reset(uint64_t seed) {
    elements_.clear();
    rng_ = Rng(seed);
  }

  size_t size() const { return elements_.size(); }
  bool empty() const { return elements_.empty(); }
  bool full() const { return elements_.size() >= capacity_; }

  // While filling (not full).
  void Add(T element) { elements_.push_back(std::move(element)); }

  // Not empty. Removes a uniformly chosen element into *out; its slot takes *replacement (the
  // next input element) or, when there is none (nullptr), the last element. Returns the slot.
  size_t Take(T* out, T* replacement) {
    const size_t slot = static_cast<size_t>(rng_.Uniform(elements_.size()));
    *out = std::move(elements_[slot]);
    if (replacement != nullptr) {
      elements_[slot] = std::move(*replacement);
    } else {
      if (slot + 1 != elements_.size()) elements_[slot] = std::move(elements_.back());
      elements_.pop_back();
    }
    return slot;
  }

  // The generator's state, and a buffer put back as it was (elements in slot order).
  uint64_t rng_state() const { return rng_.state(); }
  void Restore(std::vector<T> elements, uint64_t rng_state) {
    elements_ = std::move(elements);
    rng_ = Rng(rng_state);
  }

 private:
  size_t capacity_;
  Rng rng_;
  std::vector<T> elements_;
};

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_SHUFFLE_BUFFER_H_
