#include "csv/options.h"

#include <string>

namespace tfq::csv {

Result<RaggedPolicy> ParseRaggedPolicy(std::string_view name) {
  if (name == "error") return RaggedPolicy::kError;
  if (name == "pad") return RaggedPolicy::kPad;
  if (name == "skip") return RaggedPolicy::kSkip;
  return Status::InvalidArgument("unknown ragged-row policy \"" + std::string(name) +
                                 "\" (expected error, pad or skip)");
}

Status ValidateParseOptions(const ParseOptions& options) {
  const char d = options.delimiter;
  if (d == '\n' || d == '\r') {
    return Status::InvalidArgument("the CSV delimiter cannot be a line break");
  }
  if (d == '"' && options.quoting) {
    return Status::InvalidArgument("the CSV delimiter cannot be the quote character");
  }
  return Status::OK();
}

}  // namespace tfq::csv
