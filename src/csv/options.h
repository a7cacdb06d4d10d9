// The CSV dialect tfq reads (docs/csv.md): RFC 4180 plus what real files need.
//
// Records end at LF, CRLF or a lone CR outside quotes; a quote opens a quoted field only as the
// first byte of a field, and inside it a doubled quote stands for one quote. Everything else is
// data, byte for byte (no trimming, no escapes other than "").
#ifndef TFQ_CSV_OPTIONS_H_
#define TFQ_CSV_OPTIONS_H_

#include <cstdint>
#include <string_view>

#include "common/status.h"

namespace tfq::csv {

// What to do with a record whose field count differs from the header's (or the given names').
enum class RaggedPolicy : uint8_t {
  kError,  // stop with an error naming the line and column
  kPad,    // short record: pad with empty (missing) fields; long record: drop extra fields if
           // they are all empty, else error
  kSkip,   // drop the record and count it
};

// "error", "pad", "skip".
Result<RaggedPolicy> ParseRaggedPolicy(std::string_view name);

struct ParseOptions {
  char delimiter = ',';
  // false: '"' is an ordinary byte (TSV files written without quoting).
  bool quoting = true;
  // true: the first record of the stream names the columns and is not a data row.
  bool header = true;
  RaggedPolicy ragged = RaggedPolicy::kError;
};

// The delimiter may be any byte except CR, LF and (when quoting) '"'. kInvalidArgument otherwise.
Status ValidateParseOptions(const ParseOptions& options);

}  // namespace tfq::csv

#endif  // TFQ_CSV_OPTIONS_H_
