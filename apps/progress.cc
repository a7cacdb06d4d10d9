#include "progress.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "common/byte_size.h"

namespace tfq::app {
namespace {

// Bytes this process has read through read(2)/pread(2) so far ("rchar" of /proc/self/io).
uint64_t BytesReadSoFar() {
  FILE* f = std::fopen("/proc/self/io", "r");
  if (!f) return 0;
  char line[128];
  uint64_t value = 0;
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, "rchar:", 6) == 0) {
      value = std::strtoull(line + 6, nullptr, 10);
      break;
    }
  }
  std::fclose(f);
  return value;
}

std::mutex g_active_mu;
ProgressLine* g_active = nullptr;  // the line being shown, guarded by g_active_mu

}  // namespace

void ClearProgressLine() {
  std::lock_guard<std::mutex> active(g_active_mu);
  if (!g_active) return;
  std::lock_guard<std::mutex> lock(g_active->mu_);
  if (g_active->drawn_) std::fputs("\r\033[K", stderr);
  g_active->drawn_ = false;
}

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

uint64_t ProgressLine::TotalBytes(const std::vector<std::string>& paths) {
  uint64_t total = 0;
  for (const std::string& path : paths) {
    struct stat st;
    if (path == "-" || stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    total += static_cast<uint64_t>(st.st_size);
  }
  return total;
}

ProgressLine::ProgressLine(std::string label, uint64_t total_bytes, bool wanted, double passes)
    : label_(std::move(label)), total_(total_bytes), passes_(passes) {
  if (!wanted || !StderrIsTerminal()) return;
  start_bytes_ = BytesReadSoFar();
  {
    std::lock_guard<std::mutex> active(g_active_mu);
    g_active = this;
  }
  thread_ = std::thread([this] { Run(); });
}

ProgressLine::~ProgressLine() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> active(g_active_mu);
    g_active = nullptr;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (drawn_) std::fputs("\r\033[K", stderr);
}

void ProgressLine::Run() {
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  // Nothing for the first second: short runs stay quiet.
  if (wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_; })) return;
  while (!stop_) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Draw(BytesReadSoFar() - start_bytes_, seconds);
    wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; });
  }
}

void ProgressLine::Draw(uint64_t bytes, double seconds) {
  const double rate = seconds > 0 ? static_cast<double>(bytes) / seconds : 0;
  std::string line = "\r\033[K" + label_ + ": " + FormatByteSize(bytes);
  if (total_ > 0) {
    const double expected = static_cast<double>(total_) * passes_;
    const double share = std::min(1.0, static_cast<double>(bytes) / expected);
    char buf[96];
    std::snprintf(buf, sizeof buf, " of %s (%.0f%%)", FormatByteSize(total_).c_str(), share * 100);
    line += buf;
    line += ", " + FormatByteSize(static_cast<uint64_t>(rate)) + "/s";
    if (rate > 0 && share < 1) {
      std::snprintf(buf, sizeof buf, ", %.0f s left", (expected - static_cast<double>(bytes)) / rate);
      line += buf;
    }
  } else {
    line += " read, " + FormatByteSize(static_cast<uint64_t>(rate)) + "/s";
  }
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace tfq::app
