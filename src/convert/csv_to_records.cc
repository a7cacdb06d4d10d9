// The serial part of CSV -> TFRecord: opening inputs, finding the columns, inferring the schema
// from the first rows (the "prologue", parsed on the calling thread, since a parser needs the
// column count before it can parse a later chunk), then feeding chunks to the parallel pool.
#include "convert/csv_to_records.h"

#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "convert/csv_chunk_converter.h"
#include "convert/ordered_map.h"
#include "csv/infer.h"
#include "io/compression.h"
#include "io/file_streams.h"
#include "io/paths.h"

namespace tfq {
namespace {

// Bytes of parsed chunks held while the schema is inferred (the rows wait for their schema).
constexpr size_t kMaxPrologueBytes = size_t{64} << 20;

using internal::CsvChunkConverter;
using internal::CsvSlot;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Everything the conversion learns as it goes, shared by the passes over the inputs.
class Conversion {
 public:
  Conversion(const std::vector<std::string>& inputs, const CsvOpener& open,
             const CsvToRecordsOptions& options, const CsvCallbacks& callbacks)
      : inputs_(inputs), open_(open), options_(options), callbacks_(callbacks),
        na_(options.na_values) {}

  Status Run();
  const CsvProgress& progress() const { return progress_; }

 private:
  Status InferAllPass();
  Status ConvertInput(size_t index);
  // Converts the rest of `file` from `at_start` (where the prologue's chunker stands) in chunks
  // the workers cut (csv/range_cutter.h). Sets *resume_at to the file's size, or to the start of
  // the first chunk that could not be cut or converted: the serial reader goes on from there and
  // meets its error as a serial run would.
  Status ConvertRanges(const RandomAccessFile& file, const csv::ChunkPosition& at_start,
                       uint64_t* resume_at);
  // Learns the column names from a parsed batch of input `index` (or checks them against the
  // first input's). Sets *known once they are.
  Status NoteColumns(const csv::RowBatch& batch, const csv::ChunkParser& parser, size_t index,
                     bool* known);
  Status StartConversion();
  Status WriteSlot(CsvSlot& slot);
  csv::ChunkerOptions chunk_options() const { return {options_.chunk_bytes, options_.max_row_bytes}; }
  // Whether the prologue still needs rows for inference (never with kInferAll: done by then).
  bool Inferring() const {
    return !schema_ && options_.infer_rows != CsvToRecordsOptions::kInferAll &&
           (!inferrer_ || inferrer_->rows() < options_.infer_rows);
  }

