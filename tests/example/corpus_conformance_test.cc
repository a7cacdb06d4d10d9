// Conformance with the oracle on the shared corpus (skipped when ../shared is absent): for every
// Example / SequenceExample file in corpus_modes.tsv, every record's proto-json equals the
// oracle's (google.protobuf.json_format.MessageToJson) as JSON values; re-encoding the decoded
// record reproduces its bytes; and both JSON forms read back to the same message (flat up to
// its documented losses).
#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "common/test_env.h"
#include "corpus_records.h"
#include "example/example.h"
#include "example/json_forms.h"

namespace tfq {
namespace {

struct CorpusFile {
  std::string path;
  bool sequence;
};

std::vector<CorpusFile> ExampleFiles(const std::string& shared) {
  std::ifstream modes(shared + "/oracle/corpus_modes.tsv");
  std::vector<CorpusFile> files;
  std::string line;
  while (std::getline(modes, line)) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    const std::string mode = line.substr(tab + 1);
    if (mode == "example" || mode == "sequence") files.push_back({line.substr(0, tab), mode == "sequence"});
  }
  return files;
}

// Decodes one record; returns its proto-json and sets *reencoded to SerializeX(ToX(view)).
std::string Decode(std::string_view record, bool sequence, std::string* reencoded, std::string* flat) {
  std::string json;
  reencoded->clear();
  flat->clear();
  if (sequence) {
    SequenceExampleView view;
    REQUIRE(view.Parse(record).ok());
    AppendSequenceExampleJson(view, JsonForm::kProtoJson, &json);
    AppendSequenceExampleJson(view, JsonForm::kFlat, flat);
    SequenceExample value;
    REQUIRE(ToSequenceExample(view, &value).ok());
    SerializeSequenceExample(value, reencoded);
  } else {
    ExampleView view;
    REQUIRE(view.Parse(record).ok());
    AppendExampleJson(view, JsonForm::kProtoJson, &json);
    AppendExampleJson(view, JsonForm::kFlat, flat);
    Example value;
    REQUIRE(ToExample(view, &value).ok());
    SerializeExample(value, reencoded);
  }
  return json;
}

// Reads `json` back (either form) and returns the proto-json of the result.
std::string ThroughJson(const std::string& json, bool sequence) {
  std::string bytes, out;
  if (sequence) {
    SequenceExample value;
    Status s = SequenceExampleFromJson(nlohmann::json::parse(json), &value);
    REQUIRE_MESSAGE(s.ok(), s.message());
    SerializeSequenceExample(value, &bytes);
    SequenceExampleView view;
    REQUIRE(view.Parse(bytes).ok());
    AppendSequenceExampleJson(view, JsonForm::kProtoJson, &out);
  } else {
    Example value;
    Status s = ExampleFromJson(nlohmann::json::parse(json), &value);
    REQUIRE_MESSAGE(s.ok(), s.message());
    SerializeExample(value, &bytes);
    ExampleView view;
    REQUIRE(view.Parse(bytes).ok());
    AppendExampleJson(view, JsonForm::kProtoJson, &out);
  }
  return out;
}

TEST_CASE("proto-json equals the oracle's for every record of the corpus" * doctest::test_suite("shared")) {
  const std::string shared = testing::SharedDir();
  REQUIRE_MESSAGE(!shared.empty(), "no shared corpus (set TFQ_SHARED_DIR)");
  for (const CorpusFile& file : ExampleFiles(shared)) {
    CAPTURE(file.path);
    const std::string path = shared + "/corpus/" + file.path;
    const std::string stream = testing::ReadMaybeCompressed(path);
    const std::vector<std::string_view> records = testing::SplitRecords(stream);
    const std::vector<std::string> oracle =
        testing::SplitLines(testing::ReadMaybeCompressed(path + ".oracle.proto.jsonl.gz"));
    REQUIRE(records.size() == oracle.size());
#ifdef TFQ_SANITIZER_BUILD
    // Sanitizers make the JSON comparison slow: the first records of each file here, every
    // record in the other builds.
    const size_t record_count = std::min<size_t>(records.size(), 200);
#else
    const size_t record_count = records.size();
#endif
    size_t json_equal = 0, bytes_equal = 0, proto_round_trips = 0, flat_reads = 0;
    // The JSON round trips are the slow part (nlohmann at -O0): a sample of 500 per file.
    const size_t round_trip_stride = record_count / 500 + 1;
    for (size_t i = 0; i < record_count; ++i) {
      CAPTURE(i);
      std::string reencoded, flat;
      const std::string json = Decode(records[i], file.sequence, &reencoded, &flat);
      const nlohmann::json ours = nlohmann::json::parse(json);
      const nlohmann::json theirs = nlohmann::json::parse(oracle[i]);
      if (ours == theirs) ++json_equal; else CHECK_MESSAGE(false, "ours:   " << json << "\noracle: " << oracle[i]);
      if (reencoded == records[i]) ++bytes_equal;
      if (i % round_trip_stride != 0) continue;
      if (nlohmann::json::parse(ThroughJson(json, file.sequence)) == theirs) ++proto_round_trips;
      ThroughJson(flat, file.sequence);  // must read back; exactness is tested on random data
      ++flat_reads;
    }
    CHECK(json_equal == record_count);
    CHECK(bytes_equal == record_count);
    CHECK(proto_round_trips == flat_reads);
    MESSAGE(file.path << ": " << record_count << " records, proto-json equal " << json_equal
                      << ", re-encoded byte-identical " << bytes_equal << ", JSON round trips (sampled) "
                      << proto_round_trips << "/" << flat_reads);
  }
}

}  // namespace
}  // namespace tfq
