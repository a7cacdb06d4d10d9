// Fuzz target: the JSON-lines reader (src/convert/jsonl.cc over src/example/json_read*.cc),
// either JSON form -> Example or SequenceExample.
//
// Input: one mode byte (bit 0: lines are SequenceExamples), then the text. Lines are capped at
// 1 MiB. Checked: no crash or leak, and every record handed to the sink decodes as the message
// it claims to be (the encoder only writes valid wire format).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "convert/jsonl.h"
#include "example/example_view.h"
#include "fuzz_check.h"
#include "io/file_streams.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  tfq::JsonLinesOptions options;
  options.sequence = data[0] & 1;
  options.max_line_bytes = 1 << 20;
  auto in = tfq::NewMemoryInputStream(
      "fuzz.jsonl", std::string(reinterpret_cast<const char*>(data) + 1, size - 1));

  tfq::ExampleView example;
  tfq::SequenceExampleView sequence;
  uint64_t sunk = 0;
  const tfq::FramedRecordSink sink = [&](std::string_view framed, std::span<const size_t> ends) {
    size_t begin = 0;
    for (size_t end : ends) {  // the payload, between the 12-byte header and the 4-byte footer
      const std::string_view record = framed.substr(begin + 12, end - begin - 16);
      FUZZ_CHECK(options.sequence ? sequence.Parse(record).ok() : example.Parse(record).ok());
      ++sunk;
      begin = end;
    }
    return tfq::Status::OK();
  };
  uint64_t records = 0;
  const tfq::Status status = tfq::JsonLinesToRecords(in.get(), options, sink, &records);
  FUZZ_CHECK(records == sunk);
  if (!status.ok()) FUZZ_CHECK(!status.message().empty());
  return 0;
}