  const std::vector<std::string>& inputs_;
  const CsvOpener& open_;
  const CsvToRecordsOptions& options_;
  const CsvCallbacks& callbacks_;
  csv::NaMatcher na_;
  std::vector<std::string> names_;  // final column names; empty until known
  std::unique_ptr<csv::SchemaInferrer> inferrer_;
  std::optional<csv::Schema> schema_;
  // The input being cut by the workers: declared before the pool, so that the pool's workers
  // are joined (on an error, mid-input) before they go.
  std::unique_ptr<RandomAccessFile> range_file_;
  std::unique_ptr<csv::RangeCutter> cutter_;
  uint64_t ranges_written_to_ = 0;      // the end of the last cut chunk written
  std::optional<uint64_t> redo_from_;  // where a cut chunk failed: read serially from there
  std::unique_ptr<CsvChunkConverter> chunk_converter_;
  std::unique_ptr<OrderedMapOf<CsvSlot>> pool_;
  CsvProgress progress_;
};

Status Conversion::NoteColumns(const csv::RowBatch& batch, const csv::ChunkParser& parser,
                               size_t index, bool* known) {
  std::vector<std::string> names;
  if (!options_.column_names.empty()) {
    *known = true;
    if (names_.empty()) names_ = options_.column_names;
    return Status::OK();
  }
  if (options_.parse.header) {
    if (!batch.has_header()) return Status::OK();
    TFQ_ASSIGN_OR_RETURN(names, csv::ColumnNamesFromHeader(batch.header(), inputs_[index]));
  } else {
    if (parser.expected_fields() == 0) return Status::OK();
    std::vector<std::string_view> unnamed(parser.expected_fields());
    TFQ_ASSIGN_OR_RETURN(names, csv::ColumnNamesFromHeader(unnamed, inputs_[index]));
  }
  if (names.size() > options_.max_columns) {
    return Status::ResourceExhausted(
        inputs_[index] + ": line 1: " + std::to_string(names.size()) + " columns, more than the limit of " +
        std::to_string(options_.max_columns) +
        " (every column costs about a kilobyte in each thread); raise it with --max-columns if the file is genuine");
  }
  *known = true;
  if (names_.empty()) {
    names_ = std::move(names);
  } else if (names != names_) {
    return Status::InvalidData(inputs_[index] + ": line 1 (header): the columns differ from those of " +
                               inputs_[0] + " (every input must have the same columns)");
  }
  return Status::OK();
}

// --infer-rows all: one pass over every input that only parses and infers.
Status Conversion::InferAllPass() {
  for (size_t i = 0; i < inputs_.size(); ++i) {
    TFQ_ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, open_(inputs_[i]));
    csv::Chunker chunker(in.get(), options_.parse, chunk_options());
    csv::ChunkParser parser(options_.parse);
    if (!names_.empty()) parser.SetColumnNames(names_);
    csv::Chunk chunk;
    csv::RowBatch batch;
    bool known = false;
    for (;;) {
      bool done = false;
      TFQ_RETURN_IF_ERROR(chunker.Next(&chunk, &done));
      if (done) break;
      // The header, when the parser took it, is checked before a later record's error: as it
      // would be had the chunk ended before that record.
      const Status parsed = parser.Parse(chunk, &batch);
      if (!known) TFQ_RETURN_IF_ERROR(NoteColumns(batch, parser, i, &known));
      TFQ_RETURN_IF_ERROR(parsed);
      if (!known) continue;
      if (!inferrer_) inferrer_ = std::make_unique<csv::SchemaInferrer>(names_, options_.declared, na_);
      inferrer_->AddBatch(batch, 0, CsvToRecordsOptions::kInferAll);
    }
  }
  return Status::OK();
}

Status Conversion::StartConversion() {
  if (!inferrer_) inferrer_ = std::make_unique<csv::SchemaInferrer>(names_, options_.declared, na_);
  TFQ_ASSIGN_OR_RETURN(csv::Schema all, inferrer_->Finish());
  std::vector<std::string> select = options_.select;
  if (!options_.label_column.empty()) {
    const std::string& label = options_.label_column;
    auto it = std::find_if(all.columns.begin(), all.columns.end(),
                           [&](const csv::ColumnSpec& c) { return c.name == label; });
    if (it == all.columns.end()) {
      return Status::InvalidArgument("--label-column " + label + ": " + inputs_[0] +
                                     " has no such column");
    }
    if (std::find(options_.exclude.begin(), options_.exclude.end(), label) != options_.exclude.end()) {
      return Status::InvalidArgument("--label-column " + label + " cannot be excluded");
    }
    it->required = true;
    if (!select.empty() && std::find(select.begin(), select.end(), label) == select.end()) {
      select.push_back(label);
    }
  }
  TFQ_ASSIGN_OR_RETURN(schema_, csv::SelectColumns(all, select, options_.exclude));
  if (callbacks_.on_schema) TFQ_RETURN_IF_ERROR(callbacks_.on_schema(*schema_));
  TFQ_ASSIGN_OR_RETURN(csv::RowConverter converter, csv::RowConverter::Make(*schema_, names_, na_));
  chunk_converter_ =
      std::make_unique<CsvChunkConverter>(options_.threads, options_.parse, names_, converter);
  pool_ = std::make_unique<OrderedMapOf<CsvSlot>>(
      options_.threads,
      [this](CsvSlot& slot, int worker) { return chunk_converter_->Convert(slot, worker); },
      [this](CsvSlot& slot) { return WriteSlot(slot); },
      // One slot per worker (and two more): chunks of CSV cost alike, so a second one queued per
      // worker buys nothing, and each slot's buffers are about 5 MB (a numeric table frames to
      // 4x its bytes), so fewer of them stay in the cores' caches (docs/benchmarks.md).
      /*slots_per_thread=*/1);
  return Status::OK();
}

Status Conversion::WriteSlot(CsvSlot& slot) {
  if (slot.cutter) {
    if (redo_from_) return Status::OK();  // after a failed chunk: the serial reader redoes it
    if (slot.redo_serially) {
      redo_from_ = ranges_written_to_;
      return Status::OK();
    }
    ranges_written_to_ = slot.chunk.first_byte + slot.chunk.data().size();
  }
  if (!slot.ends.empty()) {
    TFQ_RETURN_IF_ERROR(callbacks_.sink(slot.framed.view(), slot.ends));
  }
  progress_.rows += slot.batch.num_rows() + slot.batch.skipped_rows();
  progress_.records += slot.ends.size();
  progress_.skipped_rows += slot.batch.skipped_rows();
  progress_.padded_rows += slot.batch.padded_rows();
  if (internal::HoldsLongRecord(slot)) internal::FreeLongRecord(&slot);
  return Status::OK();
}

Status Conversion::ConvertRanges(const RandomAccessFile& file, const csv::ChunkPosition& at_start,
                                 uint64_t* resume_at) {
  csv::ReadAt read = [&file](uint64_t offset, size_t n, char* dst, size_t* got) {
    return file.Read(offset, n, dst, got);
  };
  cutter_ = std::make_unique<csv::RangeCutter>(std::move(read), file.size(), at_start.first_byte, at_start,
                                               options_.parse, chunk_options());
  ranges_written_to_ = at_start.first_byte;
  redo_from_.reset();
  for (size_t k = 0; k < cutter_->num_ranges(); ++k) {
    CsvSlot* slot;
    TFQ_RETURN_IF_ERROR(pool_->Acquire(&slot));
    if (redo_from_) {
      pool_->Release(slot);
      break;
    }
    slot->cutter = cutter_.get();
    slot->range = k;
    pool_->Submit(slot);
  }
  TFQ_RETURN_IF_ERROR(pool_->Drain());
  *resume_at = redo_from_.value_or(file.size());
  return Status::OK();
}

Status Conversion::ConvertInput(size_t index) {
  // With several threads, a file that can be read at offsets is (after the prologue). The pool
  // is idle here: no worker still reads the last input's file.
  range_file_.reset();
  if (options_.threads > 1 && callbacks_.open_ranges) {
    Result<std::unique_ptr<RandomAccessFile>> opened = callbacks_.open_ranges(inputs_[index]);
    // One that cannot be opened is opened as a stream, which reports why in its own words.
    if (opened.ok()) range_file_ = std::move(opened).value();
  }
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in,
                       range_file_ ? range_file_->OpenStream(ReadPattern::kSequential) : open_(inputs_[index]));
  csv::Chunker chunker(in.get(), options_.parse, chunk_options());

