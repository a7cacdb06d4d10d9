// Injected disk-full and read errors against the record writer and the
// reader: the error names the file and says what happened, and no output is left behind.
#include <doctest/doctest.h>

#include <filesystem>

#include "common/fault_streams.h"
#include "common/test_env.h"
#include "io/file_streams.h"
#include "tfrecord/open.h"
#include "tfrecord/record_reader.h"
#include "tfrecord/record_writer.h"

namespace tfq::tfrecord {
namespace {

using tfq::testing::FailingInputStream;
using tfq::testing::FailingOutputStream;

constexpr std::string_view kDiskFull = ": disk full (No space left on device)";

using ::tfq::testing::Contains;

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
