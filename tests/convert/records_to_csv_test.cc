// TFRecord -> CSV: columns (union or --select), value formats, quoting, base64, list separators.
#include "convert/records_to_csv.h"

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "example/example.h"
#include "io/file_streams.h"
#include "tfrecord/record_writer.h"

namespace tfq {
namespace {

std::string Framed(const std::vector<Example>& examples) {
  std::string framed;
  for (const Example& e : examples) {
    std::string record;
    SerializeExample(e, &record);
    tfrecord::AppendFramedRecord(record, &framed);
  }
  return framed;
}

Result<std::string> Export(const std::vector<Example>& examples, RecordsToCsvOptions options = {}) {
  const std::string framed = Framed(examples);
  RecordOpener open = [&](const std::string& name) -> Result<std::unique_ptr<tfrecord::RecordReader>> {
    return std::make_unique<tfrecord::RecordReader>(NewMemoryInputStream(name, framed),
                                                    tfrecord::RecordReaderOptions{});
  };
  std::string csv;
  auto out = NewStringOutputStream("out.csv", &csv);
  uint64_t records = 0;
  Status s = RecordsToCsv({"in.tfrecord"}, open, options, [&](std::string_view t, uint64_t) { return out->Write(t); }, &records);
  if (!s.ok()) return s;
  CHECK(records == examples.size());
  return csv;
}

Example Ex(FeatureMap features) {
  Example e;
  e.features = std::move(features);
  return e;
}

}  // namespace

TEST_CASE("a column per feature, in order of first appearance; absent and empty are empty fields") {
  Result<std::string> csv = Export({
      Ex({{"id", Feature::Int64s({1})}, {"name", Feature::Bytes({"a"})}}),
      Ex({{"score", Feature::Floats({0.1f, 1.0f, 1e20f})}, {"id", Feature::Int64s({-2})}}),
      Ex({{"id", Feature::Int64s({})}, {"name", Feature()}}),
  });
  REQUIRE(csv.ok());
  CHECK(*csv == "id,name,score\n1,a,\n-2,,0.1;1.0;1e+20\n,,\n");
}

TEST_CASE("floats always have a '.' or an exponent, so that a CSV reader infers float again") {
  Result<std::string> csv = Export({Ex({{"w", Feature::Floats({874101376.0f, -363887520.0f, 0.5f, -0.0f, 1e16f})}})});
  REQUIRE(csv.ok());
  CHECK(*csv == "w\n874101400.0;-363887520.0;0.5;-0.0;1e+16\n");
}

TEST_CASE("--max-columns bounds the union of the features, before any row is written") {
  std::vector<Example> examples;
  for (int r = 0; r < 3; ++r) {
    FeatureMap features;
    for (int k = 0; k < 4; ++k) features.emplace_back("k" + std::to_string(r * 4 + k), Feature::Int64s({k}));
    examples.push_back(Ex(std::move(features)));
  }
  RecordsToCsvOptions options;
  options.max_columns = 12;
  CHECK(Export(examples, options).ok());
  options.max_columns = 10;
  Result<std::string> csv = Export(examples, options);
  REQUIRE_FALSE(csv.ok());
  CHECK(csv.status().code() == StatusCode::kResourceExhausted);
  CHECK(csv.status().message() ==
        "in.tfrecord: record 2: the features of the records make more than 10 columns (the limit; one per "
        "distinct feature name); name the columns to export with --select a,b,... or raise --max-columns");
  options.columns = {"k0", "k11"};  // --select: no union, no limit to reach
  CHECK(Export(examples, options).ok());
}

TEST_CASE("--select picks and orders columns") {
  RecordsToCsvOptions o;
  o.columns = {"b", "a"};
  Result<std::string> csv = Export({Ex({{"a", Feature::Int64s({1})}, {"b", Feature::Int64s({2})}})}, o);
  REQUIRE(csv.ok());
  CHECK(*csv == "b,a\n2,1\n");
}

TEST_CASE("RFC 4180 quoting, non-finite floats, a one-column empty field") {
  const float inf = std::numeric_limits<float>::infinity();
  Result<std::string> csv = Export({
      Ex({{"t", Feature::Bytes({"a,b"})}, {"f", Feature::Floats({-inf})}}),
      Ex({{"t", Feature::Bytes({"say \"hi\"\nnow"})}, {"f", Feature::Floats({std::numeric_limits<float>::quiet_NaN()})}}),
  });
  REQUIRE(csv.ok());
  CHECK(*csv == "t,f\n\"a,b\",-Infinity\n\"say \"\"hi\"\"\nnow\",NaN\n");
  Result<std::string> one = Export({Ex({{"t", Feature::Bytes({""})}})});
  REQUIRE(one.ok());
  CHECK(*one == "t\n\"\"\n");
}

TEST_CASE("bytes that are not UTF-8 are base64: with a prefix; --bytes base64 for all") {
  Result<std::string> csv = Export({Ex({{"b", Feature::Bytes({std::string("\xff\x00", 2), "ok"})}})});
  REQUIRE(csv.ok());
  CHECK(*csv == "b\nbase64:/wA=;ok\n");
  RecordsToCsvOptions o;
  o.bytes = CsvBytesFormat::kBase64;
  Result<std::string> all = Export({Ex({{"b", Feature::Bytes({"ok", "abc"})}})}, o);
  REQUIRE(all.ok());
  CHECK(*all == "b\nb2s=;YWJj\n");
}

TEST_CASE("a list value holding the separator is an error naming record and feature") {
  Result<std::string> csv = Export({Ex({{"tags", Feature::Bytes({"a;b", "c"})}})});
  REQUIRE(!csv.ok());
  CHECK(csv.status().code() == StatusCode::kInvalidData);
  CHECK(csv.status().message().find("in.tfrecord: record 0: feature \"tags\": value 0 of the list") == 0);
  // A single value may hold it: the field is not split unless declared a list column.
  CHECK(Export({Ex({{"t", Feature::Bytes({"a;b"})}})}).ok());
}

}  // namespace tfq
