// The interrupt handler and its table of temporary paths.
//
// The table is a fixed array of atomic pointers so that the signal handler can walk it without
// locks or allocation. Each path is owned by whoever takes it out of its slot with exchange():
// normally UnregisterTemporaryPath, which frees it; during an interrupt the handler, which only
// unlinks it (free() is not async-signal-safe, and the process is about to end anyway). So a path
// is never freed while the handler is reading it.
#include "io/cleanup.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace tfq {
namespace {

constexpr int kSlots = 256;  // more outputs open at once than any tfq command writes
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

std::atomic<char*> g_paths[kSlots];
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<char*>::is_always_lock_free, "the signal handler needs lock-free slots");
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

void OnInterrupt(int sig) {
  int saved_errno = errno;
  g_interrupted.store(true);
  for (auto& slot : g_paths) {
    if (char* path = slot.exchange(nullptr)) unlink(path);
  }
  // Die of the same signal, so the parent shell sees "killed by SIGINT" and stops a script too.
  struct sigaction dfl = {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  raise(sig);  // pending until the handler returns, since the signal is blocked while it runs
  errno = saved_errno;
}

}  // namespace

void InstallInterruptCleanup() {
  struct sigaction sa = {};
  sa.sa_handler = OnInterrupt;
  sigemptyset(&sa.sa_mask);
  for (int sig : kSignals) sigaddset(&sa.sa_mask, sig);  // one cleanup at a time
  for (int sig : kSignals) {
    // A signal ignored at startup stays ignored (nohup, background jobs of a script): the
    // user asked for the process to survive it.
    struct sigaction old;
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }

  struct sigaction ignore = {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, nullptr);
}

int RegisterTemporaryPath(const std::string& path) {
  char* copy = strdup(path.c_str());
  if (copy == nullptr) return -1;
  for (int i = 0; i < kSlots; ++i) {
    char* expected = nullptr;
    if (g_paths[i].compare_exchange_strong(expected, copy)) return i;
  }
  std::free(copy);
  return -1;
}

void UnregisterTemporaryPath(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  std::free(g_paths[slot].exchange(nullptr));
}

bool InterruptRequested() { return g_interrupted.load(); }

}  // namespace tfq
