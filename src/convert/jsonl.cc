#include "convert/jsonl.h"

#include <nlohmann/json.hpp>

#include "convert/line_reader.h"
#include "example/example.h"

namespace tfq {

Status JsonLinesToRecords(InputStream* in, const JsonLinesOptions& options, const RecordSink& sink,
                          uint64_t* records) {
  LineReader lines(in, options.max_line_bytes);
  std::string_view line;
  std::string serialized;
  Example example;
  SequenceExample sequence;
  while (lines.Next(&line)) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = in->name() + ": line " + std::to_string(lines.line_number());
    // Ordered: features keep the line's order, so printed records read back byte-identical.
    nlohmann::ordered_json value =
        nlohmann::ordered_json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded()) {
      return Status::InvalidData(where + ": not valid JSON (each line must hold one JSON object)");
    }
    serialized.clear();
    if (options.sequence) {
      sequence = SequenceExample();
      TFQ_RETURN_IF_ERROR(SequenceExampleFromJson(value, &sequence).WithPrefix(where));
      SerializeSequenceExample(sequence, &serialized);
    } else {
      example = Example();
      TFQ_RETURN_IF_ERROR(ExampleFromJson(value, &example).WithPrefix(where));
      SerializeExample(example, &serialized);
    }
    TFQ_RETURN_IF_ERROR(sink(serialized));
    ++*records;
  }
  return lines.status();
}

}  // namespace tfq
