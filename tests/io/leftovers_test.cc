// CleanLeftovers: the temporaries of killed runs. Own ones removed, others reported, those of
// live processes never touched.
#include "io/leftovers.h"

#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "common/test_env.h"
#include "io_test_util.h"

namespace tfq {
namespace {

using testing::MakeTempDir;
using testing::WriteFileOrDie;

// A pid that certainly ended: a child that exited and was reaped.
std::string DeadPid() {
  const pid_t dead = fork();
  if (dead == 0) _exit(0);
  REQUIRE(waitpid(dead, nullptr, 0) == dead);
  return std::to_string(dead);
}

std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

TEST_CASE("shards of the prefix are removed, other temporaries reported, live ones untouched") {
  const std::string dir = MakeTempDir();
  const std::string d = DeadPid();
  WriteFileOrDie(dir + "/.tfq-partial.train-00003.tfrecord." + d, "xx");
  WriteFileOrDie(dir + "/.tfq-partial.train-00001-of-00004." + d, "x");
  WriteFileOrDie(dir + "/.tfq-partial.other.tfrecord." + d, "xyz");
  WriteFileOrDie(dir + "/.tfq-partial.train-extra-00001." + d, "x");
  WriteFileOrDie(dir + "/.tfq-partial.train-00002." + std::to_string(getppid()), "x");
  WriteFileOrDie(dir + "/train-00000-of-00004", "x");
  LeftoverReport report = CleanLeftovers({dir + "/train", {dir}, {}});
  CHECK(report.removed.size() == 2);
  REQUIRE(report.found.size() == 2);
  CHECK(report.found[0].bytes + report.found[1].bytes == 4);
  CHECK(Names(dir) == std::vector<std::string>{
                          ".tfq-partial.other.tfrecord." + d,
                          ".tfq-partial.train-00002." + std::to_string(getppid()),
                          ".tfq-partial.train-extra-00001." + d, "train-00000-of-00004"});
}

TEST_CASE("a single output file and its manifest are ours too (tfq convert)") {
  const std::string dir = MakeTempDir();
  const std::string d = DeadPid();
  WriteFileOrDie(dir + "/.tfq-partial.out.tfrecord." + d, "x");
  WriteFileOrDie(dir + "/.tfq-partial.out.tfrecord.manifest.json." + d, "x");
  WriteFileOrDie(dir + "/.tfq-partial.out.tfrecord.v2." + d, "x");  // another output: reported
  LeftoverReport report = CleanLeftovers({dir + "/out.tfrecord", {}, {}});
  CHECK(report.removed.size() == 2);
  CHECK(report.found.size() == 1);
  CHECK(Names(dir) == std::vector<std::string>{".tfq-partial.out.tfrecord.v2." + d});
}

TEST_CASE("own stems are removed in every scanned directory; standard output scans nothing") {
  const std::string dir = MakeTempDir();
  const std::string tmp = MakeTempDir();
  const std::string d = DeadPid();
  WriteFileOrDie(tmp + "/.tfq-partial.shuffle-spill.123." + d, "x");
  WriteFileOrDie(tmp + "/.tfq-partial.mine." + d, "x");
  LeftoverReport report = CleanLeftovers({dir + "/p", {tmp, tmp}, {"shuffle-spill."}});
  CHECK(report.removed.size() == 1);
  CHECK(report.found.size() == 1);  // scanned once although listed twice
  report = CleanLeftovers({"-", {}, {}});
  CHECK(report.removed.empty());
  CHECK(report.found.empty());
}

TEST_CASE("names that only look like temporaries are left alone") {
  const std::string dir = MakeTempDir();
  for (const char* name : {".tfq-partial.", ".tfq-partial.x", ".tfq-partial.x.12a", ".tfq-partialx.1",
                           ".tfq-partial.x.", "x.tfq-partial.y.1"}) {
    WriteFileOrDie(dir + "/" + name, "x");
  }
  LeftoverReport report = CleanLeftovers({dir + "/x", {}, {}});
  CHECK(report.removed.empty());
  CHECK(report.found.empty());
  CHECK(Names(dir).size() == 6);
}

}  // namespace
}  // namespace tfq
