// StagedFile: hidden until renamed, removed when abandoned, and a guarded final name removed
// unless kept.
#include "io/staged_file.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include "common/test_env.h"
#include "io/io_test_util.h"
#include "io/random_access_file.h"

namespace tfq {
namespace {

bool Exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

std::unique_ptr<StagedFile> MakeStaged(const std::string& path, std::string_view bytes) {
  auto staged = StagedFile::Create(path, path + ": cannot create");
  REQUIRE(staged.ok());
  const int fd = (*staged)->ReleaseDescriptor();
  REQUIRE(write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  close(fd);
  return std::move(staged).value();
}

TEST_CASE("StagedFile: created in missing folders, renamed into place, or removed when abandoned") {
  const std::string dir = testing::MakeTempDir();
  {
    auto staged = MakeStaged(dir + "/a/b/.tfq-partial.x", "xyz");
    CHECK(Exists(dir + "/a/b/.tfq-partial.x"));
    CHECK(staged->RenameTo(dir + "/a/b/x", /*guard_final=*/false) == 0);
    CHECK_FALSE(Exists(dir + "/a/b/.tfq-partial.x"));
  }
  CHECK(RandomAccessFile::ReadAll(dir + "/a/b/x").value() == "xyz");
  { auto abandoned = MakeStaged(dir + "/.tfq-partial.y", "y"); }
  CHECK_FALSE(Exists(dir + "/.tfq-partial.y"));
  {
    auto staged = MakeStaged(dir + "/.tfq-partial.z", "z");
    CHECK(staged->RenameTo(dir + "/no/such/folder/z", false) == ENOENT);
    CHECK(Exists(dir + "/.tfq-partial.z"));
  }
  CHECK_FALSE(Exists(dir + "/.tfq-partial.z"));
}

TEST_CASE("StagedFile: a guarded final name stays only when kept") {
  const std::string dir = testing::MakeTempDir();
  {
    auto kept = MakeStaged(dir + "/.s1", "1");
    auto removed = MakeStaged(dir + "/.s2", "2");
    auto dropped = MakeStaged(dir + "/.s3", "3");
    REQUIRE(kept->RenameTo(dir + "/f1", true) == 0);
    REQUIRE(removed->RenameTo(dir + "/f2", true) == 0);
    REQUIRE(dropped->RenameTo(dir + "/f3", true) == 0);
    kept->Keep();
    removed->Remove();
    CHECK_FALSE(Exists(dir + "/f2"));
    CHECK(Exists(dir + "/f3"));
  }
  CHECK(Exists(dir + "/f1"));
  CHECK_FALSE(Exists(dir + "/f3"));  // destroyed while still guarded
}

TEST_CASE("StagedFile: an error names the context given") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFileOrDie(dir + "/file", "");
  auto staged = StagedFile::Create(dir + "/file/.tfq-partial.x", "out/x: cannot create shard 0");
  REQUIRE_FALSE(staged.ok());
  CHECK(staged.status().message().rfind("out/x: cannot create shard 0: ", 0) == 0);
}

}  // namespace
}  // namespace tfq
