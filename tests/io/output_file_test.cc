// Output files: written under a hidden temporary, renamed by Close(), removed when abandoned.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <filesystem>

#include "common/test_env.h"
#include "io/file_streams.h"
#include "io_test_util.h"

namespace tfq {
namespace {

using testing::MakeTempDir;
using testing::ReadFileOrDie;
using testing::TestBytes;
using testing::WriteFileOrDie;

using ::tfq::testing::PathExists;

std::string TempNameFor(const std::string& dir, const std::string& base) {
  return dir + "/.tfq-partial." + base + "." + std::to_string(getpid());
}

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::unique_ptr<OutputStream> CreateOrDie(const std::string& path) {
  auto r = CreateOutputFile(path);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return std::move(r).value();
}

TEST_CASE("an output file appears under its name only when closed") {
  std::string dir = MakeTempDir();
  std::string path = dir + "/out.tfrecord";
  auto out = CreateOrDie(path);
  CHECK(out->name() == path);
  REQUIRE(out->Write("hello ").ok());
  REQUIRE(out->Write("world").ok());
  CHECK(out->bytes_written() == 11);
  CHECK_FALSE(PathExists(path));
  CHECK(PathExists(TempNameFor(dir, "out.tfrecord")));
  REQUIRE(out->Close().ok());
  CHECK(ReadFileOrDie(path) == "hello world");
  CHECK(ListDir(dir) == std::vector<std::string>{"out.tfrecord"});
}

TEST_CASE("an output destroyed without Close leaves nothing behind") {
  std::string dir = MakeTempDir();
  {
    auto out = CreateOrDie(dir + "/out.tfrecord");
    REQUIRE(out->Write(TestBytes(3 << 20)).ok());  // some of it already on disk
  }
  CHECK(ListDir(dir).empty());
}

TEST_CASE("an existing file is replaced only by Close") {
  std::string dir = MakeTempDir();
  std::string path = dir + "/out";
  WriteFileOrDie(path, "old");
  auto out = CreateOrDie(path);
  REQUIRE(out->Write("new").ok());
  CHECK(ReadFileOrDie(path) == "old");
  REQUIRE(out->Close().ok());
  CHECK(ReadFileOrDie(path) == "new");
}

TEST_CASE("writes of every size arrive in order") {
  std::string dir = MakeTempDir();
  const std::string data = TestBytes((size_t{4} << 20) + 123, 3);
  auto out = CreateOrDie(dir + "/big");
  // Small writes, writes that fill the buffer exactly, and writes larger than the buffer.
  const size_t kSizes[] = {1, 100, 4096, (size_t{1} << 20) - 101, size_t{3} << 20 >> 1, 7};
  size_t pos = 0;
  for (int i = 0; pos < data.size(); ++i) {
    size_t n = std::min(kSizes[i % std::size(kSizes)], data.size() - pos);
    REQUIRE(out->Write(std::string_view(data).substr(pos, n)).ok());
    pos += n;
  }
  REQUIRE(out->Close().ok());
  CHECK(ReadFileOrDie(dir + "/big") == data);
}

TEST_CASE("a relative output path gets its temporary in the current directory") {
  std::string dir = MakeTempDir();
  auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  auto r = CreateOutputFile("rel.out");
  bool temp_seen = PathExists(".tfq-partial.rel.out." + std::to_string(getpid()));
  Status closed = r.ok() ? r.value()->Close() : r.status();
  std::filesystem::current_path(cwd);
  CHECK(temp_seen);
  REQUIRE(closed.ok());
  CHECK(ListDir(dir) == std::vector<std::string>{"rel.out"});
}

TEST_CASE("an output in missing folders creates them, as mkdir -p would") {
  const std::string dir = MakeTempDir();
  auto r = CreateOutputFile(dir + "/a/b//c/out.tfrecord");
  REQUIRE(r.ok());
  REQUIRE((*r)->Write("x").ok());
  REQUIRE((*r)->Close().ok());
  CHECK(ReadFileOrDie(dir + "/a/b/c/out.tfrecord") == "x");
}

TEST_CASE("an output under a file, not a folder, is an error naming the output") {
  const std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/file", "");
  auto r = CreateOutputFile(dir + "/file/sub/out.tfrecord");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().rfind(dir + "/file/sub/out.tfrecord: cannot create", 0) == 0);
  CHECK(ListDir(dir) == std::vector<std::string>{"file"});
}

TEST_CASE("an output URL of a scheme no FileSystem serves is refused; http(s) is read-only") {
  auto r = CreateOutputFile("ftp://host/out.tfrecord");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message().rfind("ftp://host/out.tfrecord: ftp:// URLs are not supported", 0) == 0);
  r = CreateOutputFile("https://host/out.tfrecord");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message().find("can only be read") != std::string::npos);
}

