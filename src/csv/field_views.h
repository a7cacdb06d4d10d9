// FieldViews: the growable array of field views a RowBatch holds, shaped for the parser's loop.
//
// Unlike std::vector, room is reserved once per 64-byte block of input (at most 64 fields end in
// it) and each field is then appended without a capacity check (Add), and growing neither
// value-initialises nor touches the new room, so capacity that is never written costs address
// space only. Thread safety: none.
#ifndef TFQ_CSV_FIELD_VIEWS_H_
#define TFQ_CSV_FIELD_VIEWS_H_

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <utility>

namespace tfq::csv {

class FieldViews {
 public:
  FieldViews() = default;
  FieldViews(FieldViews&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  FieldViews& operator=(FieldViews&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    return *this;
  }
  ~FieldViews() {
    if (data_) std::allocator<std::string_view>().deallocate(data_, capacity_);
  }

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  const std::string_view* data() const { return data_; }
  const std::string_view* begin() const { return data_; }
  const std::string_view* end() const { return data_ + size_; }
  const std::string_view& operator[](size_t i) const { return data_[i]; }

  void clear() { size_ = 0; }
  // Makes room for at least n more views (at least doubling, as a vector would).
  void Reserve(size_t n) {
    if (capacity_ - size_ < n) Grow(std::max(size_ + n, 2 * capacity_));
  }
  // Appends within room already reserved.
  void Add(std::string_view v) { new (data_ + size_++) std::string_view(v); }
  void push_back(std::string_view v) {
    Reserve(1);
    Add(v);
  }
  void pop_back() { --size_; }
  // Shrinks, or grows with empty views.
  void resize(size_t n) {
    Reserve(n > size_ ? n - size_ : 0);
    while (size_ < n) Add(std::string_view());
    size_ = n;
  }

 private:
  void Grow(size_t capacity) {
    std::allocator<std::string_view> alloc;
    std::string_view* bigger = alloc.allocate(capacity);
    if (size_ != 0) std::memcpy(static_cast<void*>(bigger), data_, size_ * sizeof(std::string_view));
    if (data_) alloc.deallocate(data_, capacity_);
    data_ = bigger;
    capacity_ = capacity;
  }

  std::string_view* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace tfq::csv

#endif  // TFQ_CSV_FIELD_VIEWS_H_
