#include "convert/jsonl.h"

#include <nlohmann/json.hpp>

#include "convert/json_object_parser.h"
#include "convert/json_prescan.h"
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
  nlohmann::ordered_json value;
  while (lines.SkipBlankLines() && lines.Next(&line)) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = in->name() + ": line " + std::to_string(lines.line_number());
    const JsonPrescan prescan = PrescanJson(line);
    if (prescan.depth > kMaxJsonDepth) {
      return Status::InvalidData(where + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                 " levels (a tf.Example needs at most 8); the line is not read");
    }
    if (!prescan.big_integer.empty()) {
      const std::string_view n = prescan.big_integer;
      return Status::InvalidData(
          where + ": the integer " + std::string(n.substr(0, 40)) + (n.size() > 40 ? "..." : "") +
          " at byte " + std::to_string(prescan.big_integer_offset) +
          " does not fit in 64 bits (int64 features hold -2^63..2^63-1; write a float with a '.' or an exponent)");
    }
    // Ordered: features keep the line's order, so printed records read back byte-identical.
    TFQ_RETURN_IF_ERROR(ParseJsonObjectLine(line, &value).WithPrefix(where));
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
