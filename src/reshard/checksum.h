// RecordChecksum: an order-independent fingerprint of a set of records, the proof behind
// `tfq shard` and `tfq shuffle` that every record read was written exactly once.
//
// Each record's payload is hashed to 64 bits (RecordHash) and the hashes are summed mod 2^64,
// together with the count. A sum, unlike XOR, does not cancel a duplicated record; a lost, added,
// duplicated or altered record changes the sum unless two hashes collide in a way that cancels
// (probability about 2^-64 per change for non-adversarial data). The framing's CRC32C is not
// used: 32 bits and a linear code are too weak for sums over billions of records.
//
// RecordHash is tfq's own multiply-fold hash: four independent 64-bit lanes over 64-byte blocks
// (so the multiplier is kept busy), each lane step folding a 128-bit product of state and data,
// then a final avalanche. It is not a cryptographic hash: it detects accidents (lost or doubled
// records, disk corruption, bugs), not forgery. Its values are part of tfq's output (summaries,
// --json), so they must never change: tests pin them.
//
// Thread safety: RecordHash is a pure function; a RecordChecksum is used by one thread at a time
// (combine per-thread checksums with Merge).
#ifndef TFQ_RESHARD_CHECKSUM_H_
#define TFQ_RESHARD_CHECKSUM_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace tfq::reshard {

uint64_t RecordHash(std::string_view record);

class RecordChecksum {
 public:
  void Add(std::string_view record) { AddHash(RecordHash(record)); }
  // For a record whose RecordHash is already known.
  void AddHash(uint64_t hash) {
    sum_ += hash;
    ++count_;
  }
  void Merge(const RecordChecksum& other) {
    sum_ += other.sum_;
    count_ += other.count_;
  }

  uint64_t count() const { return count_; }
  uint64_t sum() const { return sum_; }
  // "0x0123456789abcdef": the sum as printed in summaries.
  std::string Hex() const;

  friend bool operator==(const RecordChecksum&, const RecordChecksum&) = default;

 private:
  uint64_t sum_ = 0;
  uint64_t count_ = 0;
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_CHECKSUM_H_
