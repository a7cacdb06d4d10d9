// Every workload compiled in, run for real on a little generated data: they must all work, count
// what they did, and keep their promises about the Dataset (the temporary file goes away).
#include <sys/stat.h>

#include <doctest/doctest.h>

#include "bench/bench.h"
#include "bench/dataset.h"
#include "bench/workload.h"
#include "common/test_env.h"
#include "io/file_streams.h"
#include "tfrecord/record_reader.h"
#include "tfrecord/record_writer.h"

namespace tfq::bench {
namespace {

BenchOptions Tiny() {
  BenchOptions o;
  o.data_bytes = 64 << 10;
  o.threads = {2, 1};
  o.timing.warmup_seconds = 0;
  o.timing.repetitions = 1;
  return o;
}

TEST_CASE("the registry: calibration first, names unique, read + CRC and Example workloads present") {
  const auto& all = AllWorkloads().workloads();
  REQUIRE(!all.empty());
  CHECK(all.front().name == kCalibrationWorkload);
  for (const char* name : {"read-crc-memory", "read-crc-file", "read-gzip", "parse-example", "encode-example"}) {
    CAPTURE(name);
    CHECK(AllWorkloads().Find(name) != nullptr);
  }
  for (size_t i = 0; i < all.size(); ++i) {
    CHECK(!all[i].description.empty());
    for (size_t j = i + 1; j < all.size(); ++j) CHECK(all[i].name != all[j].name);
  }
}

TEST_CASE("RunBench: every workload on 1 and 2 threads, with ratios to the calibration") {
  std::vector<Progress> seen;
  Result<Report> r = RunBench(Tiny(), [&](const Progress& p) { seen.push_back(p); });
  REQUIRE(r.ok());
  CHECK(r->settings.threads == std::vector<size_t>{1, 2});
  CHECK(r->settings.generated);
  CHECK(r->settings.data_records > 0);
  CHECK(r->settings.data_bytes >= (64u << 10));
  const size_t ran = AllWorkloads().workloads().size() - r->skipped.size();
  CHECK(r->results.size() == ran * 2);
  for (const Measurement& m : r->results) {
    CAPTURE(m.workload);
    CAPTURE(m.threads);
    CHECK(m.repetitions == 1);
    CHECK(m.primary().summary.median > 0);
    REQUIRE(m.ratio.has_value());
    CHECK(*m.ratio > 0);
  }
  CHECK(r->results[0].workload == kCalibrationWorkload);
  CHECK(*r->Find(kCalibrationWorkload, 2)->ratio == doctest::Approx(1));
  // The read workloads report both MB/s and records/s.
  const Measurement* read = r->Find("read-crc-memory", 1);
  REQUIRE(read != nullptr);
  CHECK(read->primary().unit == "MB/s");
  REQUIRE(read->rates.size() == 2);
  CHECK(read->rates[1].unit == "records/s");
  REQUIRE(!seen.empty());
  CHECK(seen.back().step == seen.back().steps);
}

TEST_CASE("RunBench: workloads by name, calibration added; unknown names are usage errors") {
  BenchOptions o = Tiny();
  o.threads = {1};
  o.workloads = {"parse-example"};
  Result<Report> r = RunBench(o, nullptr);
  REQUIRE(r.ok());
  REQUIRE(r->results.size() == 2);
  CHECK(r->results[0].workload == "memcpy");
  CHECK(r->results[1].workload == "parse-example");
  o.workloads = {"parse-example", "no-such-thing"};
  Result<Report> bad = RunBench(o, nullptr);
  CHECK(bad.status().code() == StatusCode::kInvalidArgument);
  CHECK(bad.status().message().find("no-such-thing") != std::string::npos);
  CHECK(bad.status().message().find("read-crc-memory") != std::string::npos);
  o.workloads = {};
  o.threads = {0};
  CHECK(RunBench(o, nullptr).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("RunBench on files that are not tf.Examples skips the Example workloads") {
  const std::string dir = testing::MakeTempDir();
  std::string framed;
  for (int i = 0; i < 50; ++i) tfrecord::AppendFramedRecord("\xff\xff not a protobuf", &framed);
  testing::WriteFileOrDie(dir + "/raw.tfrecord", framed);
  BenchOptions o = Tiny();
  o.threads = {1};
  o.inputs = {dir + "/raw.tfrecord"};
  o.workloads = {"read-crc-file", "parse-example"};
  Result<Report> r = RunBench(o, nullptr);
  REQUIRE(r.ok());
  CHECK(!r->settings.generated);
  CHECK(r->settings.data_records == 50);
  CHECK(r->Find("read-crc-file", 1) != nullptr);
  REQUIRE(r->skipped.size() == 1);
  CHECK(r->skipped[0].workload == "parse-example");
  CHECK(r->skipped[0].reason.find("not a tf.Example") != std::string::npos);
}

TEST_CASE("Dataset::Generate is deterministic and frames valid records") {
  const Dataset a = Dataset::Generate(100 << 10, 7);
  const Dataset b = Dataset::Generate(100 << 10, 7);
  const Dataset c = Dataset::Generate(100 << 10, 8);
  CHECK(a.framed() == b.framed());
  CHECK(a.framed() != c.framed());
  CHECK(a.framed().size() >= (100u << 10));
  tfrecord::RecordReader reader(NewMemoryInputStream("a", a.framed()), {});
  std::string_view record;
  size_t n = 0;
  while (reader.Read(&record)) CHECK(record == a.records()[n++]);
  CHECK(reader.status().ok());
  CHECK(n == a.records().size());
}

TEST_CASE("Dataset::Load stops at the byte cap; Files() of generated data is removed with it") {
  const std::string dir = testing::MakeTempDir();
  const Dataset source = Dataset::Generate(200 << 10, 1);
  testing::WriteFileOrDie(dir + "/a.tfrecord", source.framed());
  Result<Dataset> loaded = Dataset::Load({dir + "/a.tfrecord"}, Compression::kAuto, 50 << 10);
  REQUIRE(loaded.ok());
  CHECK(loaded->framed().size() >= (50u << 10));
  CHECK(loaded->framed().size() < source.framed().size());
  CHECK(source.framed().compare(0, loaded->framed().size(), loaded->framed()) == 0);
  CHECK(loaded->Files().value() == std::vector<std::string>{dir + "/a.tfrecord"});
  CHECK(Dataset::Load({dir + "/missing"}, Compression::kAuto, 1).status().code() == StatusCode::kNotFound);

  std::string path;
  {
    Dataset generated = Dataset::Generate(10 << 10, 1);
    Result<std::vector<std::string>> files = generated.Files();
    REQUIRE(files.ok());
    REQUIRE(files->size() == 1);
    path = files->front();
    CHECK(testing::ReadFileOrDie(path) == generated.framed());
    Dataset moved = std::move(generated);  // the file follows the data
    struct stat st;
    CHECK(stat(path.c_str(), &st) == 0);
  }
  struct stat st;
  CHECK(stat(path.c_str(), &st) != 0);
}

}  // namespace
}  // namespace tfq::bench
