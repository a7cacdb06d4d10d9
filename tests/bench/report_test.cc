#include "bench/report.h"

#include <doctest/doctest.h>

#include "common/test_env.h"

namespace tfq::bench {
namespace {

Report SampleReport() {
  Report r;
  r.date = "2024-05-01T12:00:00Z";
  r.machine.cpu_model = "Test CPU";
  r.machine.cores = 8;
  r.machine.crc32c = "sse4.2";
  r.machine.gzip = "isa-l 2.30.0";
  r.machine.build_type = "Release";
  r.machine.tfq_version = "0.1.0";
  r.settings.threads = {1, 8};
  r.settings.seconds = 2;
  r.settings.warmup_seconds = 0.5;
  r.settings.data_bytes = 1000;
  r.settings.data_records = 10;
  r.calibration = "memcpy";
  Measurement m;
  m.workload = "parse-example";
  m.threads = 8;
  m.rates = {{"records/s", Summarize({100, 110, 120})}, {"MB/s", Summarize({1, 1.1, 1.2})}};
  m.repetitions = 3;
  m.passes_per_repetition = 4;
  m.seconds = 2.1;
  m.ratio = 0.25;
  r.results.push_back(m);
  Measurement g;
  g.workload = "write-gzip";
  g.rates = {{"MB/s", Summarize({300, 310, 320})}};
  g.repetitions = 3;
  g.ratio = 0.05;
  g.peer = Measurement::Peer{"zlib 6 deflate", {"MB/s", Summarize({40, 41, 42})}, 7.5};
  g.note = "output 0.9733x zlib 6's size";
  r.results.push_back(g);
  r.skipped.push_back({"image-resize", "no images"});
  return r;
}

TEST_CASE("ReportToJson: every documented field, with its type") {
  const nlohmann::json j = ReportToJson(SampleReport());
  CHECK(j["schema_version"] == kReportSchemaVersion);
  CHECK(j["tool"] == "tfq bench");
  CHECK(j["date"].is_string());
  CHECK(j["calibration"] == "memcpy");
  CHECK(j["warnings"].is_array());
  for (const char* key : {"cpu_model", "crc32c", "gzip", "build_type", "sanitizer", "tfq_version", "compiler", "kernel"}) {
    CAPTURE(key);
    CHECK(j["machine"][key].is_string());
  }
  CHECK(j["machine"]["cores"].is_number_unsigned());
  CHECK(j["machine"]["optimized"].is_boolean());
  const auto& s = j["settings"];
  CHECK(s["threads"] == nlohmann::json::array({1, 8}));
  CHECK(s["seconds"].is_number());
  CHECK(s["warmup_seconds"].is_number());
  CHECK(s["repetitions"].is_number_unsigned());
  CHECK(s["quick"].is_boolean());
  CHECK(s["data"] == "generated");
  CHECK(s["inputs"].is_array());
  CHECK(s["data_bytes"] == 1000);
  CHECK(s["data_records"] == 10);
  const auto& m = j["results"][0];
  CHECK(m["workload"] == "parse-example");
  CHECK(m["threads"] == 8);
  CHECK(m["unit"] == "records/s");
  CHECK(m["median"].get<double>() == 110);
  CHECK(m["min"].get<double>() == 100);
  CHECK(m["max"].get<double>() == 120);
  CHECK(m["q1"].get<double>() == 105);
  CHECK(m["q3"].get<double>() == 115);
  CHECK(m["ratio"].get<double>() == 0.25);
  CHECK(m["repetitions"] == 3);
  CHECK(m["passes_per_repetition"] == 4);
  CHECK(m["seconds"].is_number());
  REQUIRE(m["rates"].size() == 2);
  CHECK(m["rates"][0]["unit"] == "records/s");
  CHECK(m["rates"][1]["unit"] == "MB/s");
  CHECK(m["rates"][1]["median"].get<double>() == doctest::Approx(1.1));
  CHECK(j["skipped"][0]["workload"] == "image-resize");
  CHECK(j["skipped"][0]["reason"] == "no images");
}

TEST_CASE("ReportFromJson reads back what ReportToJson wrote") {
  const Report original = SampleReport();
  Result<Report> r = ReportFromJson(ReportToJson(original).dump(), "x.json");
  REQUIRE(r.ok());
  CHECK(r->calibration == "memcpy");
  CHECK(r->machine.cpu_model == "Test CPU");
  CHECK(r->machine.build_type == "Release");
  CHECK(r->machine.gzip == "isa-l 2.30.0");
  REQUIRE(r->results.size() == 2);
  const Measurement* m = r->Find("parse-example", 8);
  REQUIRE(m != nullptr);
  CHECK(m->primary().unit == "records/s");
  CHECK(m->primary().summary.median == 110);
  CHECK(m->ratio.value() == 0.25);
  CHECK(r->Find("parse-example", 1) == nullptr);
}

TEST_CASE("ReportFromJson: a null ratio stays absent") {
  nlohmann::json j = ReportToJson(SampleReport());
  j["results"][0]["ratio"] = nullptr;
  Result<Report> r = ReportFromJson(j.dump(), "x.json");
  REQUIRE(r.ok());
  CHECK(!r->results[0].ratio.has_value());
}

TEST_CASE("ReportFromJson: errors name the file and what is wrong") {
  auto error = [](const std::string& text) {
    Result<Report> r = ReportFromJson(text, "base.json");
    REQUIRE(!r.ok());
    CHECK(r.status().code() == StatusCode::kInvalidData);
    CHECK(r.status().message().rfind("base.json: ", 0) == 0);
    return r.status().message();
  };
  CHECK(error("not json").find("not a JSON object") != std::string::npos);
  CHECK(error("[1, 2]").find("not a JSON object") != std::string::npos);
  nlohmann::json j = ReportToJson(SampleReport());
  j["schema_version"] = 2;
  CHECK(error(j.dump()).find("schema_version 2 is not supported") != std::string::npos);
  j = ReportToJson(SampleReport());
  j.erase("schema_version");
  CHECK(error(j.dump()).find("\"schema_version\" is missing") != std::string::npos);
  j = ReportToJson(SampleReport());
  j["results"][0].erase("median");
  CHECK(error(j.dump()).find("results[0]: \"median\" is missing") != std::string::npos);
  j = ReportToJson(SampleReport());
  j["results"][0]["threads"] = "eight";
  CHECK(error(j.dump()).find("\"threads\" has the wrong type") != std::string::npos);
  j = ReportToJson(SampleReport());
  j.erase("results");
  CHECK(error(j.dump()).find("\"results\"") != std::string::npos);
}

TEST_CASE("ReadReportFile: a missing file is kNotFound") {
  const std::string dir = testing::MakeTempDir();
  CHECK(ReadReportFile(dir + "/missing.json").status().code() == StatusCode::kNotFound);
  testing::WriteFileOrDie(dir + "/r.json", ReportToJson(SampleReport()).dump());
  CHECK(ReadReportFile(dir + "/r.json").ok());
}

TEST_CASE("FormatReport: one line per result with the machine facts above") {
  const std::string text = FormatReport(SampleReport());
  CHECK(text.find("Test CPU, 8 cores, crc32c sse4.2") != std::string::npos);
  CHECK(text.find("Release build") != std::string::npos);
  CHECK(text.find("parse-example") != std::string::npos);
  CHECK(text.find("records/s") != std::string::npos);
  CHECK(text.find("100.0 .. 120.0") != std::string::npos);
  CHECK(text.find("1.100 MB/s") != std::string::npos);
  CHECK(text.find("image-resize       skipped: no images") != std::string::npos);
}

TEST_CASE("a result with a peer and a note: the peer's rate and tfq's speedup on the line below") {
  const std::string text = FormatReport(SampleReport());
  CHECK(text.find("crc32c sse4.2, gzip isa-l 2.30.0") != std::string::npos);
  CHECK(text.find("  vs zlib 6 deflate") != std::string::npos);
  CHECK(text.find("41.00 MB/s       tfq: 7.500x the peer") != std::string::npos);
  CHECK(text.find("output 0.9733x zlib 6's size") != std::string::npos);
  const nlohmann::json j = ReportToJson(SampleReport());
  const auto& peer = j["results"][1]["peer"];
  CHECK(peer["name"] == "zlib 6 deflate");
  CHECK(peer["median"] == 41);
  CHECK(peer["unit"] == "MB/s");
  CHECK(peer["speedup"] == 7.5);
  CHECK(j["results"][1]["note"] == "output 0.9733x zlib 6's size");
  CHECK(!j["results"][0].contains("peer"));
}

}  // namespace
}  // namespace tfq::bench
