// CloseTogether: a set of outputs is completed whole or not at all.
#include "io/output_set.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

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

// Records the calls made to it in *calls, as "finish NAME" and "close NAME".
class RecordingStream final : public OutputStream {
 public:
  RecordingStream(std::string name, std::vector<std::string>* calls, bool fail_finish = false)
      : name_(std::move(name)), calls_(calls), fail_finish_(fail_finish) {}
  Status Write(std::string_view) override { return Status::OK(); }
  Status FinishWriting() override {
    calls_->push_back("finish " + name_);
    return fail_finish_ ? Status::IoError(name_ + ": disk full") : Status::OK();
  }
  Status Close() override {
    calls_->push_back("close " + name_);
    return Status::OK();
  }
  const std::string& name() const override { return name_; }
  uint64_t bytes_written() const override { return 0; }

 private:
  const std::string name_;
  std::vector<std::string>* calls_;
  const bool fail_finish_;
};

TEST_CASE("every output finishes writing before the first one takes its final name") {
  std::vector<std::string> calls;
  RecordingStream a("a", &calls), b("b", &calls), c("c", &calls);
  OutputStream* outs[] = {&a, &b, &c};
  REQUIRE(CloseTogether(outs).ok());
  const std::vector<std::string> expected = {"finish a", "finish b", "finish c",
                                             "close a",  "close b",  "close c"};
  CHECK(calls == expected);
}

TEST_CASE("a failure to finish writing leaves every final name untouched") {
  const std::string dir = MakeTempDir();
  auto a = Create(dir + "/a");
  REQUIRE(a->Write("aa").ok());
  std::vector<std::string> calls;
  RecordingStream b("b", &calls, /*fail_finish=*/true), c("c", &calls);
  OutputStream* outs[] = {a.get(), &b, &c};
  Status s = CloseTogether(outs);
  CHECK(s.message() == "b: disk full");
  CHECK(calls == std::vector<std::string>{"finish b"});  // nothing closed, c not even finished
  CHECK_FALSE(std::filesystem::exists(dir + "/a"));
  a.reset();  // finished but never renamed: its temporary goes with it
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("a file output finished, then closed, holds its bytes under its final name") {
  const std::string dir = MakeTempDir();
  auto a = Create(dir + "/a");
  REQUIRE(a->Write("hello").ok());
  REQUIRE(a->FinishWriting().ok());
  CHECK_FALSE(std::filesystem::exists(dir + "/a"));
  REQUIRE(a->FinishWriting().ok());  // again: nothing more to do
  REQUIRE(a->Close().ok());
  CHECK(std::filesystem::file_size(dir + "/a") == 5);
  CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 1);
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
