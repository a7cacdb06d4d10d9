#include "reshard/arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "tfrecord/format.h"

namespace tfq::reshard {
Result<std::unique_ptr<RecordArena>> RecordArena::Create(uint64_t capacity) {
  capacity = capacity / 16 * 16;
  if (capacity == 0) return Status::InvalidArgument("the record arena needs some memory");
  // MAP_NORESERVE: only the pages actually used count, as the memory bound intends.
  void* p = mmap(nullptr, capacity, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    return Status::FromErrno("cannot reserve " + std::to_string(capacity) + " bytes of memory", errno);
  }
  return std::unique_ptr<RecordArena>(new RecordArena(static_cast<char*>(p), capacity));
}

RecordArena::~RecordArena() { munmap(block_, capacity_); }

void RecordArena::Add(uint64_t key, std::string_view payload) {
  char* entry = block_ + data_end_;
  const uint64_t size = payload.size();
  std::memcpy(entry, &key, 8);
  std::memcpy(entry + 8, &size, 8);
  std::memcpy(entry + kEntryHeaderSize, payload.data(), payload.size());
  ++count_;
  index_ = reinterpret_cast<IndexEntry*>(block_ + capacity_) - count_;
  index_[0] = {key, data_end_};
  data_end_ += kEntryHeaderSize + size;
  indexed_end_ = data_end_;
}

char* RecordArena::Extend(uint64_t n) {
  char* p = block_ + data_end_;
  data_end_ += n;
  return p;
}

Status RecordArena::IndexNew() {
  while (indexed_end_ < data_end_) {
    if (data_end_ - indexed_end_ < kEntryHeaderSize) break;
    const char* entry = block_ + indexed_end_;
    const uint64_t size = tfrecord::DecodeFixed64(entry + 8);
    if (size > data_end_ - indexed_end_ - kEntryHeaderSize) break;
    if (used() + sizeof(IndexEntry) > capacity_) {
      return Status::Internal("shuffle: a bucket outgrew its memory while being indexed");
    }
    ++count_;
    index_ = reinterpret_cast<IndexEntry*>(block_ + capacity_) - count_;
    index_[0] = {tfrecord::DecodeFixed64(entry), indexed_end_};
    indexed_end_ += kEntryHeaderSize + size;
  }
  if (indexed_end_ != data_end_) {
    return Status::Internal("shuffle: the temporary file holds a cut record (was it damaged?)");
  }
  return Status::OK();
}

void RecordArena::SortByKey() {
  std::sort(index_, index_ + count_,
            [](const IndexEntry& a, const IndexEntry& b) { return a.key < b.key; });
}

std::string_view RecordArena::Entry(const IndexEntry& e) const {
  return std::string_view(block_ + e.offset, kEntryHeaderSize + tfrecord::DecodeFixed64(block_ + e.offset + 8));
}

std::string_view RecordArena::Payload(const IndexEntry& e) const {
  return Entry(e).substr(kEntryHeaderSize);
}

void RecordArena::Clear() {
  data_end_ = indexed_end_ = 0;
  count_ = 0;
  index_ = nullptr;
}

void RecordArena::Release() {
  Clear();
  madvise(block_, capacity_, MADV_DONTNEED);  // anonymous pages: dropped, zero when next used
}

}  // namespace tfq::reshard
