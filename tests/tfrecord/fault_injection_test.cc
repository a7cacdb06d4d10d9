// Injected disk-full and read errors against the record writer, the sharded writer and the
// reader: the error names the file and says what happened, and no output is left behind.
#include <doctest/doctest.h>

#include <filesystem>

#include "common/fault_streams.h"
#include "common/test_env.h"
#include "io/file_streams.h"
#include "tfrecord/open.h"
#include "tfrecord/record_reader.h"
#include "tfrecord/record_writer.h"
#include "tfrecord/sharded_writer.h"

namespace tfq::tfrecord {
namespace {

using tfq::testing::FailingInputStream;
using tfq::testing::FailingOutputStream;

constexpr std::string_view kDiskFull = ": disk full (No space left on device)";

bool Contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

TEST_CASE("RecordWriter passes a full disk up unchanged and stops counting") {
  FailingOutputStream out("out.tfrecord", 100);
  RecordWriter w(&out);
  Status s;
  int written = 0;
  for (; written < 10 && s.ok(); ++written) s = w.Write(std::string(30, 'r'));
  CHECK(s.message() == std::string("out.tfrecord") + std::string(kDiskFull) +
                           "; free some space or write elsewhere");
  CHECK(w.records_written() == 2);  // 2 * 46 bytes fit in 100; the third crossed it
}

// A sharded writer whose shard `failing` runs out of space after `budget` bytes, in Write or in
// Close (written to real temporaries, so the test sees what is left on disk).
ShardedWriterOptions FailingShardOptions(const std::string& prefix, uint64_t failing, uint64_t budget,
                                         FailingOutputStream::FailAt at = FailingOutputStream::FailAt::kWrite) {
  ShardedWriterOptions o;
  o.prefix = prefix;
  o.num_shards = 4;
  o.create_output = [=](const std::string& path, Compression c) -> Result<std::unique_ptr<OutputStream>> {
    auto real = CreateRecordOutput(path, c);
    if (!real.ok()) return real.status();
    if (path != ShardName(prefix, failing, 4)) return real;
    return std::unique_ptr<OutputStream>(
        std::make_unique<FailingOutputStream>(path, budget, std::move(real).value(), ENOSPC, at));
  };
  return o;
}

TEST_CASE("ShardedRecordWriter: disk full in Write leaves no shard and no temporary") {
  const std::string dir = tfq::testing::MakeTempDir();
  Status s;
  {
    auto w = ShardedRecordWriter::Create(FailingShardOptions(dir + "/train", 2, 500));
    REQUIRE(w.ok());
    for (uint64_t i = 0; i < 400 && s.ok(); ++i) s = (*w)->Write(i % 4, "record " + std::to_string(i));
  }
  CHECK(s.code() == StatusCode::kIoError);
  CHECK(Contains(s.message(), ShardName(dir + "/train", 2, 4) + std::string(kDiskFull)));
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("ShardedRecordWriter: disk full in Close takes back the shards already completed") {
  const std::string dir = tfq::testing::MakeTempDir();
  auto w = ShardedRecordWriter::Create(
      FailingShardOptions(dir + "/train", 1, 100, FailingOutputStream::FailAt::kClose));
  REQUIRE(w.ok());
  for (uint64_t i = 0; i < 40; ++i) REQUIRE((*w)->Write(i % 4, "rec " + std::to_string(1000 + i)).ok());
  Status s = (*w)->Close();  // shard 0 is renamed into place, then shard 1 fails
  CHECK(Contains(s.message(), ShardName(dir + "/train", 1, 4) + std::string(kDiskFull)));
  w->reset();
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("RecordReader: a read error is an I/O error naming the file, not corruption") {
  std::string bytes;
  for (int i = 0; i < 50; ++i) AppendFramedRecord("payload " + std::to_string(i), &bytes);
  RecordReader reader(std::make_unique<FailingInputStream>("in.tfrecord", bytes, 300), {});
  std::string_view record;
  int n = 0;
  while (reader.Read(&record)) ++n;
  CHECK(n > 0);
  CHECK(n < 50);
  CHECK(reader.status().code() == StatusCode::kIoError);
  CHECK(Contains(reader.status().message(), "in.tfrecord"));
  CHECK(Contains(reader.status().message(), "Input/output error"));
}

}  // namespace
}  // namespace tfq::tfrecord
