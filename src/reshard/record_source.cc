#include "reshard/record_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
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
    int fd;
    do {
      fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return Status::FromErrno(path, errno);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {  // replaced since the stat()?
      const int err = errno;
      close(fd);
      if (S_ISREG(st.st_mode)) return Status::FromErrno(path, err);
      return OpenRecordFile(path, options);
    }
    opened.regular = true;
    opened.file_bytes = static_cast<uint64_t>(st.st_size);
    const int copy_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);  // offsets are explicit: sharing is fine
    if (copy_fd >= 0) opened.source = std::make_shared<const SourceFile>(copy_fd);
    opened.stream = NewRegularFileStream(path, fd, opened.file_bytes, ReadPattern::kReadAhead);
  }
  if (!opened.stream) {
    Result<std::unique_ptr<InputStream>> raw = OpenInputFile(path);
    if (!raw.ok()) return raw.status();
    opened.stream = std::move(raw).value();
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
    Result<OpenedRecordFile> file = OpenRecordFile(path, options);
    if (!file.ok()) return file.status();
    survey.file_bytes += file->file_bytes;
    if (!file->regular) survey.rereadable = false;
    if (!file->regular || file->compression != Compression::kNone) {
      survey.sizes_exact = false;
      continue;
    }
    tfrecord::RecordReader reader(std::move(file->stream), options.reader);
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
    Result<OpenedRecordFile> file = OpenRecordFile(path, options);
    if (!file.ok()) return file.status();
    tfrecord::RecordReader reader(std::move(file->stream), options.reader);
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
