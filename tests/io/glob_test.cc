// Input path expansion: sorted glob matches, plain paths kept as given, our temporaries excluded.
#include "io/glob.h"

#include <doctest/doctest.h>

#include "common/test_env.h"
#include "io_test_util.h"

namespace tfq {
namespace {

using testing::MakeTempDir;
using testing::WriteFileOrDie;
using Paths = std::vector<std::string>;

TEST_CASE("a glob expands to its matches in byte order") {
  std::string d = MakeTempDir();
  for (const char* name : {"train-00002-of-00003", "train-00000-of-00003", "train-00001-of-00003",
                           "Train-upper", "test-00000-of-00001"}) {
    WriteFileOrDie(d + "/" + name, "");
  }
  auto r = ExpandInputPaths({d + "/train-*-of-*"});
  REQUIRE(r.ok());
  CHECK(r.value() == Paths{d + "/train-00000-of-00003", d + "/train-00001-of-00003",
                           d + "/train-00002-of-00003"});
  r = ExpandInputPaths({d + "/*"});
  REQUIRE(r.ok());
  CHECK(r.value().front() == d + "/Train-upper");  // 'T' < 't' in bytes, whatever the locale
  CHECK(r.value().size() == 5);
  r = ExpandInputPaths({d + "/train-0000[01]-of-?????"});
  REQUIRE(r.ok());
  CHECK(r.value().size() == 2);
}

TEST_CASE("arguments keep their order; plain paths and \"-\" are kept as given") {
  std::string d = MakeTempDir();
  WriteFileOrDie(d + "/b1", "");
  WriteFileOrDie(d + "/a1", "");
  auto r = ExpandInputPaths({d + "/a1", d + "/b*", "-", d + "/a*", d + "/a1", d});
  REQUIRE(r.ok());
  CHECK(r.value() == Paths{d + "/a1", d + "/b1", "-", d + "/a1", d + "/a1", d});
  CHECK(ExpandInputPaths({}).value().empty());
}

TEST_CASE("a missing plain path is kNotFound naming it, before any later argument is looked at") {
  std::string d = MakeTempDir();
  WriteFileOrDie(d + "/a1", "");
  auto r = ExpandInputPaths({d + "/a1", d + "/missing.tfrecord", d + "/x-*"});
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kNotFound);
  CHECK(r.status().message() == d + "/missing.tfrecord: No such file or directory");
  r = ExpandInputPaths({d + "/a1", d + "/missing.tfrecord"}, /*check_existence=*/false);
  REQUIRE(r.ok());
  CHECK(r.value() == Paths{d + "/a1", d + "/missing.tfrecord"});
}

TEST_CASE("URLs of schemes no FileSystem serves are refused, naming the URL") {
  for (const char* url : {"ftp://host/train-*", "hdfs://b/k.tfrecord", "az://c/x"}) {
    auto r = ExpandInputPaths({url});
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == StatusCode::kInvalidArgument);
    CHECK(r.status().message().find(std::string(url) + ": ") == 0);
    CHECK(r.status().message().find("URLs are not supported (tfq reads s3://") != std::string::npos);
  }
}

TEST_CASE("the manifests tfq writes beside shards are not inputs, whoever expanded the glob") {
  std::string d = MakeTempDir();
  WriteFileOrDie(d + "/train-00000-of-00002", "");
  WriteFileOrDie(d + "/train-00001-of-00002", "");
  WriteFileOrDie(d + "/train.manifest.json", "{}");
  WriteFileOrDie(d + "/train.manifest-00000-of-00002.json", "{}");
  auto r = ExpandInputPaths({d + "/*"});
  REQUIRE(r.ok());
  CHECK(r.value() == Paths{d + "/train-00000-of-00002", d + "/train-00001-of-00002"});
  r = ExpandInputPaths({d + "/train.manifest.json", d + "/train-00000-of-00002"});
  REQUIRE(r.ok());
  CHECK(r.value() == Paths{d + "/train-00000-of-00002"});
  r = ExpandInputPaths({d + "/train.manifest.json"});
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message().rfind(d + "/train.manifest.json: is the manifest", 0) == 0);
}

TEST_CASE("a glob that matches nothing is kNotFound naming the pattern") {
  std::string d = MakeTempDir();
  auto r = ExpandInputPaths({d + "/x-*"});
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kNotFound);
  CHECK(r.status().message() == "no files match '" + d + "/x-*'");
  r = ExpandInputPaths({d + "/no-such-dir/*"});
  CHECK(r.status().code() == StatusCode::kNotFound);
}

TEST_CASE("temporaries of unfinished outputs never match") {
  std::string d = MakeTempDir();
  WriteFileOrDie(d + "/shard-0", "");
  WriteFileOrDie(d + "/.tfq-partial.shard-1.1234", "");
  WriteFileOrDie(d + "/.hidden-shard", "");
  auto r = ExpandInputPaths({d + "/*shard*"});
  REQUIRE(r.ok());
  CHECK(r.value() == Paths{d + "/shard-0"});
  r = ExpandInputPaths({d + "/.*shard*"});
  REQUIRE(r.ok());
  CHECK(r.value() == Paths{d + "/.hidden-shard"});
  CHECK(ExpandInputPaths({d + "/.tfq-partial.*"}).status().code() == StatusCode::kNotFound);
}

TEST_CASE("a file whose name contains glob characters is found literally") {
  std::string d = MakeTempDir();
  WriteFileOrDie(d + "/data[1].tfrecord", "");
  auto r = ExpandInputPaths({d + "/data[1].tfrecord"});
  REQUIRE(r.ok());
  CHECK(r.value() == Paths{d + "/data[1].tfrecord"});
}

}  // namespace
}  // namespace tfq
