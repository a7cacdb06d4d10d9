// ConvertImageSet on small folders made in the test: failure accounting, determinism across
// thread counts, and task partitioning (every shard written by exactly one task, byte-identical).
#include "imageset/image_set.h"

#include <dirent.h>
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "imageset/run_manifest.h"
#include "imageset/sha256.h"
#include "imageset_test_util.h"

namespace tfq::imageset {
namespace {

using testutil::MakeDir;
using testutil::MakeJpeg;
using testutil::Put;

std::string MakeSet() {
  const std::string root = tfq::testing::MakeTempDir() + "/imgs";
  MakeDir(root);
  for (int c = 0; c < 3; ++c) {
    const std::string dir = root + "/class" + std::to_string(c);
    MakeDir(dir);
    for (int i = 0; i < 9; ++i) Put(dir + "/" + std::to_string(i) + ".jpg", MakeJpeg(40 + 3 * i, 30 + c, i + 10 * c));
  }
  Put(root + "/class1/empty.jpg", "");
  Put(root + "/class2/text.jpg", "hello");
  return root;
}

ImageSetOptions Options(const std::string& root, const std::string& prefix) {
  ImageSetOptions o;
  o.dataset.root = root;
  o.prefix = prefix;
  o.num_shards = 5;
  o.convert.resize = {image::ResizeMode::kExact, 16, 16};
  return o;
}

// The names in `dir`, sorted (hidden ones included: temporaries are hidden).
std::vector<std::string> Listing(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

struct Collect : ImageSetObserver {
  std::vector<std::string> failed;
  void OnFailure(const ImageFailure& f) override { failed.push_back(f.path); }
};

TEST_CASE("image set: records + failures = files, failures listed in order") {
  const std::string root = MakeSet();
  const std::string out = tfq::testing::MakeTempDir();
  Collect observer;
  auto r = ConvertImageSet(Options(root, out + "/a/train"), &observer);
  REQUIRE(r.ok());
  CHECK(r->files_found == 29);
  CHECK(r->records == 27);
  CHECK(r->failures == 2);
  CHECK(observer.failed.size() == 2);
  CHECK(r->shard_paths.size() == 5);
  auto m = ReadManifestFile(out + "/a/train.manifest.json");
  REQUIRE(m.ok());
  CHECK(m->records() + m->failures.size() == m->files_found);
  CHECK(m->failures[0].position < m->failures[1].position);
  // The checksums, taken as the shards were written, are those of the files.
  REQUIRE(m->shards.size() == 5);
  for (const ShardEntry& e : m->shards) {
    const std::string bytes = tfq::testing::ReadFileOrDie(out + "/a/" + e.file);
    CHECK(e.bytes == bytes.size());
    CHECK(e.sha256 == Sha256Hex(bytes));
  }
}

TEST_CASE("image set: same bytes for 1 and 3 threads; 3 tasks write what one run writes") {
  const std::string root = MakeSet();
  const std::string out = tfq::testing::MakeTempDir();
  ImageSetOptions o = Options(root, out + "/one/train");
  o.threads = 1;
  REQUIRE(ConvertImageSet(o, nullptr).ok());
  o.threads = 3;
  o.prefix = out + "/three/train";
  REQUIRE(ConvertImageSet(o, nullptr).ok());
  for (int t = 0; t < 3; ++t) {
    o.prefix = out + "/tasks/train";
    o.threads = 2;
    o.task_index = t;
    o.num_tasks = 3;
    auto r = ConvertImageSet(o, nullptr);
    REQUIRE(r.ok());
    CHECK(r->shard_paths.size() == (t < 2 ? 2u : 1u));  // shards 0,3 / 1,4 / 2
  }
  REQUIRE(MergeImageSetManifests(out + "/tasks/train", 3).ok());
  for (const char* name : {"train-00000-of-00005", "train-00001-of-00005", "train-00004-of-00005",
                           "train.manifest.json"}) {
    const std::string one = tfq::testing::ReadFileOrDie(out + "/one/" + name);
    CHECK(one == tfq::testing::ReadFileOrDie(out + "/three/" + name));
    CHECK(one == tfq::testing::ReadFileOrDie(out + "/tasks/" + name));
  }
}

TEST_CASE("image set: merging checks that every shard is still the file its task wrote") {
  const std::string root = MakeSet();
  const std::string prefix = tfq::testing::MakeTempDir() + "/train";
  ImageSetOptions o = Options(root, prefix);
  o.num_tasks = 2;
  for (uint64_t t = 0; t < 2; ++t) {
    o.task_index = t;
    REQUIRE(ConvertImageSet(o, nullptr).ok());
  }
  auto merged = MergeImageSetManifests(prefix, 2, 2);
  REQUIRE(merged.ok());
  CHECK(merged->shard_paths.size() == 5);
  CHECK(merged->records == 27);
  CHECK(merged->failures == 2);

  // Same size, one byte changed: only the checksum tells.
  const std::string shard3 = prefix + "-00003-of-00005";
  const std::string good = tfq::testing::ReadFileOrDie(shard3);
  std::string bad = good;
  bad[bad.size() / 2] ^= 1;
  Put(shard3, bad);
  Status s = MergeImageSetManifests(prefix, 2, 2).status();
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(s.message().rfind(shard3 + ": SHA-256 ", 0) == 0);
  CHECK(s.message().find(prefix + ".manifest-00001-of-00002.json records") != std::string::npos);
  CHECK(s.message().find("run task 1 again") != std::string::npos);
  Put(shard3, good.substr(0, 10));
  s = MergeImageSetManifests(prefix, 2, 1).status();
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(s.message().rfind(shard3 + ": 10 bytes, but ", 0) == 0);
  // The lowest index is reported, whatever the thread count.
  const std::string shard0 = prefix + "-00000-of-00005";
  REQUIRE(unlink(shard0.c_str()) == 0);
  for (int threads : {1, 4}) {
    s = MergeImageSetManifests(prefix, 2, threads).status();
    CHECK(s.code() == StatusCode::kNotFound);
    CHECK(s.message().rfind(shard0 + ": shard 0, listed in " + prefix + ".manifest-00000-of-00002.json, does not exist", 0) == 0);
  }
}

TEST_CASE("image set: a flat folder converts without label features; the manifest says so") {
  const std::string root = tfq::testing::MakeTempDir() + "/flat";
  MakeDir(root);
  for (int i = 0; i < 4; ++i) Put(root + "/" + std::to_string(i) + ".jpg", MakeJpeg(20 + i, 20, i));
  const std::string out = tfq::testing::MakeTempDir();
  ImageSetOptions o = Options(root, out + "/train");
  o.num_shards = 1;
  auto r = ConvertImageSet(o, nullptr);
  REQUIRE_MESSAGE(r.ok(), r.status().message());
  CHECK(r->records == 4);
  auto m = ReadManifestFile(out + "/train.manifest.json");
  REQUIRE(m.ok());
  CHECK_FALSE(m->labelled);
  CHECK(m->class_names.empty());
  for (const auto& key : m->options["features"]) CHECK(key.get<std::string>().find("class") == std::string::npos);
  const std::string shard = tfq::testing::ReadFileOrDie(out + "/train-00000-of-00001");
  CHECK(shard.find("image/class/") == std::string::npos);
  CHECK(shard.find("image/encoded") != std::string::npos);
  o.labels_out = out + "/labels.txt";
  CHECK(ConvertImageSet(o, nullptr).status().message() == "--labels-out: the set has no labels");
}

TEST_CASE("image set: --strict stops at the first failure and leaves no shard") {
  const std::string root = MakeSet();
  const std::string out = tfq::testing::MakeTempDir();
  ImageSetOptions o = Options(root, out + "/train");
  o.strict = true;
  auto r = ConvertImageSet(o, nullptr);
  CHECK(!r.ok());
  CHECK(r.status().code() != StatusCode::kOk);
  struct stat st;
  CHECK(stat((out + "/train-00000-of-00005").c_str(), &st) != 0);
  o.strict = false;
  o.max_failures = 1;
  CHECK(ConvertImageSet(o, nullptr).status().code() == StatusCode::kInvalidData);
  o.max_failures = 2;
  CHECK(ConvertImageSet(o, nullptr).ok());
}

TEST_CASE("image set: --shard-size picks the same count in every task") {
  const std::string root = MakeSet();
  const std::string out = tfq::testing::MakeTempDir();
  ImageSetOptions o = Options(root, out + "/train");
  o.num_shards = 0;
  o.shard_size = 4000;
  auto r = ConvertImageSet(o, nullptr);
  REQUIRE(r.ok());
  CHECK(r->shard_paths.size() > 1);
  o.task_index = 1;
  o.num_tasks = 2;
  o.prefix = out + "/t/train";
  auto t = ConvertImageSet(o, nullptr);
  REQUIRE(t.ok());
  CHECK(t->shard_paths.size() == r->shard_paths.size() / 2);
}

TEST_CASE("image set: shards, labels and manifest take their final names together, or none does") {
  const std::string root = MakeSet();
  const std::string out = tfq::testing::MakeTempDir();
  ImageSetOptions o = Options(root, out + "/train");
  MakeDir(out + "/train.manifest.json");  // the manifest cannot be written there
  auto r = ConvertImageSet(o, nullptr);
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message() == out + "/train.manifest.json: is a directory");
  CHECK(Listing(out) == std::vector<std::string>{"train.manifest.json"});
  rmdir((out + "/train.manifest.json").c_str());
  tfq::testing::WriteFileOrDie(out + "/file", "");
  o.labels_out = out + "/file/labels.txt";  // under a file: cannot be created
  CHECK_FALSE(ConvertImageSet(o, nullptr).ok());
  CHECK(Listing(out) == std::vector<std::string>{"file"});
  unlink((out + "/file").c_str());
  o.labels_out = out + "/labels.txt";
  REQUIRE(ConvertImageSet(o, nullptr).ok());
  CHECK(Listing(out).size() == 5 + 2);
  CHECK(tfq::testing::ReadFileOrDie(out + "/labels.txt") == "class0\nclass1\nclass2\n");
}

TEST_CASE("image set: a class name that is not UTF-8 is U+FFFD in the manifest, its bytes in the records") {
  const std::string root = tfq::testing::MakeTempDir() + "/imgs";
  MakeDir(root);
  MakeDir(root + "/caf\xe9");
  Put(root + "/caf\xe9/a.jpg", MakeJpeg(20, 20, 1));
  Put(root + "/caf\xe9/bad\xe8.jpg", "text");
  const std::string out = tfq::testing::MakeTempDir();
  ImageSetOptions o = Options(root, out + "/train");
  o.num_shards = 1;
  o.labels_out = out + "/labels.txt";
  auto r = ConvertImageSet(o, nullptr);
  REQUIRE(r.ok());
  CHECK(r->failures == 1);
  auto m = ReadManifestFile(out + "/train.manifest.json");
  REQUIRE(m.ok());
  CHECK(m->class_names == std::vector<std::string>{"caf\xEF\xBF\xBD"});
  CHECK(m->failures[0].path == root + "/caf\xEF\xBF\xBD/bad\xEF\xBF\xBD.jpg");
  CHECK(tfq::testing::ReadFileOrDie(out + "/labels.txt") == "caf\xe9\n");  // the bytes, for --labels
  const std::string shard = tfq::testing::ReadFileOrDie(out + "/train-00000-of-00001");
  CHECK(shard.find("caf\xe9") != std::string::npos);
}

}  // namespace
}  // namespace tfq::imageset
