// The interrupt handler and its table of temporary paths.
//
// The table is made of blocks of atomic pointers so that the signal handler can walk it without
// locks or allocation. Blocks are allocated by RegisterTemporaryPath when every slot is taken
// (a `tfq shard --shards 10000` run stages ten thousand files at once) and are never freed, so
// the handler may read any block it finds published. Each path is owned by whoever takes it out
// of its slot with exchange(): normally UnregisterTemporaryPath, which frees it; during an
// interrupt the handler, which only unlinks it (free() is not async-signal-safe, and the process
// is about to end anyway). So a path is never freed while the handler is reading it.
//
// Free slot numbers are kept in a list under a mutex, which only the registering threads take:
// the handler never needs it.
#include "io/cleanup.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace tfq {
namespace {

constexpr int kBlockSlots = 256;
constexpr int kMaxBlocks = 4096;  // a million paths: far beyond any descriptor limit
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

using Slot = std::atomic<char*>;
std::atomic<Slot*> g_blocks[kMaxBlocks];  // published in order; null from the first unused one
static_assert(std::atomic<char*>::is_always_lock_free, "the signal handler needs lock-free slots");
static_assert(std::atomic<Slot*>::is_always_lock_free, "the signal handler needs lock-free blocks");

// Registration bookkeeping; leaked on purpose so that it outlives every static destructor (a
// stream destroyed at exit still unregisters).
struct FreeSlots {
  std::mutex mu;
  std::vector<int> free;  // slot numbers, the lowest last
  int blocks = 0;
};
FreeSlots& Free() {
  static FreeSlots* slots = new FreeSlots;
  return *slots;
}

Slot& SlotAt(int slot) { return g_blocks[slot / kBlockSlots].load()[slot % kBlockSlots]; }

// The thread that installed the handler: the one that commits outputs (renames them into place).
pthread_t g_main_thread;

void OnInterrupt(int sig) {
  int saved_errno = errno;
  // A signal may land on any thread (a converter worker, a reader thread). Cleaning up there
  // would race the main thread's renames: the handler could unlink a final name an instant before
  // rename() puts the shard there, and the shard would outlive the run. Handled on the main
  // thread instead, the cleanup falls between two of its steps, never inside one.
  if (!pthread_equal(pthread_self(), g_main_thread)) {
    pthread_kill(g_main_thread, sig);
    errno = saved_errno;
    return;
  }
  for (auto& block : g_blocks) {
    Slot* slots = block.load();
    if (slots == nullptr) break;
    for (int i = 0; i < kBlockSlots; ++i) {
      if (char* path = slots[i].exchange(nullptr)) unlink(path);
    }
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
  g_main_thread = pthread_self();
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
  // A write past `ulimit -f` (batch schedulers set it) then fails with EFBIG, reported and
  // cleaned up like a full disk, instead of killing the process with its temporaries left.
  sigaction(SIGXFSZ, &ignore, nullptr);
}

int RegisterTemporaryPath(const std::string& path) {
  char* copy = strdup(path.c_str());
  if (copy == nullptr) return -1;
  FreeSlots& f = Free();
  int slot;
  {
    std::lock_guard<std::mutex> lock(f.mu);
    if (f.free.empty()) {
      if (f.blocks == kMaxBlocks) {
        std::free(copy);
        return -1;
      }
      Slot* block = new Slot[kBlockSlots]();
      g_blocks[f.blocks].store(block);
      for (int i = kBlockSlots - 1; i >= 0; --i) f.free.push_back(f.blocks * kBlockSlots + i);
      ++f.blocks;
    }
    slot = f.free.back();
    f.free.pop_back();
  }
  SlotAt(slot).store(copy);
  return slot;
}

void UnregisterTemporaryPath(int slot) {
  if (slot < 0 || slot >= kMaxBlocks * kBlockSlots) return;
  FreeSlots& f = Free();
  {
    std::lock_guard<std::mutex> lock(f.mu);
    if (slot >= f.blocks * kBlockSlots) return;  // never handed out
  }
  // Null: unregistered already (a harmless double call) or taken by the handler; either way the
  // slot must not be listed as free a second time.
  char* path = SlotAt(slot).exchange(nullptr);
  if (path == nullptr) return;
  std::free(path);
  std::lock_guard<std::mutex> lock(f.mu);
  f.free.push_back(slot);
}

}  // namespace tfq
