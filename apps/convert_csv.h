// The "Tables" flags of `tfq convert`, shared by CSV -> TFRecord (convert_csv.cc, which adds them
// all) and TFRecord -> CSV (convert_csv_export.cc). docs/convert-tables.md documents them.
#ifndef TFQ_APPS_CONVERT_CSV_H_
#define TFQ_APPS_CONVERT_CSV_H_

#include <string>
#include <vector>

#include "common/status.h"

namespace tfq::app {

struct TableFlags {
  std::string delimiter;  // empty: ',' (a tab for .tsv names)
  bool no_header = false;
  std::vector<std::string> columns;
  std::string ragged = "error";
  std::string infer_rows = "1000";
  std::string schema;
  std::vector<std::string> column_flags;
  std::vector<std::string> list_column_flags;
  std::vector<std::string> select;
  std::vector<std::string> exclude;
  std::vector<std::string> na_values;
  std::string label_column;
  bool print_schema = false;
  std::string list_separator = ";";  // export
  std::string bytes = "auto";        // export
};

// The one instance the command line fills.
TableFlags& Tables();

// The delimiter byte: --delimiter ("\t" or "tab" for a tab), else a tab when `path` ends in .tsv
// or .tsv.gz, else ','.
Result<char> TableDelimiter(const std::string& path);

}  // namespace tfq::app

#endif  // TFQ_APPS_CONVERT_CSV_H_
