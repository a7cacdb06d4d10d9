// A byte-at-a-time CSV state machine implementing docs/csv.md's dialect as plainly as possible:
// the oracle the bit-mask parser is compared with on random inputs. Slow on purpose.
#ifndef TFQ_TESTS_CSV_REFERENCE_PARSER_H_
#define TFQ_TESTS_CSV_REFERENCE_PARSER_H_

#include <string>
#include <string_view>
#include <vector>

namespace tfq::csv::testing {

struct ReferenceResult {
  // "" when the input is valid, else "unquoted" (quote inside an unquoted field), "closing"
  // (text after a closing quote) or "unclosed" (quote never closed).
  std::string error;
  size_t error_offset = 0;
  std::vector<std::vector<std::string>> records;  // every non-blank record, any field count
};

inline ReferenceResult ReferenceParse(std::string_view s, char delim, bool quoting) {
  enum State { kFieldStart, kUnquoted, kQuoted, kAfterQuote };
  ReferenceResult r;
  std::vector<std::string> row;
  std::string field;
  State state = kFieldStart;
  size_t row_start = 0;
  size_t field_start = 0;
  auto end_row = [&](size_t at) {
    row.push_back(field);
    field.clear();
    if (!(row.size() == 1 && at == row_start)) r.records.push_back(row);  // blank line otherwise
    row.clear();
  };
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool line_break = c == '\n' || c == '\r';
    if (state == kFieldStart) field_start = i;
    if (state == kQuoted) {
      if (c == '"') state = kAfterQuote; else field += c;
      continue;
    }
    if (state == kAfterQuote && c == '"') {
      field += '"';
      state = kQuoted;
      continue;
    }
    if (c == delim) {
      row.push_back(field);
      field.clear();
      state = kFieldStart;
    } else if (line_break) {
      end_row(i);
      if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
      row_start = i + 1;
      state = kFieldStart;
    } else if (state == kAfterQuote) {
      r.error = "closing";
      r.error_offset = i;
      return r;
    } else if (c == '"' && quoting) {
      if (state == kUnquoted) {
        r.error = "unquoted";
        r.error_offset = i;
        return r;
      }
      state = kQuoted;
    } else {
      field += c;
      state = kUnquoted;
    }
  }
  if (state == kQuoted) {
    r.error = "unclosed";
    r.error_offset = field_start;
    return r;
  }
  if (state != kFieldStart || !row.empty()) end_row(s.size());
  return r;
}

}  // namespace tfq::csv::testing

#endif  // TFQ_TESTS_CSV_REFERENCE_PARSER_H_
