// RecordArena: records held in one fixed block of memory for sorting by shuffle key.
//
// The block is mapped once (anonymous memory: a page becomes resident only when first used)
// and holds two regions growing towards each other, so one byte budget covers records and
// index without knowing their number in advance:
//
//   [ entry entry entry ...  ->        free        <-  ... index index index ]
//   entry = u64 key | u64 payload size | payload      (the spill file format too)
//   index = { u64 key, u64 offset of the entry }      (16 bytes)
//
// A record of p payload bytes costs Cost(p) = p + 32 bytes. Entries are packed (keys and sizes
// are read with memcpy); the index is 16-byte aligned at the top of the block.
//
// Thread safety: none.
#ifndef TFQ_RESHARD_ARENA_H_
#define TFQ_RESHARD_ARENA_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "common/status.h"

namespace tfq::reshard {

constexpr uint64_t kEntryHeaderSize = 16;  // key + payload size, before each payload

class RecordArena {
 public:
  struct IndexEntry {
    uint64_t key;
    uint64_t offset;  // of the entry (its header) in the data region
  };

  // Maps `capacity` bytes of address space (rounded down to a multiple of 16).
  static Result<std::unique_ptr<RecordArena>> Create(uint64_t capacity);
  ~RecordArena();
  RecordArena(const RecordArena&) = delete;
  RecordArena& operator=(const RecordArena&) = delete;

  static uint64_t Cost(uint64_t payload) {
    return kEntryHeaderSize + payload + sizeof(IndexEntry);
  }
  uint64_t capacity() const { return capacity_; }
  uint64_t used() const { return data_end_ + count_ * sizeof(IndexEntry); }
  bool Fits(uint64_t payload) const { return used() + Cost(payload) <= capacity_; }

  // Appends a record; it must fit.
  void Add(uint64_t key, std::string_view payload);

  // Reading spill entries back: Extend(n) hands out the next n bytes of the data region (n must
  // leave room for the index of what they hold); IndexNew() then indexes the entries written
  // there since the last call, checking that they are whole (kInternal otherwise: the
  // temporary file was damaged).
  char* Extend(uint64_t n);
  Status IndexNew();

  // Sorts the index by key (keys are distinct: no ties to break).
  void SortByKey();
  size_t size() const { return count_; }
  // Index entries; after SortByKey, in key order.
  const IndexEntry& at(size_t i) const { return index_[i]; }
  // The whole entry (header + payload) and the payload of an index entry.
  std::string_view Entry(const IndexEntry& e) const;
  std::string_view Payload(const IndexEntry& e) const;

  // Forgets everything; keeps the pages resident for the next use.
  void Clear();
  // Forgets everything and returns the pages to the system (resident memory drops).
  void Release();

 private:
  RecordArena(char* block, uint64_t capacity) : capacity_(capacity), block_(block) {}

  const uint64_t capacity_;
  char* const block_;
  uint64_t data_end_ = 0;
  uint64_t indexed_end_ = 0;  // data bytes already indexed
  size_t count_ = 0;
  IndexEntry* index_ = nullptr;  // index_[0..count_) sits at the end of the block
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_ARENA_H_
