#include "common/status.h"

#include <cerrno>

#include <doctest/doctest.h>

namespace tfq {

TEST_CASE("an OK status has no message and code kOk") {
  Status s;
  CHECK(s.ok());
  CHECK(s.code() == StatusCode::kOk);
  CHECK(s.message().empty());
  CHECK(s.ToString() == "OK");
}

TEST_CASE("a status keeps its code and message through copies and prefixes") {
  Status s = Status::Corruption("record 3 (byte 12): data CRC mismatch");
  Status copy = s;
  CHECK(copy.code() == StatusCode::kCorruption);
  Status prefixed = copy.WithPrefix("a.tfrecord");
  CHECK(prefixed.message() == "a.tfrecord: record 3 (byte 12): data CRC mismatch");
  CHECK(prefixed.code() == StatusCode::kCorruption);
  CHECK(Status().WithPrefix("x").ok());
}

TEST_CASE("errno values map to the codes callers branch on") {
  CHECK(Status::FromErrno("x", ENOENT).code() == StatusCode::kNotFound);
  CHECK(Status::FromErrno("x", EPIPE).code() == StatusCode::kBrokenPipe);
  CHECK(Status::FromErrno("x", EACCES).code() == StatusCode::kIoError);
  CHECK(Status::FromErrno("out.tfrecord", ENOSPC).message().find("out.tfrecord: ") == 0);
  CHECK(Status::FromErrno("out.tfrecord", EFBIG).message() ==
        "out.tfrecord: file too large for this process's file-size limit (ulimit -f)");
  CHECK(Status::FromErrno("out.tfrecord", EFBIG).code() == StatusCode::kIoError);
}

TEST_CASE("Result carries either a value or an error") {
  Result<int> good(42);
  CHECK(good.ok());
  CHECK(good.value() == 42);
  Result<int> bad(Status::NotFound("nope"));
  CHECK_FALSE(bad.ok());
  CHECK(bad.status().code() == StatusCode::kNotFound);
}

}  // namespace tfq
