// Object-store streams over an in-memory fake store: read-ahead across block boundaries, skips,
// short bodies, and outputs that exist only once completed. Credentials-file parsing.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>

#include <map>
#include <mutex>

#include "io/file_system.h"
#include "io/object_files.h"
#include "io/object_store_config.h"

namespace tfq {
namespace {

// Objects in a map; uploads kept apart until completed, as S3 does.
class FakeStore final : public ObjectStore {
 public:
  mutable std::mutex mu;
  mutable std::map<std::string, std::string> objects;
  mutable std::map<std::string, std::vector<std::string>> uploads;  // id -> parts
  mutable int aborted = 0, puts = 0, parts = 0;
  mutable size_t truncate_reads_to = SIZE_MAX;
  mutable bool fail_parts = false;
  mutable uint64_t bytes_read = 0, reads = 0;

  Result<uint64_t> Size(const std::string& url) const override {
    std::lock_guard<std::mutex> l(mu);
    auto it = objects.find(url);
    if (it == objects.end()) return Status::NotFound(url + ": no such object");
    return static_cast<uint64_t>(it->second.size());
  }
  Status ReadRange(const std::string& url, uint64_t offset, size_t n, char* dst,
                   const std::atomic<bool>*) const override {
    std::lock_guard<std::mutex> l(mu);
    const std::string& o = objects.at(url);
    const size_t got = std::min(n, truncate_reads_to);
    o.copy(dst, got, offset);
    bytes_read += got;
    ++reads;
    if (got != n) return Status::IoError(url + ": truncated body");
    return Status::OK();
  }
  Result<std::vector<ObjectEntry>> List(const std::string& prefix) const override {
    std::vector<ObjectEntry> out;
    for (const auto& [k, v] : objects) {
      if (k.rfind(prefix, 0) == 0) out.push_back({k, v.size()});
    }
    return out;
  }
  Status PutObject(const std::string& url, std::string_view bytes) const override {
    ++puts;
    objects[url] = std::string(bytes);
    return Status::OK();
  }
  Result<std::string> CreateUpload(const std::string& url) const override {
    const std::string id = "upload" + std::to_string(uploads.size());
    uploads[id];
    return id;
  }
  Result<std::string> UploadPart(const std::string& url, const std::string& id, int number,
                                 std::string_view bytes) const override {
    std::lock_guard<std::mutex> l(mu);
    if (fail_parts) return Status::IoError(url + ": HTTP 500 (injected)");
    ++parts;
    auto& p = uploads.at(id);
    if (p.size() < static_cast<size_t>(number)) p.resize(number);
    p[number - 1] = std::string(bytes);
    return "\"etag" + std::to_string(number) + "\"";
  }
  Status CompleteUpload(const std::string& url, const std::string& id,
                        const std::vector<std::string>& etags) const override {
    std::string all;
    for (const auto& p : uploads.at(id)) all += p;
    CHECK(etags.size() == uploads.at(id).size());
    objects[url] = all;
    uploads.erase(id);
    return Status::OK();
  }
  Status AbortUpload(const std::string&, const std::string& id) const override {
    ++aborted;
    uploads.erase(id);
    return Status::OK();
  }
  Status DeleteObject(const std::string& url) const override {
    objects.erase(url);
    return Status::OK();
  }
};

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + i / 7) & 0xff);
  return s;
}

TEST_CASE("object input: every byte in order across blocks, several in flight") {
  setenv("TFQ_OBJECT_READ_BLOCK_MIB", "1", 1);
  setenv("TFQ_OBJECT_READS_IN_FLIGHT", "3", 1);
  auto store = std::make_shared<FakeStore>();
  const std::string data = Pattern((size_t{5} << 20) + 12345);
  store->objects["s3://b/k"] = data;
  auto in = OpenObjectInput(store, "s3://b/k");
  REQUIRE(in.ok());
  std::string read;
  for (;;) {
    std::string_view v;
    REQUIRE((*in)->Peek(100000, &v).ok());
    if (v.empty()) break;
    read.append(v);
    (*in)->Consume(v.size());
  }
  CHECK(read == data);
  unsetenv("TFQ_OBJECT_READ_BLOCK_MIB");
  unsetenv("TFQ_OBJECT_READS_IN_FLIGHT");
}

