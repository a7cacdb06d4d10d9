// SpillFile: the one temporary file of a bucket shuffle (docs/shuffle.md).
//
// It is created without a name where the file system allows (Linux O_TMPFILE: ext4, xfs, btrfs,
// tmpfs), so it vanishes with the process however the process ends, SIGKILL and power loss
// included, and nothing can ever be left behind. Elsewhere it is created under a hidden name
// (".tfq-partial.shuffle-spill.<random>.<pid>"), registered with the interrupt cleanup, and
// unlinked at once: the name exists for microseconds. Either way its space shows in `df` while
// tfq runs, not in `ls`.
//
// Thread safety: Append and ReadAt may not run concurrently with Append.
#ifndef TFQ_RESHARD_SPILL_H_
#define TFQ_RESHARD_SPILL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tfq::reshard {

// A run of whole entries (reshard/arena.h's format) in the spill file.
struct Chunk {
  uint64_t offset = 0;
  uint64_t bytes = 0;
  uint64_t records = 0;
};

class SpillFile {
 public:
  // Creates the file in directory `dir`; errors say which directory and suggest --tmp-dir.
  static Result<std::unique_ptr<SpillFile>> Create(const std::string& dir);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Appends the concatenation of `parts` at the end of the file; sets *offset to where it
  // starts. A full disk is a kIoError that names the directory.
  Status Append(const std::vector<std::string_view>& parts, uint64_t* offset);
  // Reads `size` bytes at `offset` into dst.
  Status ReadAt(uint64_t offset, uint64_t size, char* dst) const;

  uint64_t size() const { return size_; }  // bytes ever appended
  const std::string& name() const { return name_; }  // "temporary file in DIR"

 private:
  SpillFile(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}

  const int fd_;
  const std::string name_;
  uint64_t size_ = 0;
};

}  // namespace tfq::reshard

#endif  // TFQ_RESHARD_SPILL_H_
