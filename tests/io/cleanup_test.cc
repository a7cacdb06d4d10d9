// Interrupt cleanup: each test forks a child that is killed by a signal, so the test binary's own
// signal handling is never touched.
#include "io/cleanup.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <thread>
#include <vector>

#include "common/test_env.h"
#include "io_test_util.h"
#include "io/file_streams.h"

namespace tfq {
namespace {

using testing::MakeTempDir;
using testing::WriteFileOrDie;

using ::tfq::testing::PathExists;

// Runs `body` in a child process and returns its wait status. The child leaves with _exit, never
// through the test framework.
int RunInChild(const std::function<int()>& body) {
  fflush(nullptr);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) _exit(body());
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  return status;
}

TEST_CASE("an interrupt unlinks registered paths and the process dies of the signal") {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    CAPTURE(sig);
    std::string dir = MakeTempDir();
    for (const char* name : {"a", "b", "kept"}) WriteFileOrDie(dir + "/" + name, "x");
    int status = RunInChild([&] {
      InstallInterruptCleanup();
      RegisterTemporaryPath(dir + "/a");
      int kept = RegisterTemporaryPath(dir + "/kept");
      RegisterTemporaryPath(dir + "/b");
      RegisterTemporaryPath(dir + "/never-existed");
      UnregisterTemporaryPath(kept);
      raise(sig);
      return 0;  // survived: a failure
    });
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    CHECK_FALSE(PathExists(dir + "/a"));
    CHECK_FALSE(PathExists(dir + "/b"));
    CHECK(PathExists(dir + "/kept"));
  }
}

TEST_CASE("a signal that lands on another thread is handled on the installing thread") {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/a", "x");
  int status = RunInChild([&] {
    InstallInterruptCleanup();
    RegisterTemporaryPath(dir + "/a");
    // The main thread blocks the signal for a moment, so that the kernel can only deliver it to
    // the worker; the worker's handler passes it on, and it is handled once main unblocks it.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread worker([] {
      sigset_t none;
      sigemptyset(&none);
      pthread_sigmask(SIG_SETMASK, &none, nullptr);
      pthread_kill(pthread_self(), SIGTERM);
    });
    worker.join();
    // Handled on the worker, the signal would have ended the process before this point.
    if (!PathExists(dir + "/a")) return 2;
    if (FILE* f = fopen((dir + "/main-went-on").c_str(), "w")) fclose(f);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    return 0;  // survived: a failure
  });
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(PathExists(dir + "/main-went-on"));
  CHECK_FALSE(PathExists(dir + "/a"));
}

TEST_CASE("an interrupted output leaves neither its temporary nor its final file") {
  std::string dir = MakeTempDir();
  int status = RunInChild([&] {
    InstallInterruptCleanup();
    auto r = CreateOutputFile(dir + "/out.tfrecord");
    if (!r.ok() || !r.value()->Write(std::string(3 << 20, 'x')).ok()) return 2;
    if (std::filesystem::is_empty(dir)) return 3;  // the temporary must exist by now
    raise(SIGINT);
    return 0;
  });
  CHECK(WIFSIGNALED(status));
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("a signal ignored at startup stays ignored") {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/a", "x");
  int status = RunInChild([&] {
    signal(SIGHUP, SIG_IGN);  // as nohup does
    InstallInterruptCleanup();
    RegisterTemporaryPath(dir + "/a");
    raise(SIGHUP);
    return 0;
  });
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(PathExists(dir + "/a"));
}

TEST_CASE("SIGPIPE is ignored so that a closed pipe becomes an error") {
  int status = RunInChild([] {
    InstallInterruptCleanup();
    int fds[2];
    if (pipe(fds) != 0) return 2;
    close(fds[0]);
    ssize_t n = write(fds[1], "x", 1);
    return n < 0 && errno == EPIPE ? 0 : 3;
  });
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("the registration table grows: thousands of staged shards are all cleaned up") {
  // More than the 256 slots of one block (the size of the old fixed table): a 1000-shard run.
  std::string dir = MakeTempDir();
  constexpr int kFiles = 1000;
  for (int i = 0; i < kFiles; ++i) WriteFileOrDie(dir + "/f" + std::to_string(i), "x");
  int status = RunInChild([&] {
    InstallInterruptCleanup();
    for (int i = 0; i < kFiles; ++i) {
      if (RegisterTemporaryPath(dir + "/f" + std::to_string(i)) < 0) return 2;
    }
    raise(SIGTERM);
    return 0;
  });
  CHECK(WIFSIGNALED(status));
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("slots are reused after Unregister, and a double Unregister is harmless") {
  std::vector<int> slots;
  for (int i = 0; i < 600; ++i) {
    int slot = RegisterTemporaryPath("/nonexistent/" + std::to_string(i));
    REQUIRE(slot >= 0);
    slots.push_back(slot);
  }
  CHECK(std::set<int>(slots.begin(), slots.end()).size() == slots.size());
  const int max_slot = *std::max_element(slots.begin(), slots.end());
  for (int slot : slots) UnregisterTemporaryPath(slot);
  UnregisterTemporaryPath(slots[0]);  // again: must not list the slot as free twice
  int a = RegisterTemporaryPath("/nonexistent/a");
  int b = RegisterTemporaryPath("/nonexistent/b");
  CHECK(a >= 0);
  CHECK(b >= 0);
  CHECK(a != b);
  CHECK(a <= max_slot);  // reused, not a new block
  UnregisterTemporaryPath(a);
  UnregisterTemporaryPath(b);
  UnregisterTemporaryPath(-1);  // what a caller holding a failed registration passes
  UnregisterTemporaryPath(1 << 30);
}

TEST_CASE("registration from many threads at once never hands out a slot twice") {
  std::vector<std::vector<int>> held(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &held] {
      for (int i = 0; i < 2000; ++i) {
        int slot = RegisterTemporaryPath("/nonexistent/t" + std::to_string(t));
        if (i % 2 == 0 && slot >= 0) {
          UnregisterTemporaryPath(slot);
        } else if (slot >= 0 && held[t].size() < 16) {
          held[t].push_back(slot);
        } else {
          UnregisterTemporaryPath(slot);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  std::set<int> distinct;
  size_t total = 0;
  for (const auto& slots : held) {
    total += slots.size();
    distinct.insert(slots.begin(), slots.end());
  }
  CHECK(distinct.size() == total);
  CHECK(total == 8 * 16);
  for (const auto& slots : held) {
    for (int slot : slots) UnregisterTemporaryPath(slot);
  }
}

}  // namespace
}  // namespace tfq
