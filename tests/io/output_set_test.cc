// CloseTogether: a set of outputs is completed whole or not at all.
#include "io/output_set.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <filesystem>

#include "common/fault_streams.h"
#include "common/test_env.h"
#include "io/cleanup.h"
#include "io/file_streams.h"
#include "io_test_util.h"

namespace tfq {
namespace {

using testing::FailingOutputStream;
using testing::MakeTempDir;

std::unique_ptr<OutputStream> Create(const std::string& path) {
  auto out = CreateOutputFile(path);
  REQUIRE(out.ok());
  return std::move(out).value();
}

TEST_CASE("every output is completed when all Close calls succeed") {
  const std::string dir = MakeTempDir();
  auto a = Create(dir + "/a");
  auto b = Create(dir + "/b");
  REQUIRE(a->Write("1").ok());
  REQUIRE(b->Write("2").ok());
  OutputStream* outs[] = {a.get(), nullptr, b.get()};
  REQUIRE(CloseTogether(outs).ok());
  CHECK(std::filesystem::exists(dir + "/a"));
  CHECK(std::filesystem::exists(dir + "/b"));
  CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 2);
}

TEST_CASE("a failing Close takes back the outputs completed before it; later ones stay unclosed") {
  const std::string dir = MakeTempDir();
  auto a = Create(dir + "/a");
  // The second output fails at Close, as a full disk shows when the last buffer is flushed.
  auto b = std::make_unique<FailingOutputStream>(dir + "/b", 4, Create(dir + "/b"));
  auto c = Create(dir + "/c");
  REQUIRE(a->Write("aa").ok());
  REQUIRE(b->Write("bbbbbb").code() == StatusCode::kIoError);
  REQUIRE(c->Write("cc").ok());
  OutputStream* outs[] = {a.get(), b.get(), c.get()};
  Status s = CloseTogether(outs);
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(s.message() == dir + "/b: disk full (No space left on device); free some space or write elsewhere");
  CHECK_FALSE(std::filesystem::exists(dir + "/a"));  // completed, then removed again
  a.reset();
  b.reset();
  c.reset();  // never closed: its temporary goes with it
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("outputs that are not files are closed but never removed") {
  auto null_out = CreateOutputFile("/dev/null");
  REQUIRE(null_out.ok());
  auto failing = std::make_unique<FailingOutputStream>("x", 0);
  REQUIRE_FALSE(failing->Write("x").ok());
  OutputStream* outs[] = {null_out->get(), failing.get()};
  CHECK_FALSE(CloseTogether(outs).ok());
  CHECK(std::filesystem::exists("/dev/null"));
}

TEST_CASE("an interrupt while the set is being closed removes the whole set") {
  // The child closes a set whose third output raises SIGTERM from Close, after the first two
  // were renamed into place: neither may survive, nor any temporary.
  class InterruptingStream final : public OutputStream {
   public:
    Status Write(std::string_view) override { return Status::OK(); }
    Status Close() override {
      raise(SIGTERM);
      return Status::OK();
    }
    const std::string& name() const override { return name_; }
    uint64_t bytes_written() const override { return 0; }

   private:
    const std::string name_ = "interrupting";
  };
  const std::string dir = MakeTempDir();
  fflush(nullptr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    InstallInterruptCleanup();
    auto a = CreateOutputFile(dir + "/a");
    auto b = CreateOutputFile(dir + "/b");
    if (!a.ok() || !b.ok()) _exit(2);
    InterruptingStream c;
    OutputStream* outs[] = {a->get(), b->get(), &c};
    (void)CloseTogether(outs);
    _exit(0);  // survived: a failure
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(std::filesystem::is_empty(dir));
}

}  // namespace
}  // namespace tfq
