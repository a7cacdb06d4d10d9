#include "tfrecord/crc_checkpoints.h"

#include "crc32c/crc32c.h"

namespace tfq::tfrecord {

// crcs_[i] is the running CRC32C from the position where the checkpoints were last started to
// base_ + i * kStep. Any start works: Combine(crc to c1, crc to c2, c2 - c1) is the CRC of
// [c1, c2) whatever the two have in common before c1.
uint32_t CrcCheckpoints::Crc(std::string_view view, uint64_t at, uint64_t begin, uint64_t end) {
  auto bytes = [&](uint64_t offset) { return view.data() + (offset - at); };  // offset >= at
  if (end - begin < 2 * kStep) return crc32c::Value(bytes(begin), end - begin);
  // The bytes before `at` are gone: checkpoints that stop short of it cannot be extended.
  if (crcs_.empty() || frontier() < at || base_ > begin) {
    base_ = at;
    crcs_.assign(1, 0);
  }
  while (base_ + kStep <= begin && crcs_.size() > 1) {  // behind every later stretch
    crcs_.pop_front();
    base_ += kStep;
  }
  const uint64_t first = (begin - base_ + kStep - 1) / kStep;  // first checkpoint at or after begin
  const uint64_t last = (end - base_) / kStep;                 // last one at or before end
  while (crcs_.size() <= last) {
    const uint64_t from = frontier();
    crcs_.push_back(crc32c::Extend(crcs_.back(), bytes(from), kStep));
  }
  const uint64_t c1 = base_ + first * kStep;
  const uint64_t c2 = base_ + last * kStep;
  const uint32_t head = crc32c::Value(bytes(begin), c1 - begin);
  const uint32_t middle = crc32c::Combine(crcs_[first], crcs_[last], c2 - c1);
  return crc32c::Extend(crc32c::Combine(head, middle, c2 - c1), bytes(c2), end - c2);
}

}  // namespace tfq::tfrecord
