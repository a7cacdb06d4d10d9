#include "io/skipping_file.h"

#include <time.h>
#include <unistd.h>

#include "io/pread_file.h"
#include "io/window_file.h"

namespace tfq {
namespace {

// The first MiBs of a file are walked with pread before any trial: the kernel grows folios as a
// sequential write or read-ahead proceeds, so a file's start is held in small ones even when the
// rest is in large ones (measured on a file written in 8 MiB pieces: 118 faults mapping its first
// 8 MiB, 7 for any 8 MiB further on), and a trial there would judge the whole file by its start.
constexpr uint64_t kLeadInBytes = uint64_t{16} << 20;
// Each trial walks this far: several folios, and hundreds of headers of 16 KiB records. The
// mapped trial's window is larger so that it is mapped once.
constexpr uint64_t kTrialBytes = uint64_t{8} << 20;
constexpr size_t kTrialWindow = size_t{16} << 20;
// The window once mapping has won: few remaps per gigabyte, and a bound on the file pages held
// in the resident set.
constexpr size_t kLargeWindow = size_t{256} << 20;

int64_t ThreadCpuNanos() {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

class SkippingFileStream final : public InputStream {
 public:
  SkippingFileStream(std::string path, int fd, uint64_t size, SkippingTrialOutcome outcome)
      : path_(path), fd_(fd), size_(size), outcome_(outcome),
        current_(NewPreadFileStream(std::move(path), fd, size)) {}

  Status Peek(size_t min_bytes, std::string_view* available) override {
    if (phase_ != Phase::kDecided) Measure();
    return current_->Peek(min_bytes, available);
  }
  void Consume(size_t n) override { current_->Consume(n); }
  Status Skip(uint64_t n, uint64_t* skipped) override { return current_->Skip(n, skipped); }
  uint64_t position() const override { return current_->position(); }
  const std::string& name() const override { return path_; }

 private:
  enum class Phase { kLeadIn, kMappedTrial, kPreadTrial, kDecided };

  // Called before each Peek until the choice is made.
  void Measure() {
    const uint64_t pos = current_->position();
    if (phase_ == Phase::kLeadIn) {
      if (pos >= kLeadInBytes) SwitchTo(Phase::kMappedTrial, pos);
    } else if (pos - trial_start_ < kTrialBytes) {
      ++trial_peeks_;
      return;
    } else if (phase_ == Phase::kMappedTrial) {
      // The mapping's cost includes tearing its page tables down, so the switch comes first.
      const int64_t started = trial_cpu_start_;
      const uint64_t peeks = trial_peeks_;
      if (!SwitchTo(Phase::kPreadTrial, pos)) return;
      mapped_nanos_per_peek_ = static_cast<double>(ThreadCpuNanos() - started) / peeks;
    } else {
      const double pread_nanos_per_peek =
          static_cast<double>(ThreadCpuNanos() - trial_cpu_start_) / trial_peeks_;
      const bool mapped_wins = outcome_ == SkippingTrialOutcome::kMeasured
                                   ? mapped_nanos_per_peek_ < pread_nanos_per_peek
                                   : outcome_ == SkippingTrialOutcome::kMappedWins;
      if (mapped_wins) SwitchTo(Phase::kDecided, pos);
      phase_ = Phase::kDecided;
    }
  }

  void StartTrial(Phase phase, uint64_t pos) {
    phase_ = phase;
    trial_start_ = pos;
    trial_peeks_ = 1;
    trial_cpu_start_ = ThreadCpuNanos();
  }

  // Replaces current_ by a stream at the same position: the trial window for the mapped trial,
  // pread for the pread trial, a large mapped window once mapping has won. On failure (no
  // descriptor left) keeps current_ for good.
  bool SwitchTo(Phase phase, uint64_t pos) {
    const int fd = dup(fd_);  // current_ owns fd_ and closes it
    std::unique_ptr<InputStream> next;
    if (fd >= 0) {
      next = phase == Phase::kPreadTrial    ? NewPreadFileStream(path_, fd, size_)
             : phase == Phase::kMappedTrial ? NewWindowedFileStream(path_, fd, size_, kTrialWindow)
                                            : NewWindowedFileStream(path_, fd, size_, kLargeWindow);
    }
    uint64_t skipped = 0;
    if (next == nullptr || !next->Skip(pos, &skipped).ok() || skipped != pos) {
      phase_ = Phase::kDecided;
      return false;
    }
    current_ = std::move(next);
    fd_ = fd;
    StartTrial(phase, pos);
    return true;
  }

  const std::string path_;
  int fd_;  // the descriptor current_ reads
  const uint64_t size_;
  const SkippingTrialOutcome outcome_;
  std::unique_ptr<InputStream> current_;
  Phase phase_ = Phase::kLeadIn;
  uint64_t trial_start_ = 0;
  uint64_t trial_peeks_ = 0;
  int64_t trial_cpu_start_ = 0;
  double mapped_nanos_per_peek_ = 0;
};

}  // namespace

std::unique_ptr<InputStream> NewSkippingFileStream(std::string path, int fd, uint64_t size,
                                                   SkippingTrialOutcome outcome) {
  return std::make_unique<SkippingFileStream>(std::move(path), fd, size, outcome);
}

}  // namespace tfq
