// CRC32Cs of long stretches of a stream, each in time independent of its length (internal to
// src/tfrecord: the resyncing reader's data-CRC check).
//
// A reader scanning past a bad header tries each plausible header it meets, and each claims a
// length: checking the claims one by one costs a CRC over each claimed record, and a file of fake
// headers whose lengths all reach its end makes that quadratic in the file's size. CrcCheckpoints
// keeps the running CRC32C at every kStep-th byte from a base position, computed once as the
// checks move forward; the CRC of any stretch is then its ends' few bytes plus two
// crc32c::Combine calls. Stretches must start at or after the previous one's start (checkpoints
// behind it are dropped), which a forward scan guarantees.
#ifndef TFQ_TFRECORD_CRC_CHECKPOINTS_H_
#define TFQ_TFRECORD_CRC_CHECKPOINTS_H_

#include <cstdint>
#include <deque>
#include <string_view>

namespace tfq::tfrecord {

class CrcCheckpoints {
 public:
  // Checkpoint spacing: a stretch costs up to 2 * kStep bytes of plain CRC at its ends; memory is
  // 4 bytes per kStep bytes between the oldest stretch start kept and the furthest end seen.
  static constexpr uint64_t kStep = 1024;

  // The (unmasked) CRC32C of the stream's bytes [begin, end). `view` holds the stream's bytes
  // from offset `at` on and covers [at, end); at <= begin <= end.
  uint32_t Crc(std::string_view view, uint64_t at, uint64_t begin, uint64_t end);

 private:
  uint64_t frontier() const { return base_ + (crcs_.size() - 1) * kStep; }

  uint64_t base_ = 0;          // stream offset of crcs_.front()
  std::deque<uint32_t> crcs_;  // crcs_[i]: CRC32C of [base_ - ..., base_ + i * kStep), see .cc
};

}  // namespace tfq::tfrecord

#endif  // TFQ_TFRECORD_CRC_CHECKPOINTS_H_
