#include "convert/records_to_jsonl.h"

#include <memory>

#include "example/example_view.h"

namespace tfq {
namespace {

class JsonLineFormatter : public RecordFormatter {
 public:
  explicit JsonLineFormatter(const RecordsToJsonLinesOptions& options) : options_(options) {}

  Status Append(std::string_view record, std::string* out) override {
    if (options_.sequence) {
      TFQ_RETURN_IF_ERROR(sequence_.Parse(record));
      TFQ_RETURN_IF_ERROR(CheckJsonKeysDistinct(sequence_));
      AppendSequenceExampleJson(sequence_, options_.form, out);
    } else {
      TFQ_RETURN_IF_ERROR(example_.Parse(record));
      TFQ_RETURN_IF_ERROR(CheckJsonKeysDistinct(example_));
      AppendExampleJson(example_, options_.form, out);
    }
    out->push_back('\n');
    return Status::OK();
  }

 private:
  const RecordsToJsonLinesOptions& options_;
  ExampleView example_;
  SequenceExampleView sequence_;
};

}  // namespace

Status RecordsToJsonLines(const std::vector<std::string>& inputs, const RecordOpener& open,
                          const RecordsToJsonLinesOptions& options, const TextSink& sink,
                          uint64_t* records) {
  return RecordsToText(
      inputs, open, options.threads, [&] { return std::make_unique<JsonLineFormatter>(options); },
      [&](std::string_view text, uint64_t lines) {
        TFQ_RETURN_IF_ERROR(sink(text, lines));
        *records += lines;
        return Status::OK();
      });
}

}  // namespace tfq
