// ByteBuffer: a growable byte array for hot append loops.
//
// Unlike std::string, growing never zero-fills, and a writer that knows a bound on what it will
// append asks for that much room once (Reserve), writes through the returned pointer and then
// says how much it wrote (CommitTo): one compare per append instead of a capacity check, a
// length update and a terminator per small write.
//
// Pointers returned by Reserve are valid until the next Reserve, Append or destruction. Thread
// safety: none.
#ifndef TFQ_COMMON_BYTE_BUFFER_H_
#define TFQ_COMMON_BYTE_BUFFER_H_

#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>

namespace tfq {

class ByteBuffer {
 public:
  char* data() { return data_.get(); }
  const char* data() const { return data_.get(); }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  std::string_view view() const { return {data_.get(), size_}; }
  void clear() { size_ = 0; }

  // Makes room for at least n more bytes and returns where they go (the current end).
  char* Reserve(size_t n) {
    if (capacity_ - size_ < n) Grow(n);
    return data_.get() + size_;
  }
  // Ends the buffer at `end`, a pointer into the room of the last Reserve (or an earlier point).
  void CommitTo(const char* end) { size_ = static_cast<size_t>(end - data_.get()); }
  void Append(const void* p, size_t n) {
    char* dst = Reserve(n);
    if (n != 0) std::memcpy(dst, p, n);
    size_ += n;
  }

 private:
  void Grow(size_t n) {
    size_t capacity = capacity_ < 4096 ? 4096 : 2 * capacity_;
    if (capacity - size_ < n) capacity = size_ + n;
    std::unique_ptr<char[]> bigger(new char[capacity]);
    if (size_ != 0) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = capacity;
  }

  std::unique_ptr<char[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace tfq

#endif  // TFQ_COMMON_BYTE_BUFFER_H_