  // Prologue: parse on this thread until the columns are known (and, for the first input with a
  // pass-free inference, until enough rows were seen), keeping the parsed chunks.
  std::vector<std::unique_ptr<CsvSlot>> prologue;
  csv::ChunkParser parser(options_.parse);
  if (!names_.empty()) parser.SetColumnNames(names_);
  bool known = false;
  bool done = false;
  // The chunks held here are bounded too: inference stops at kMaxPrologueBytes even with fewer
  // rows, or a file of blank lines (a gzip bomb of newlines) would be held whole. The chunk that
  // crosses the cap is held too, so a row longer than the cap is still seen by inference.
  size_t held = 0;
  while (!done && (!known || (Inferring() && held < kMaxPrologueBytes))) {
    auto slot = std::make_unique<CsvSlot>();
    Status s = chunker.Next(&slot->chunk, &done);
    // A record the parser rejects ends the input, but the rows before it are converted first
    // (and inferred from): one of them may fail earlier in input order (csv_chunk_converter.h).
    slot->parse_status = s.ok() && !done ? parser.Parse(slot->chunk, &slot->batch) : Status::OK();
    if (s.ok() && !done && !known) s = NoteColumns(slot->batch, parser, index, &known);
    if (s.ok() && !known) s = slot->parse_status;
    if (!s.ok()) {
      if (pool_) TFQ_RETURN_IF_ERROR(pool_->Drain());  // an earlier input's error comes first
      return s;
    }
    if (done) break;
    if (!slot->parse_status.ok()) done = true;  // nothing after the rejected record is read
    slot->parsed = true;
    held += slot->chunk.data().size();
    if (!known && held >= kMaxPrologueBytes) {
      return Status::InvalidData(inputs_[index] + ": no header row in the first " +
                                 std::to_string(held) + " bytes (only blank lines)");
    }
    if (known && Inferring()) {
      if (!inferrer_) inferrer_ = std::make_unique<csv::SchemaInferrer>(names_, options_.declared, na_);
      inferrer_->AddBatch(slot->batch, 0, options_.infer_rows);
    }
    prologue.push_back(std::move(slot));
  }
  if (!schema_ && !names_.empty()) TFQ_RETURN_IF_ERROR(StartConversion());
  if (!pool_) {
    // No columns yet (an empty input): nothing parsed here can hold rows.
    return Status::OK();
  }
  for (auto& slot : prologue) {
    const bool long_record = internal::HoldsLongRecord(*slot);
    pool_->Adopt(std::move(slot));
    if (long_record) TFQ_RETURN_IF_ERROR(pool_->Drain());  // freed before the next is converted
  }
  if (range_file_ && !done) {
    const csv::ChunkPosition at_start = chunker.next_position();
    uint64_t resume_at = 0;
    TFQ_RETURN_IF_ERROR(ConvertRanges(*range_file_, at_start, &resume_at));
    if (resume_at == range_file_->size()) return Status::OK();
    TFQ_RETURN_IF_ERROR(chunker.SkipCut(resume_at - at_start.first_byte));
  }
  // One thread converts each chunk before the next is read, so the chunks can be views of the
  // stream's buffer rather than copies. (The prologue's chunks above are held: copies.)
  chunker.Lend(options_.threads <= 1);
  while (!done) {
    CsvSlot* slot;
    TFQ_RETURN_IF_ERROR(pool_->Acquire(&slot));
    slot->cutter = nullptr;
    Status s = chunker.Next(&slot->chunk, &done);
    if (!s.ok() || done) {
      pool_->Release(slot);
      TFQ_RETURN_IF_ERROR(pool_->Drain());
      TFQ_RETURN_IF_ERROR(s);
      break;
    }
    slot->parsed = false;
    pool_->Submit(slot);
    if (internal::HoldsLongRecord(*slot)) TFQ_RETURN_IF_ERROR(pool_->Drain());  // before reading on
  }
  TFQ_RETURN_IF_ERROR(pool_->Drain());
  return Status::OK();
}

