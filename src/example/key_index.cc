// KeyIndex: first-appearance indexes for map keys (see example_view.h).
#include <functional>

#include "example/example_view.h"

namespace tfq::internal {

void KeyIndex::Clear() {
  keys_.clear();
  hashed_ = false;  // slots_ is refilled when next needed
}

void KeyIndex::Rehash(size_t slot_count) {
  slots_.assign(slot_count, 0);
  const size_t mask = slot_count - 1;
  for (size_t i = 0; i < keys_.size(); ++i) {
    size_t slot = std::hash<std::string_view>()(keys_[i]) & mask;
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = static_cast<uint32_t>(i + 1);
  }
  hashed_ = true;
}

size_t KeyIndex::Find(std::string_view key) const {
  if (!hashed_) {
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i] == key) return i;
    }
    return kNotFound;
  }
  const size_t mask = slots_.size() - 1;
  for (size_t slot = std::hash<std::string_view>()(key) & mask; slots_[slot] != 0; slot = (slot + 1) & mask) {
    if (keys_[slots_[slot] - 1] == key) return slots_[slot] - 1;
  }
  return kNotFound;
}

size_t KeyIndex::Insert(std::string_view key, bool* inserted) {
  if (!hashed_) {
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i] == key) {
        *inserted = false;
        return i;
      }
    }
    keys_.push_back(key);
    *inserted = true;
    if (keys_.size() > kLinearLimit) Rehash(kLinearLimit * 8);
    return keys_.size() - 1;
  }
  const size_t mask = slots_.size() - 1;
  size_t slot = std::hash<std::string_view>()(key) & mask;
  for (; slots_[slot] != 0; slot = (slot + 1) & mask) {
    const size_t i = slots_[slot] - 1;
    if (keys_[i] == key) {
      *inserted = false;
      return i;
    }
  }
  keys_.push_back(key);
  slots_[slot] = static_cast<uint32_t>(keys_.size());
  *inserted = true;
  if (keys_.size() * 2 > slots_.size()) Rehash(slots_.size() * 2);  // keep the load under 1/2
  return keys_.size() - 1;
}

}  // namespace tfq::internal