TEST_CASE("object input: skips within and past the blocks in flight land on the right byte") {
  setenv("TFQ_OBJECT_READ_BLOCK_MIB", "1", 1);
  setenv("TFQ_OBJECT_READS_IN_FLIGHT", "2", 1);
  auto store = std::make_shared<FakeStore>();
  const std::string data = Pattern(size_t{8} << 20);
  store->objects["s3://b/k"] = data;
  auto in = OpenObjectInput(store, "s3://b/k");
  REQUIRE(in.ok());
  uint64_t pos = 0;
  for (uint64_t jump : {uint64_t{10}, uint64_t{700000}, uint64_t{5} << 20, uint64_t{3}}) {
    uint64_t skipped = 0;
    REQUIRE((*in)->Skip(jump, &skipped).ok());
    CHECK(skipped == jump);
    pos += jump;
    std::string_view v;
    REQUIRE((*in)->Peek(16, &v).ok());
    CHECK(v.substr(0, 16) == std::string_view(data).substr(pos, 16));
  }
  unsetenv("TFQ_OBJECT_READ_BLOCK_MIB");
  unsetenv("TFQ_OBJECT_READS_IN_FLIGHT");
}

TEST_CASE("object input read kSkipping: headers only while the skips are a block or more") {
  setenv("TFQ_OBJECT_READ_BLOCK_MIB", "1", 1);
  auto store = std::make_shared<FakeStore>();
  const std::string data = Pattern(size_t{20} << 20);
  store->objects["s3://b/k"] = data;
  // Records of 2 MiB: a 12-byte header, then a skip past the payload.
  auto in = OpenObjectInput(store, "s3://b/k", ReadPattern::kSkipping);
  REQUIRE(in.ok());
  uint64_t pos = 0;
  while (pos + 12 <= data.size()) {
    std::string_view v;
    REQUIRE((*in)->Peek(12, &v).ok());
    CHECK(v.substr(0, 12) == std::string_view(data).substr(pos, 12));
    uint64_t skipped = 0;
    REQUIRE((*in)->Skip(std::min<uint64_t>(size_t{2} << 20, data.size() - pos), &skipped).ok());
    pos += skipped;
  }
  CHECK(store->reads == 10);
  CHECK(store->bytes_read == 10 * (size_t{16} << 10));
  in->reset();

  // Small records: after the first probe, every byte is streamed, in order.
  store->bytes_read = store->reads = 0;
  in = OpenObjectInput(store, "s3://b/k", ReadPattern::kSkipping);
  REQUIRE(in.ok());
  std::string read;
  for (;;) {
    std::string_view v;
    REQUIRE((*in)->Peek(1000, &v).ok());
    if (v.empty()) break;
    const size_t n = std::min<size_t>(v.size(), 1000);
    read.append(v.substr(0, n));
    (*in)->Consume(n);
  }
  CHECK(read == data);
  CHECK(store->bytes_read == data.size());
  CHECK(store->reads == 1 + 20);
  unsetenv("TFQ_OBJECT_READ_BLOCK_MIB");
}

TEST_CASE("object input: a short body is an error naming the URL, not an early end") {
  auto store = std::make_shared<FakeStore>();
  store->objects["s3://b/k"] = Pattern(1000);
  store->truncate_reads_to = 10;
  auto in = OpenObjectInput(store, "s3://b/k");
  REQUIRE(in.ok());
  std::string_view v;
  Status s = (*in)->Peek(1000, &v);
  CHECK_FALSE(s.ok());
  CHECK(s.message().find("s3://b/k") != std::string::npos);
}

TEST_CASE("object input: a missing object is kNotFound at open") {
  auto in = OpenObjectInput(std::make_shared<FakeStore>(), "s3://b/none");
  CHECK(in.status().code() == StatusCode::kNotFound);
}

TEST_CASE("object output: small outputs are one PUT at Close; nothing before") {
  auto store = std::make_shared<FakeStore>();
  auto out = NewObjectOutput(store, "s3://b/o");
  REQUIRE(out->Write("hello").ok());
  CHECK(store->objects.count("s3://b/o") == 0);
  REQUIRE(out->Close().ok());
  CHECK(store->objects["s3://b/o"] == "hello");
  CHECK(store->puts == 1);
}