TEST_CASE("an output path that is a directory is kInvalidArgument") {
  std::string dir = MakeTempDir();
  auto r = CreateOutputFile(dir);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message() == dir + ": is a directory");
  CHECK(CreateOutputFile(dir + "/sub/").status().code() == StatusCode::kInvalidArgument);
  CHECK(CreateOutputFile("").status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("a failed rename fails Close cleanly and removes the temporary") {
  std::string dir = MakeTempDir();
  std::string path = dir + "/out";
  auto out = CreateOrDie(path);
  REQUIRE(out->Write("data").ok());
  // Something else takes the name meanwhile: a non-empty directory cannot be renamed over.
  REQUIRE(mkdir(path.c_str(), 0755) == 0);
  WriteFileOrDie(path + "/keep", "x");
  Status s = out->Close();
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(s.message().find(path + ": cannot rename the finished temporary file ") == 0);
  CHECK_FALSE(PathExists(TempNameFor(dir, "out")));
  out.reset();
  CHECK(ListDir(dir) == std::vector<std::string>{"out"});
}

TEST_CASE("a full disk is reported in plain words naming the output") {
  if (!PathExists("/dev/full")) return;
  auto out = CreateOrDie("/dev/full");  // a device: written directly, every write is ENOSPC
  Status s = out->Write(TestBytes(3 << 20));
  if (s.ok()) s = out->Close();
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(s.message().find("/dev/full: disk full (") == 0);
}

TEST_CASE("special files such as /dev/null are written in place, not replaced") {
  auto out = CreateOrDie("/dev/null");
  REQUIRE(out->Write("discarded").ok());
  REQUIRE(out->Close().ok());
  struct stat st;
  REQUIRE(stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
}

TEST_CASE("writing to a pipe whose reader has gone is kBrokenPipe") {
  signal(SIGPIPE, SIG_IGN);  // as InstallInterruptCleanup does in tfq
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  auto out = CreateOrDie("/dev/fd/" + std::to_string(fds[1]));
  close(fds[1]);
  close(fds[0]);
  Status s = out->Write(TestBytes(2 << 20));
  if (s.ok()) s = out->Close();
  CHECK(s.code() == StatusCode::kBrokenPipe);
}

TEST_CASE("\"-\" writes to standard output") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  fflush(stdout);
  int saved_stdout = dup(STDOUT_FILENO);
  dup2(fds[1], STDOUT_FILENO);
  close(fds[1]);
  std::string name;
  Status s;
  {
    auto r = CreateOutputFile("-");
    if (r.ok()) {
      name = r.value()->name();
      s = r.value()->Write("to stdout\n");
      if (s.ok()) s = r.value()->Close();
    } else {
      s = r.status();
    }
  }
  dup2(saved_stdout, STDOUT_FILENO);
  close(saved_stdout);
  char buf[64];
  ssize_t n = read(fds[0], buf, sizeof(buf));
  close(fds[0]);
  REQUIRE(s.ok());
  CHECK(name == "<stdout>");
  CHECK(std::string(buf, n > 0 ? static_cast<size_t>(n) : 0) == "to stdout\n");
}

TEST_CASE("writing after Close and closing twice are errors") {
  std::string dir = MakeTempDir();
  auto out = CreateOrDie(dir + "/out");
  REQUIRE(out->Close().ok());
  CHECK(out->Write("x").code() == StatusCode::kInternal);
  CHECK(out->Close().code() == StatusCode::kInternal);
  CHECK(ReadFileOrDie(dir + "/out").empty());
}

}  // namespace
}  // namespace tfq
