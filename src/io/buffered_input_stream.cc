#include "io/buffered_input_stream.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace tfq {

Status BufferedInputStream::Peek(size_t min_bytes, std::string_view* available) {
  Status s = Fill(min_bytes);
  *available = std::string_view(buffer_.get() + begin_, buffered());
  return s;
}

void BufferedInputStream::Consume(size_t n) {
  assert(n <= buffered());
  begin_ += n;
  position_ += n;
  // Free compaction, aligned; a pinned buffer keeps its bytes and is written on after them.
  if (begin_ == end_ && buffer_.use_count() <= 1) begin_ = end_ = position_ % kPageBytes;
}

Status BufferedInputStream::Skip(uint64_t n, uint64_t* skipped) {
  // Buffered bytes first, then whatever the source can skip without reading, then read the rest.
  uint64_t done = std::min<uint64_t>(buffered(), n);
  Consume(static_cast<size_t>(done));
  if (done < n && error_.ok() && !ended_) {
    const uint64_t jumped = SkipUnread(n - done);
    done += jumped;
    position_ += jumped;
  }
  Status s;
  while (done < n) {
    if (buffered() == 0) {
      s = Fill(1);
      if (!s.ok() || buffered() == 0) break;
    }
    size_t k = static_cast<size_t>(std::min<uint64_t>(buffered(), n - done));
    Consume(k);
    done += k;
  }
  *skipped = done;
  return s;
}

Status BufferedInputStream::Fill(size_t min_bytes) {
  // Bytes produced before an error are still handed out; the error comes when more are needed.
  if (buffered() >= min_bytes) return Status::OK();
  while (buffered() < min_bytes && !ended_ && error_.ok()) {
    Reserve(min_bytes);
    size_t produced = 0;
    error_ = Refill(buffer_.get() + end_, capacity_ - end_, &produced);
    if (!error_.ok()) break;
    if (produced == 0) ended_ = true;
    end_ += produced;
  }
  return error_;
}

void BufferedInputStream::MoveToNewBuffer(size_t capacity, size_t place) {
  std::shared_ptr<char> next = GetSharedPageBuffer(capacity);
  if (buffered() > 0) std::memcpy(next.get() + place, buffer_.get() + begin_, buffered());
  end_ = place + buffered();
  begin_ = place;
  buffer_ = std::move(next);
  capacity_ = capacity;
}

void BufferedInputStream::Reserve(size_t min_total) {
  // Byte i of the buffer sits at the same offset within a page as the source byte it holds
  // (common/page_buffer.h: the kernel's copy into a buffer misaligned with the file is several
  // times slower on some CPUs). `place` is where the first buffered byte belongs.
  const size_t place = static_cast<size_t>(position_ % kPageBytes);
  const bool pinned = buffer_ && buffer_.use_count() > 1;
  if (buffered() == 0 && !pinned) begin_ = end_ = place;  // after a skip
  const size_t want = std::max(chunk_, min_total);
  if (capacity_ < want + place) {
    // Grow to what is asked (plus the alignment): a one-off 100 MB record must not cost 200 MB.
    MoveToNewBuffer(want + kPageBytes, place);
    return;
  }
  // Compact when the request does not fit after begin_, or when the free tail is so small that
  // reads would shrink; the bytes moved are then few compared to the bytes read since. A pinned
  // buffer is not touched: the bytes move to another one instead.
  if (begin_ != place && (capacity_ - begin_ < min_total || capacity_ - end_ < capacity_ / 4)) {
    if (pinned) {
      MoveToNewBuffer(capacity_, place);
      return;
    }
    std::memmove(buffer_.get() + place, buffer_.get() + begin_, buffered());
    end_ = place + buffered();
    begin_ = place;
  }
}

}  // namespace tfq
