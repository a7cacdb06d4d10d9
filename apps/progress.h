// Live progress on a terminal for commands that can run long: bytes read, their rate and, where
// the total is known, the share done and the time left, on one stderr line redrawn five times a
// second ("tfq shard: 1.2 GB of 4.0 GB (30%), 850 MB/s, 3 s left").
//
// It measures what the process has read (the kernel's count in /proc/self/io), so the library's
// hot loops carry no counters and every command gets the same line. Reads through a memory map
// (`inspect --count` of a plain file) do not count; those are fast anyway.
#ifndef TFQ_APPS_PROGRESS_H_
#define TFQ_APPS_PROGRESS_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tfq::app {

class ProgressLine {
 public:
  // Shows nothing unless `wanted` (no -q, no --json) and stderr is a terminal. `total_bytes` is
  // what the command will read, 0 if unknown (standard input); `passes` how many times it reads
  // its input (a shuffle that spills reads about twice), for the share done.
  ProgressLine(std::string label, uint64_t total_bytes, bool wanted, double passes = 1);
  // Stops and erases the line, so that the summary and any error print on a clean line.
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // The sum of the sizes of the regular files among `paths` (0 if any is standard input or
  // not a regular file: the total is then unknown).
  static uint64_t TotalBytes(const std::vector<std::string>& paths);

 private:
  friend void ClearProgressLine();
  void Run();
  void Draw(uint64_t bytes, double seconds);

  const std::string label_;
  const uint64_t total_;
  const double passes_;
  uint64_t start_bytes_ = 0;
  bool drawn_ = false;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

// Erases the progress line being shown, if any, before a message goes to stderr (PrintWarning and
// ReportError call it); the next redraw puts it back under the message.
void ClearProgressLine();

// Whether a progress line would be shown (stderr is a terminal); for commands with their own.
bool StderrIsTerminal();

}  // namespace tfq::app

#endif  // TFQ_APPS_PROGRESS_H_
