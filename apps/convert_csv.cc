// `tfq convert` from CSV tables into TFRecord files (docs/convert-tables.md): the "Tables" flags,
// the output (one file or shards), and --print-schema over src/convert/csv_to_records.h.
#include "convert_csv.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <span>
#include <sstream>
#include <thread>

#include "app_common.h"
#include "common/cpus.h"
#include "convert.h"
#include "convert/csv_to_records.h"
#include "csv/schema.h"

namespace tfq::app {

TableFlags& Tables() {
  static TableFlags flags;
  return flags;
}

Result<char> TableDelimiter(const std::string& path) {
  const std::string& d = Tables().delimiter;
  if (d.empty()) {
    const bool tsv = path.ends_with(".tsv") || path.ends_with(".tsv.gz");
    return tsv ? '\t' : ',';
  }
  if (d == "\\t" || d == "tab" || d == "\t") return '\t';
  if (d.size() == 1) return d[0];
  return Status::InvalidArgument("--delimiter must be one byte (or \\t), not \"" + d + "\"");
}

namespace {

Result<std::string> ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound(path + ": cannot open the schema file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The declared columns: --schema, then --column and --list-column (a flag replaces the schema
// file's spec of the same name).
Result<csv::Schema> DeclaredSchema(const TableFlags& t) {
  csv::Schema schema;
  if (!t.schema.empty()) {
    TFQ_ASSIGN_OR_RETURN(std::string text, ReadTextFile(t.schema));
    TFQ_ASSIGN_OR_RETURN(schema, csv::SchemaFromJson(text, t.schema));
  }
  auto add = [&](const std::string& flag, bool list) -> Status {
    TFQ_ASSIGN_OR_RETURN(csv::ColumnSpec spec, csv::ParseColumnFlag(flag, list));
    for (csv::ColumnSpec& c : schema.columns) {
      if (c.name == spec.name) {
        c = std::move(spec);
        return Status::OK();
      }
    }
    schema.columns.push_back(std::move(spec));
    return Status::OK();
  };
  for (const std::string& f : t.column_flags) TFQ_RETURN_IF_ERROR(add(f, false));
  for (const std::string& f : t.list_column_flags) TFQ_RETURN_IF_ERROR(add(f, true));
  TFQ_RETURN_IF_ERROR(csv::ValidateSchema(schema, t.schema.empty() ? "--column" : t.schema));
  return schema;
}

Result<CsvToRecordsOptions> MakeOptions(const ConvertFlags& flags, const std::string& first_input) {
  const TableFlags& t = Tables();
  CsvToRecordsOptions o;
  TFQ_ASSIGN_OR_RETURN(o.parse.delimiter, TableDelimiter(first_input));
  o.parse.header = !t.no_header;
  TFQ_ASSIGN_OR_RETURN(o.parse.ragged, csv::ParseRaggedPolicy(t.ragged));
  TFQ_RETURN_IF_ERROR(csv::ValidateParseOptions(o.parse));
  // --no-header without --columns names the columns column_1, column_2, ... (as pandas does).
  o.column_names = t.columns;
  TFQ_ASSIGN_OR_RETURN(o.declared, DeclaredSchema(t));
  o.select = t.select;
  o.exclude = t.exclude;
  o.na_values = t.na_values;
  o.label_column = t.label_column;
  if (t.infer_rows == "all") {
    o.infer_rows = CsvToRecordsOptions::kInferAll;
  } else {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(t.infer_rows.c_str(), &end, 10);
    if (t.infer_rows.empty() || *end != '\0' || t.infer_rows[0] == '-') {
      return Status::InvalidArgument("--infer-rows must be a number or all, not \"" + t.infer_rows + "\"");
    }
    o.infer_rows = n;
  }
  // More threads than CPUs only compete for them (and 100000 would not start): capped, as the
  // image converter caps them.
  o.threads = ConversionThreads(flags);
  return o;
}

Status CsvToTfRecord(const ConvertFlags& flags, const std::vector<std::string>& inputs,
                     ConvertSummary* summary) {
  if (Tables().print_schema && flags.json) {
    return Status::InvalidArgument("--print-schema and --json both write to stdout; use one");
  }
  TFQ_ASSIGN_OR_RETURN(CsvToRecordsOptions options, MakeOptions(flags, inputs.front()));
  TFQ_ASSIGN_OR_RETURN(InputLimits limits, ParseInputLimits(flags));
  if (limits.max_row_bytes) options.max_row_bytes = static_cast<size_t>(limits.max_row_bytes);
  options.max_columns = static_cast<size_t>(limits.max_columns);
  const DecompressionLimit decompression = limits.decompression;
  const CsvOpener open = [decompression](const std::string& path) {
    return OpenCsvFile(path, decompression);
  };
  if (options.infer_rows == CsvToRecordsOptions::kInferAll &&
      std::find(inputs.begin(), inputs.end(), "-") != inputs.end()) {
    return Status::InvalidArgument("--infer-rows all reads the input twice, which standard input cannot be");
  }
  TFQ_ASSIGN_OR_RETURN(ShardedOutputOptions output_options, RecordOutputOptions(flags));
  TFQ_ASSIGN_OR_RETURN(auto output, ShardedOutput::Create(output_options));
  CsvCallbacks callbacks;
  if (Tables().print_schema) {
    callbacks.on_schema = [](const csv::Schema& schema) {
      const std::string json = csv::SchemaToJson(schema);
      std::fwrite(json.data(), 1, json.size(), stdout);
      if (json.empty() || json.back() != '\n') std::fputc('\n', stdout);
      return std::fflush(stdout) == 0 ? Status::OK() : Status::FromErrno("<stdout>", errno);
    };
  }
  callbacks.sink = [&](std::string_view framed, std::span<const size_t> ends) {
    return output->WriteInTurn(framed, ends);
  };
  callbacks.open_ranges = OpenCsvFileRanges;
  CsvProgress result;
  TFQ_RETURN_IF_ERROR(CsvToRecords(inputs, open, options, callbacks, &result));
  TFQ_RETURN_IF_ERROR(output->Close());
  SummarizeOutput(*output, summary);
  summary->rows = result.rows;
  if (result.skipped_rows > 0 && !flags.quiet) {
    PrintWarning("skipped " + std::to_string(result.skipped_rows) +
                 " rows with the wrong number of fields (--ragged skip)");
  }
  return Status::OK();
}

void AddTableFlags(CLI::App* cmd) {
  TableFlags& t = Tables();
  CLI::Option_group* g = cmd->add_option_group("Tables", "CSV/TSV input and output (docs/convert-tables.md)");
  g->add_option("--delimiter", t.delimiter, "field delimiter, one byte; \\t for TSV (default: , or tab for .tsv)");
  g->add_flag("--no-header", t.no_header, "the first record is data, not column names");
  g->add_option("--columns", t.columns, "column names a,b,c (replace the header's)")->delimiter(',');
  g->add_option("--ragged", t.ragged, "a record with the wrong field count: error|pad|skip")
      ->capture_default_str();
  g->add_option("--infer-rows", t.infer_rows, "rows to infer column kinds from: N|all (all reads the input twice)")
      ->capture_default_str();
  g->add_option("--schema", t.schema, "schema JSON file (column -> kind, default, required)");
  g->add_option("--column", t.column_flags, "declare a column NAME:KIND (int64|float|bytes); repeatable")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  g->add_option("--list-column", t.list_column_flags, "a list column NAME:KIND:SEP, e.g. tags:bytes:;")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  g->add_option("--select", t.select, "keep only these columns a,b (export: in this order)")->delimiter(',');
  g->add_option("--exclude", t.exclude, "drop these columns a,b")->delimiter(',');
  g->add_option("--na-value", t.na_values, "a string that means a missing value; repeatable")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  g->add_option("--label-column", t.label_column, "the label column: must be present in every row");
  g->add_flag("--print-schema", t.print_schema, "print the schema used (the --schema format) on stdout");
  g->add_option("--list-separator", t.list_separator, "export: joins the values of a list")
      ->capture_default_str();
  g->add_option("--bytes", t.bytes, "export: bytes values as auto (UTF-8 text, else base64:...) or base64")
      ->capture_default_str();
}

}  // namespace

const Conversion kCsvToTfRecord = {"csv", "tfrecord", CsvToTfRecord, AddTableFlags};

}  // namespace tfq::app
