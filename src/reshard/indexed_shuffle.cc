#include "reshard/indexed_shuffle.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <numeric>

#include "reshard/file_sink.h"

namespace tfq::reshard {
namespace {

// An anonymous mapping: pages become resident only as runs fill them.
class RunBuffer {
 public:
  explicit RunBuffer(uint64_t size) : size_(size) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    data_ = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
  }
  ~RunBuffer() {
    if (data_) munmap(data_, size_);
  }
  char* data() const { return data_; }

 private:
  const uint64_t size_;
  char* data_;
};

// One input open at a time: a run visits the files in order.
class FileCursor {
 public:
  explicit FileCursor(const std::vector<std::string>& paths) : paths_(paths) {}
  ~FileCursor() {
    if (fd_ >= 0) close(fd_);
  }
  Status ReadAt(uint32_t file, uint64_t offset, uint64_t size, char* dst) {
    if (file != file_ || fd_ < 0) {
      if (fd_ >= 0) close(fd_);
      file_ = file;
      do {
        fd_ = open(paths_[file].c_str(), O_RDONLY | O_CLOEXEC);
      } while (fd_ < 0 && errno == EINTR);
      if (fd_ < 0) return Status::FromErrno(paths_[file] + ": cannot open it again", errno);
      // Runs read scattered records: read-ahead would mostly fetch other runs' records.
      posix_fadvise(fd_, 0, 0, POSIX_FADV_RANDOM);
    }
    return ReadAllAt(fd_, dst, size, offset, paths_[file]);
  }

 private:
  const std::vector<std::string>& paths_;
  uint32_t file_ = 0;
  int fd_ = -1;
};

}  // namespace

IndexedShuffle::IndexedShuffle(std::vector<std::string> paths, uint64_t memory,
                               uint64_t expected_records)
    : paths_(std::move(paths)), memory_(memory) {
  refs_.reserve(expected_records + expected_records / 16 + 16);
}

Status IndexedShuffle::Add(uint64_t key, uint32_t file, uint64_t payload_offset, uint64_t size) {
  if (size > memory_ / 2) {
    return Status::ResourceExhausted("a record of " + std::to_string(size) +
                                     " bytes does not fit in the memory for records; raise --memory");
  }
  refs_.push_back({key, payload_offset, static_cast<uint32_t>(size), file});
  return Status::OK();
}

Status IndexedShuffle::ReadRun(size_t begin, size_t end, char* buffer) {
  // Places in the buffer follow key order; reads follow file order.
  std::vector<uint64_t> place(end - begin);
  uint64_t at = 0;
  for (size_t i = begin; i < end; ++i) {
    place[i - begin] = at;
    at += refs_[i].size;
  }
  std::vector<uint32_t> order(end - begin);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const RecordRef& x = refs_[begin + a];
    const RecordRef& y = refs_[begin + b];
    return x.file != y.file ? x.file < y.file : x.offset < y.offset;
  });
  FileCursor cursor(paths_);
  for (uint32_t k : order) {
    const RecordRef& r = refs_[begin + k];
    TFQ_RETURN_IF_ERROR(cursor.ReadAt(r.file, r.offset, r.size, buffer + place[k]));
  }
  return Status::OK();
}

Status IndexedShuffle::Drain(const std::function<Status(std::string_view payload)>& emit) {
  std::sort(refs_.begin(), refs_.end(),
            [](const RecordRef& a, const RecordRef& b) { return a.key < b.key; });
  const uint64_t index_bytes = refs_.capacity() * sizeof(RecordRef);
  if (index_bytes >= memory_) {
    return Status::ResourceExhausted("the record index alone exceeds the memory budget");
  }
  const uint64_t capacity = memory_ - index_bytes;
  RunBuffer buffer(capacity);
  if (!buffer.data()) return Status::FromErrno("cannot reserve the shuffle's read buffer", errno);
  size_t begin = 0;
  while (begin < refs_.size()) {
    size_t end = begin;
    uint64_t bytes = 0;
    while (end < refs_.size() && bytes + refs_[end].size <= capacity) bytes += refs_[end++].size;
    if (end == begin) {
      return Status::ResourceExhausted("a record of " + std::to_string(refs_[begin].size) +
                                       " bytes does not fit in the memory left for records");
    }
    ++runs_;
    TFQ_RETURN_IF_ERROR(ReadRun(begin, end, buffer.data()));
    const char* p = buffer.data();
    for (size_t i = begin; i < end; ++i) {
      TFQ_RETURN_IF_ERROR(emit(std::string_view(p, refs_[i].size)));
      p += refs_[i].size;
    }
    begin = end;
  }
  return Status::OK();
}

}  // namespace tfq::reshard