Status Conversion::Run() {
  TFQ_RETURN_IF_ERROR(csv::ValidateParseOptions(options_.parse));
  if (!options_.column_names.empty()) names_ = options_.column_names;
  if (options_.infer_rows == CsvToRecordsOptions::kInferAll) TFQ_RETURN_IF_ERROR(InferAllPass());
  for (size_t i = 0; i < inputs_.size(); ++i) TFQ_RETURN_IF_ERROR(ConvertInput(i));
  if (!schema_ && callbacks_.on_schema) return callbacks_.on_schema(csv::Schema{});
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<InputStream>> OpenCsvFile(const std::string& path,
                                                 const DecompressionLimit& limit) {
  Result<std::unique_ptr<InputStream>> in = OpenInputFile(path);
  if (!in.ok() || !EndsWith(path, ".gz")) return in;
  return NewDecompressingStream(std::move(in).value(), Compression::kGzip, limit);
}

Result<std::unique_ptr<RandomAccessFile>> OpenCsvFileRanges(const std::string& path) {
  if (path == "-" || EndsWith(path, ".gz")) return std::unique_ptr<RandomAccessFile>();
  if (!LooksLikeUrl(path)) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::unique_ptr<RandomAccessFile>();
  }
  return RandomAccessFile::Open(path);
}

Status CsvToRecords(const std::vector<std::string>& inputs, const CsvOpener& open,
                    const CsvToRecordsOptions& options, const CsvCallbacks& callbacks,
                    CsvProgress* result) {
  Conversion conversion(inputs, open, options, callbacks);
  Status s = conversion.Run();
  if (result) *result = conversion.progress();
  return s;
}

}  // namespace tfq
