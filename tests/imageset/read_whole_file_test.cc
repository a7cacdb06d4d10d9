// ReadWholeFile: each image file read whole through the I/O seam (io/random_access_file.h), into a
// reused page-aligned buffer or a string; what is not a regular file is bad data, not a bad flag.
#include <doctest/doctest.h>

#include <string>

#include "common/test_env.h"
#include "imageset/record_converter.h"
#include "imageset_test_util.h"

namespace tfq::imageset {
namespace {

TEST_CASE("ReadWholeFile: the bytes of a file, into a string and into a reused buffer") {
  const std::string dir = testing::MakeTempDir();
  const std::string big(300000, 'x');
  testing::WriteFileOrDie(dir + "/big", big);
  testing::WriteFileOrDie(dir + "/small", "abc");
  std::string s;
  REQUIRE(ReadWholeFile(dir + "/big", &s).ok());
  CHECK(s == big);
  SourceBuffer buffer;
  REQUIRE(ReadWholeFile(dir + "/big", &buffer).ok());
  CHECK(std::string(buffer.view()) == big);
  REQUIRE(ReadWholeFile(dir + "/small", &buffer).ok());  // shrinks to the new file
  CHECK(std::string(buffer.view()) == "abc");
  testing::WriteFileOrDie(dir + "/empty", "");
  REQUIRE(ReadWholeFile(dir + "/empty", &s).ok());
  CHECK(s.empty());
}

TEST_CASE("ReadWholeFile: a missing file is kNotFound, a directory kInvalidData, both naming the path") {
  const std::string dir = testing::MakeTempDir();
  std::string s;
  Status missing = ReadWholeFile(dir + "/nope.jpg", &s);
  CHECK(missing.code() == StatusCode::kNotFound);
  CHECK(missing.message().find(dir + "/nope.jpg") != std::string::npos);
  testutil::MakeDir(dir + "/sub");
  Status folder = ReadWholeFile(dir + "/sub", &s);
  CHECK(folder.code() == StatusCode::kInvalidData);
  CHECK(folder.message() == dir + "/sub: not a regular file");
}

}  // namespace
}  // namespace tfq::imageset
