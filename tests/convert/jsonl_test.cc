#include "convert/jsonl.h"

#include <doctest/doctest.h>

#include "example/example_view.h"
#include "io/file_streams.h"

namespace tfq {
namespace {

Status Convert(const std::string& text, std::vector<std::string>* records) {
  auto in = NewMemoryInputStream("rows.jsonl", text);
  uint64_t n = 0;
  return JsonLinesToRecords(in.get(), {}, [&](std::string_view framed, std::span<const size_t> ends) {
    size_t begin = 0;
    for (size_t end : ends) {  // the payload, between the 12-byte header and the 4-byte footer
      records->emplace_back(framed.substr(begin + 12, end - begin - 16));
      begin = end;
    }
    return Status::OK();
  }, &n);
}

}  // namespace

TEST_CASE("each JSON line becomes one Example, blank lines skipped") {
  std::vector<std::string> records;
  REQUIRE(Convert("{\"a\":[1,2]}\n\n{\"b\":[\"x\"]}\n", &records).ok());
  REQUIRE(records.size() == 2);
  ExampleView view;
  REQUIRE(view.Parse(records[0]).ok());
  const FeatureView* a = view.features().Find("a");
  REQUIRE(a != nullptr);
  CHECK(a->kind() == FeatureKind::kInt64);
  std::vector<int64_t> values;
  REQUIRE(a->AppendInt64s(&values).ok());
  CHECK(values == std::vector<int64_t>{1, 2});
}

TEST_CASE("a line that is not JSON is an error naming the line") {
  std::vector<std::string> records;
  Status s = Convert("{\"a\":[1]}\n{not json\n", &records);
  CHECK(s.code() == StatusCode::kInvalidData);
  CHECK(s.message().find("rows.jsonl: line 2") != std::string::npos);
}

TEST_CASE("a value that does not fit an Example is an error naming the line") {
  std::vector<std::string> records;
  Status s = Convert("{\"a\":[1]}\n{\"a\":[{\"nested\":1}]}\n", &records);
  CHECK(s.code() == StatusCode::kInvalidData);
  CHECK(s.message().find("rows.jsonl: line 2") != std::string::npos);
}

}  // namespace tfq
