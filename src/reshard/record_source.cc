#include "reshard/record_source.h"

#include <sys/stat.h>

#include <utility>

#include "io/file_streams.h"
#include "tfrecord/format.h"

namespace tfq::reshard {
namespace {

void AddSkips(const tfrecord::SkipReport& from, tfrecord::SkipReport* to) {
  to->corrupt_records += from.corrupt_records;
  to->resyncs += from.resyncs;
  to->resync_bytes += from.resync_bytes;
  for (const auto& m : from.messages) {
    if (to->messages.size() >= tfrecord::SkipReport::kMaxMessages) break;
    to->messages.push_back(m);
  }
}

}  // namespace

Result<OpenedRecordFile> OpenRecordFile(const std::string& path, const InputOptions& options) {
  OpenedRecordFile opened;
  // Only regular files are opened here; FIFOs, devices and directories go to io without being
  // opened first (a FIFO opened and closed again would lose bytes, or kill its writer).
  struct stat st;
  if (path != "-" && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    Result<std::unique_ptr<RandomAccessFile>> file = RandomAccessFile::Open(path);
    if (file.ok()) {
      // One open file for both: the stream reads it ahead, the copies read it at offsets.
      TFQ_ASSIGN_OR_RETURN(opened.stream, (*file)->OpenStream(ReadPattern::kReadAhead));
      opened.regular = true;
      opened.file_bytes = (*file)->size();
      opened.source = std::move(file).value();
    } else if (file.status().code() != StatusCode::kInvalidArgument) {
      return file.status();
    }  // else no longer a regular file (replaced since the stat()): opened as a stream below
  }
  if (!opened.stream) {
    TFQ_ASSIGN_OR_RETURN(opened.stream, OpenInputFile(path));
  }
  Compression c = options.compression;
  if (c == Compression::kAuto) {
    // As tfrecord::OpenRecordInput: a verifying header (or nothing) means uncompressed.
    std::string_view first;
    TFQ_RETURN_IF_ERROR(opened.stream->Peek(tfrecord::kHeaderSize, &first));
    const bool plain = first.empty() || (first.size() >= tfrecord::kHeaderSize &&
                                         tfrecord::HeaderCrcValid(first.data()));
    c = plain ? Compression::kNone : SniffCompression(first);
  }
  opened.compression = c;
  if (c != Compression::kNone) {
    opened.source.reset();
    opened.stream = NewDecompressingStream(std::move(opened.stream), c, options.decompression);
  }
  return opened;
}

Result<std::unique_ptr<RandomAccessFile>> OpenInputAgain(const std::string& path, bool random_order) {
  Result<std::unique_ptr<RandomAccessFile>> file =
      RandomAccessFile::Open(path, {.no_access_time = true, .random_order = random_order});
  if (file.ok()) return file;
  // "PATH: why" becomes "PATH: cannot open it again: why", the code kept.
  const std::string& why = file.status().message();
  const bool named = why.compare(0, path.size() + 2, path + ": ") == 0;
  return Status(file.status().code(),
                path + ": cannot open it again: " + (named ? why.substr(path.size() + 2) : why));
}

Result<InputSurvey> SurveyInputs(const std::vector<std::string>& paths, const InputOptions& options,
                                 uint64_t sample_per_file) {
  InputSurvey survey;
  for (const auto& path : paths) {
    // Standard input and pipes are not opened: a byte read here would be lost to the real pass.
    struct stat st;
    if (path == "-" || (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
      survey.rereadable = false;
      survey.sizes_exact = false;
      continue;
    }
    TFQ_ASSIGN_OR_RETURN(OpenedRecordFile file, OpenRecordFile(path, options));
    survey.file_bytes += file.file_bytes;
    if (!file.regular) survey.rereadable = false;
    if (!file.regular || file.compression != Compression::kNone) {
      survey.sizes_exact = false;
      continue;
    }
    tfrecord::RecordReader reader(std::move(file.stream), options.reader);
    for (uint64_t i = 0; i < sample_per_file && reader.Skip(); ++i) {
      ++survey.sampled_records;
      survey.sampled_bytes += reader.record_framed_size();
    }
    // A sampling error is not reported here: the real pass reports it with full context.
  }
  return survey;
}

Result<RecordCount> CountRecords(const std::vector<std::string>& paths, const InputOptions& options) {
  RecordCount count;
  for (const auto& path : paths) {
    TFQ_ASSIGN_OR_RETURN(OpenedRecordFile file, OpenRecordFile(path, options));
    tfrecord::RecordReader reader(std::move(file.stream), options.reader);
    while (reader.Skip()) {
      ++count.records;
      count.framed_bytes += reader.record_framed_size();
    }
    TFQ_RETURN_IF_ERROR(reader.status());
  }
  return count;
}

RecordSource::RecordSource(std::vector<std::string> paths, InputOptions options)
    : paths_(std::move(paths)), options_(std::move(options)) {}

RecordSource::~RecordSource() = default;

bool RecordSource::OpenNext() {
  Result<OpenedRecordFile> file = OpenRecordFile(paths_[input_], options_);
  if (!file.ok()) {
    status_ = file.status();
    return false;
  }
  reader_ = std::make_unique<tfrecord::RecordReader>(std::move(file->stream), options_.reader);
  source_file_ = std::move(file->source);
  return true;
}

void RecordSource::FinishInput() {
  AddSkips(reader_->skipped(), &skipped_);
  finished_source_bytes_ += reader_->stream().source_bytes_read();
  reader_.reset();
  source_file_.reset();
  ++input_;
}

bool RecordSource::Next(std::string_view* record) {
  while (status_.ok() && input_ < paths_.size()) {
    if (!reader_ && !OpenNext()) return false;
    if (reader_->Read(record)) {
      ++records_;
      return true;
    }
    if (!reader_->status().ok()) {
      status_ = reader_->status();
      return false;
    }
    FinishInput();
  }
  return false;
}

const tfrecord::SkipReport& RecordSource::skipped() const {
  merged_ = skipped_;
  if (reader_) AddSkips(reader_->skipped(), &merged_);
  return merged_;
}

uint64_t RecordSource::source_bytes_read() const {
  return finished_source_bytes_ + (reader_ ? reader_->stream().source_bytes_read() : 0);
}

}  // namespace tfq::reshard
