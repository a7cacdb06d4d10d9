#include "imageset/dataset.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cerrno>

#include "imageset_test_util.h"

namespace tfq::imageset {
namespace {

using testutil::MakeDir;
using testutil::Put;

// root/{zebra,ant,mole}/..., plus a stray top-level file and a hidden file.
std::string MakeFolder() {
  const std::string root = tfq::testing::MakeTempDir() + "/set";
  MakeDir(root);
  for (const char* c : {"zebra", "ant", "mole"}) MakeDir(root + "/" + c);
  Put(root + "/zebra/b.jpg", "x");
  Put(root + "/zebra/a.jpg", "xy");
  Put(root + "/ant/1.png", "x");
  MakeDir(root + "/ant/nested");
  Put(root + "/ant/nested/2.jpg", "x");
  Put(root + "/ant/.hidden.jpg", "x");
  Put(root + "/README", "x");
  return root;
}

TEST_CASE("folders: classes in sorted order, labels 0-based, files sorted, stray files ignored") {
  const std::string root = MakeFolder();
  DatasetOptions o;
  o.root = root;
  auto ds = LoadDataset(o);
  REQUIRE(ds.ok());
  CHECK(ds->class_names == std::vector<std::string>{"ant", "mole", "zebra"});
  REQUIRE(ds->entries.size() == 4);
  CHECK(ds->entries[0].path == root + "/ant/1.png");
  CHECK(ds->entries[1].path == root + "/ant/nested/2.jpg");
  CHECK(ds->entries[2].path == root + "/zebra/a.jpg");
  CHECK(ds->entries[2].bytes == 2);
  CHECK(ds->entries[0].label == 0);
  CHECK(ds->entries[2].label == 2);
  CHECK(ds->entries[2].class_text == "zebra");
  CHECK(ds->ignored_files == 1);

  o.label_offset = 1;  // tensorflow/models: 0 is background
  ds = LoadDataset(o);
  REQUIRE(ds.ok());
  CHECK(ds->entries[0].label == 1);
  CHECK(ds->entries[3].label == 3);
}

TEST_CASE("--labels: the file's order decides; a class missing from it is an error") {
  const std::string root = MakeFolder();
  const std::string labels = root + "/../labels.txt";
  Put(labels, "zebra\r\n\nmole\nant\nextra\n");
  DatasetOptions o;
  o.root = root;
  o.labels_file = labels;
  auto ds = LoadDataset(o);
  REQUIRE(ds.ok());
  CHECK(ds->class_names == std::vector<std::string>{"zebra", "mole", "ant", "extra"});
  CHECK(ds->entries[0].label == 2);  // ant
  CHECK(ds->entries[2].label == 0);  // zebra
  Put(labels, "zebra\nant\n");
  ds = LoadDataset(o);
  CHECK(ds.status().code() == StatusCode::kInvalidArgument);
  CHECK(ds.status().message().find("mole") != std::string::npos);
  Put(labels, "a\nb\na\n");
  CHECK(ReadLabelsFile(labels).status().code() == StatusCode::kInvalidData);
}

TEST_CASE("folders: a path the listing cannot look at is an input that fails, in its place") {
  const std::string root = MakeFolder();
  REQUIRE(symlink("/nonexistent/x.jpg", (root + "/zebra/c.jpg").c_str()) == 0);
  REQUIRE(symlink(".", (root + "/mole/loop").c_str()) == 0);   // a folder seen through a loop
  REQUIRE(symlink("/nonexistent/class", (root + "/gone").c_str()) == 0);  // a class folder, maybe
  DatasetOptions o;
  o.root = root;
  auto ds = LoadDataset(o);
  REQUIRE_MESSAGE(ds.ok(), ds.status().message());
  CHECK(ds->class_names == std::vector<std::string>{"ant", "mole", "zebra"});
  std::vector<std::string> failing;
  for (const ImageEntry& e : ds->entries) {
    if (e.problem != ListingProblem::kNone) failing.push_back(e.path + " | " + ListingFailure(e).message());
  }
  REQUIRE(failing.size() == 3);
  CHECK(failing[0] == root + "/gone | " + root + "/gone: a symbolic link to a path that does not exist");
  CHECK(failing[1] == root + "/mole/loop | " + root + "/mole/loop: Too many levels of symbolic links");
  CHECK(failing[2] == root + "/zebra/c.jpg | " + root + "/zebra/c.jpg: a symbolic link to a path that does not exist");
  CHECK(ds->entries.back().path == root + "/zebra/c.jpg");  // in byte order, after a.jpg and b.jpg
  CHECK(ListingFailure(ds->entries.back()).code() == StatusCode::kNotFound);

  ImageEntry folder;
  folder.path = root + "/secret";
  folder.problem = ListingProblem::kNoListing;
  folder.problem_errno = EACCES;
  CHECK(ListingFailure(folder).message() == root + "/secret: cannot list this folder, its files are skipped: Permission denied");
}

TEST_CASE("unlabelled sets: a flat folder, a manifest without a label column") {
  const std::string root = tfq::testing::MakeTempDir() + "/flat";
  MakeDir(root);
  Put(root + "/b.jpg", "x");
  Put(root + "/a.png", "xy");
  Put(root + "/.hidden.jpg", "x");
  DatasetOptions o;
  o.root = root;
  auto ds = LoadDataset(o);
  REQUIRE(ds.ok());
  CHECK_FALSE(ds->labelled);
  CHECK(ds->class_names.empty());
  REQUIRE(ds->entries.size() == 2);
  CHECK(ds->entries[0].path == root + "/a.png");
  CHECK(ds->entries[0].bytes == 2);
  CHECK(ds->entries[1].path == root + "/b.jpg");
  CHECK(ds->ignored_files == 0);
  o.label_offset = 1;
  CHECK(LoadDataset(o).status().message() == "--label-offset: " + root + " holds no class folders: the set has no labels");
  o.label_offset = 0;
  o.labels_file = root + "/b.jpg";
  CHECK(LoadDataset(o).status().code() == StatusCode::kInvalidArgument);
  o.labels_file.clear();

  Put(root + "/../m.csv", "path,weight\na.png,1\nb.jpg,2\n");
  o.manifest = root + "/../m.csv";
  ds = LoadDataset(o);
  REQUIRE(ds.ok());
  CHECK_FALSE(ds->labelled);
  CHECK(ds->entries.size() == 2);
  CHECK(ds->extra_columns.size() == 1);
  Put(root + "/../m.jsonl", "{\"path\": \"a.png\"}\n{\"path\": \"b.jpg\"}\n");
  o.manifest = root + "/../m.jsonl";
  ds = LoadDataset(o);
  REQUIRE(ds.ok());
  CHECK_FALSE(ds->labelled);
  Put(root + "/../mixed.jsonl", "{\"path\": \"a.png\"}\n{\"path\": \"b.jpg\", \"label\": 1}\n");
  o.manifest = root + "/../mixed.jsonl";
  auto mixed = LoadDataset(o);
  CHECK(mixed.status().code() == StatusCode::kInvalidData);
  CHECK(mixed.status().message().find("line 2: has a \"label\", but the first line has none") != std::string::npos);
}

TEST_CASE("folders: errors") {
  DatasetOptions o;
  o.root = tfq::testing::MakeTempDir() + "/missing";
  CHECK(LoadDataset(o).status().code() == StatusCode::kNotFound);
  o.root = tfq::testing::MakeTempDir();
  CHECK(LoadDataset(o).status().code() == StatusCode::kInvalidArgument);  // no class folders
  MakeDir(o.root + "/empty");
  CHECK(LoadDataset(o).status().code() == StatusCode::kInvalidArgument);  // no files
}

TEST_CASE("CSV manifest: class-name labels, extra columns typed as CSV columns") {
  const std::string root = tfq::testing::MakeTempDir();
  Put(root + "/m.csv",
      "path,label,weight,count,note\n"
      "a.jpg,dog,0.5,3,hello\n"
      "/abs/b.jpg,cat,1,,\"x,y\"\n"
      "c.jpg,dog,,7,007\n");
  DatasetOptions o;
  o.root = root;
  o.manifest = root + "/m.csv";
  auto ds = LoadDataset(o);
  REQUIRE(ds.ok());
  CHECK(ds->class_names == std::vector<std::string>{"cat", "dog"});
  REQUIRE(ds->entries.size() == 3);
  CHECK(ds->entries[0].path == root + "/a.jpg");
  CHECK(ds->entries[1].path == "/abs/b.jpg");
  CHECK(ds->entries[0].label == 1);
  CHECK(ds->entries[1].label == 0);
  REQUIRE(ds->extra_columns.size() == 3);
  CHECK(ds->extra_columns[0].name == "weight");
  CHECK(ds->extra_columns[0].kind == FeatureKind::kFloat);
  CHECK(ds->extra_columns[1].kind == FeatureKind::kInt64);
  CHECK(ds->extra_columns[2].kind == FeatureKind::kBytes);
  CHECK(ds->entries[1].extras[2] == "x,y");
  CHECK(ds->entries[1].extras[1].empty());

  Put(root + "/bad.csv", "file,label\na.jpg,1\n");
  o.manifest = root + "/bad.csv";
  CHECK(LoadDataset(o).status().code() == StatusCode::kInvalidData);
}

TEST_CASE("JSON lines manifest: numeric labels used as given, strings stay bytes") {
  const std::string root = tfq::testing::MakeTempDir();
  Put(root + "/m.jsonl",
      "{\"path\": \"a.jpg\", \"label\": 4, \"id\": \"17\", \"score\": 2}\n"
      "\n"
      "{\"path\": \"b.jpg\", \"label\": 0, \"score\": 2.5}\n");
  DatasetOptions o;
  o.root = root;
  o.manifest = root + "/m.jsonl";
  o.label_offset = 1;
  auto ds = LoadDataset(o);
  REQUIRE(ds.ok());
  CHECK(ds->class_names.empty());
  CHECK(ds->entries[0].label == 5);
  CHECK(ds->entries[0].class_text == "4");
  CHECK(ds->entries[1].label == 1);
  REQUIRE(ds->extra_columns.size() == 2);
  CHECK(ds->extra_columns[0].name == "id");
  CHECK(ds->extra_columns[0].kind == FeatureKind::kBytes);
  CHECK(ds->extra_columns[1].kind == FeatureKind::kFloat);
  CHECK(ds->entries[1].extras[0].empty());

  Put(root + "/names.txt", "zero\none\ntwo\nthree\nfour\n");
  o.labels_file = root + "/names.txt";
  ds = LoadDataset(o);
  REQUIRE(ds.ok());
  CHECK(ds->entries[0].class_text == "four");

  Put(root + "/bad.jsonl", "{\"label\": 1}\n");
  o.manifest = root + "/bad.jsonl";
  auto bad = LoadDataset(o);
  CHECK(bad.status().code() == StatusCode::kInvalidData);
  CHECK(bad.status().message().find("line 1") != std::string::npos);
}

}  // namespace
}  // namespace tfq::imageset