TEST_CASE("object output: large outputs are a multipart upload that appears only at Close") {
  setenv("TFQ_UPLOAD_PART_MIB", "5", 1);
  auto store = std::make_shared<FakeStore>();
  const std::string data = Pattern((size_t{12} << 20) + 7);
  {
    auto out = NewObjectOutput(store, "s3://b/o");
    for (size_t i = 0; i < data.size(); i += 999999) REQUIRE(out->Write(std::string_view(data).substr(i, 999999)).ok());
    CHECK(store->objects.count("s3://b/o") == 0);
    REQUIRE(out->Close().ok());
  }
  CHECK(store->objects["s3://b/o"] == data);
  CHECK(store->parts == 3);
  CHECK(store->uploads.empty());
  unsetenv("TFQ_UPLOAD_PART_MIB");
}

TEST_CASE("object output: destroyed unclosed, or failing, the upload is aborted and no object appears") {
  setenv("TFQ_UPLOAD_PART_MIB", "5", 1);
  auto store = std::make_shared<FakeStore>();
  const std::string data = Pattern(size_t{11} << 20);
  {
    auto out = NewObjectOutput(store, "s3://b/o");
    REQUIRE(out->Write(data).ok());
  }
  CHECK(store->objects.empty());
  CHECK(store->aborted == 1);
  store->fail_parts = true;
  {
    auto out = NewObjectOutput(store, "s3://b/o");
    Status s = out->Write(data);
    if (s.ok()) s = out->Close();
    CHECK_FALSE(s.ok());
    CHECK(s.message().find("s3://b/o") != std::string::npos);
  }
  CHECK(store->objects.empty());
  CHECK(store->aborted == 2);
  CHECK(store->uploads.empty());
  unsetenv("TFQ_UPLOAD_PART_MIB");
}

TEST_CASE("credentials file: the named profile's keys, and which file they came from") {
  const std::string text =
      "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = s1\n\n"
      "[dev]\n# comment\naws_access_key_id=AKIDDEV\naws_secret_access_key=s2\naws_session_token = t\n"
      "[broken]\naws_access_key_id=AKIDX\n";
  StoreConfig c;
  bool found = false;
  REQUIRE(ParseAwsCredentialsFile(text, "dev", &c, &found).ok());
  CHECK(found);
  CHECK(c.auth == StoreAuth::kSigV4);
  CHECK(c.keys.access_key_id == "AKIDDEV");
  CHECK(c.keys.secret_access_key == "s2");
  CHECK(c.session_token == "t");
  StoreConfig d;
  REQUIRE(ParseAwsCredentialsFile(text, "nope", &d, &found).ok());
  CHECK_FALSE(found);
  CHECK(d.auth == StoreAuth::kAnonymous);
  StoreConfig e;
  e.credential_source = "profile 'broken' in f";
  Status s = ParseAwsCredentialsFile(text, "broken", &e, &found);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message().find("without aws_secret_access_key") != std::string::npos);
  CHECK(s.message().find("AKIDX") == std::string::npos);  // never a key in a message
}

TEST_CASE("file system registry: URLs go to their scheme's FileSystem, local paths to none") {
  CHECK(FileSystemForUrl("data/x.tfrecord") == nullptr);
  CHECK(FileSystemForUrl("s3://b/k") != nullptr);
  CHECK(FileSystemForUrl("gs://b/k") == FileSystemForUrl("https://h/k"));
  CHECK(FileSystemForUrl("ftp://h/k") == nullptr);
  // file:///abs/path is the local path again.
  char dir[] = "/tmp/tfq-file-url-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const std::string path = std::string(dir) + "/x";
  {
    auto out = CreateOutputFile("file://" + path);
    REQUIRE(out.ok());
    REQUIRE((*out)->Write("abc").ok());
    REQUIRE((*out)->Close().ok());
  }
  auto in = OpenInputFile("file://" + path);
  REQUIRE(in.ok());
  std::string_view v;
  REQUIRE((*in)->Peek(3, &v).ok());
  CHECK(v == "abc");
  std::remove(path.c_str());
  rmdir(dir);
  auto r = OpenInputFile("ftp://h/k");
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message().find("ftp://h/k") != std::string::npos);
}

}  // namespace
}  // namespace tfq
