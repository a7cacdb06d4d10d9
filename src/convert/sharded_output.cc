#include "convert/sharded_output.h"

#include <sys/stat.h>

#include <cerrno>

#include "io/file_streams.h"
#include "io/output_set.h"
#include "tfrecord/open.h"
#include "tfrecord/record_writer.h"

namespace tfq {

// Sits right above a file: counts (and shows the observer) the bytes that reach it, and on Close
// does not complete the file, so that a compressor above can be finished (Finish) before the
// whole set is renamed into place (Commit). The file itself stays with ShardedOutput.
class ShardedOutput::FileTap : public OutputStream {
 public:
  FileTap(OutputStream* file, uint64_t k, const ShardedOutputOptions* options)
      : file_(file), k_(k), options_(options) {}
  Status Write(std::string_view data) override {
    if (closed_) return Status::Internal(file_->name() + ": write after Close");
    if (options_->on_file_bytes) options_->on_file_bytes(k_, data);
    bytes_ += data.size();
    return file_->Write(data);
  }
  Status Close() override {
    closed_ = true;
    return Status::OK();
  }
  const std::string& name() const override { return file_->name(); }
  uint64_t bytes_written() const override { return bytes_; }

 private:
  OutputStream* file_;
  const uint64_t k_;
  const ShardedOutputOptions* options_;
  uint64_t bytes_ = 0;
  bool closed_ = false;
};

namespace {

// Creates the directories of `path` and their parents ("out/train" -> out/), as mkdir -p.
Status MakeParentDirs(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos || slash == 0) return Status::OK();
  const std::string dir = path.substr(0, slash);
  for (size_t at = 1; at <= dir.size(); ++at) {
    if (at != dir.size() && dir[at] != '/') continue;
    const std::string part = dir.substr(0, at);
    if (mkdir(part.c_str(), 0777) != 0 && errno != EEXIST) return Status::FromErrno(part, errno);
  }
  return Status::OK();
}

}  // namespace

ShardedOutput::~ShardedOutput() {
  streams_.clear();  // (the taps point into raw_)
}

Result<std::unique_ptr<ShardedOutput>> ShardedOutput::Create(const ShardedOutputOptions& options) {
  if (options.num_tasks == 0 || options.task_index >= options.num_tasks ||
      (options.num_shards == 0 && options.num_tasks > 1)) {
    return Status::InvalidArgument("--task-index must be below --num-tasks");
  }
  if (options.make_parent_dirs) TFQ_RETURN_IF_ERROR(MakeParentDirs(options.path));
  std::unique_ptr<ShardedOutput> w(new ShardedOutput(options));
  const uint64_t n = options.num_shards == 0 ? 1 : options.num_shards;
  w->files_.resize(n);
  w->raw_.resize(n);
  w->taps_.resize(n, nullptr);
  w->streams_.resize(n);
  for (uint64_t k = 0; k < n; ++k) {
    if (k % options.num_tasks != options.task_index) continue;
    const std::string path = options.num_shards == 0
                                 ? options.path
                                 : tfrecord::ShardName(options.path, k, n, options.suffix);
    TFQ_ASSIGN_OR_RETURN(auto file, options.create_file ? options.create_file(path) : CreateOutputFile(path));
    w->files_[k].path = path;
    w->raw_[k] = std::move(file);
    auto tap = std::make_unique<FileTap>(w->raw_[k].get(), k, &w->options_);
    w->taps_[k] = tap.get();
    std::unique_ptr<OutputStream> stream = std::move(tap);
    const Compression c = options.compression == Compression::kAuto ? CompressionFromExtension(path)
                                                                    : options.compression;
    if (c != Compression::kNone) {
      if (options.threads > 1 && !w->deflate_pool_) w->deflate_pool_ = std::make_unique<DeflatePool>(options.threads);
      stream = NewCompressingStream(std::move(stream), c, -1, w->deflate_pool_.get());
    }
    w->streams_[k] = std::move(stream);
  }
  return w;
}

Status ShardedOutput::Write(uint64_t k, std::string_view bytes, uint64_t records) {
  if (!owns(k)) {
    return Status::Internal("output routed to shard " + std::to_string(k) + " not owned by this task");
  }
  TFQ_RETURN_IF_ERROR(streams_[k]->Write(bytes));
  files_[k].records += records;
  files_[k].bytes += bytes.size();
  return Status::OK();
}

Status ShardedOutput::WriteRecord(uint64_t k, std::string_view record) {
  scratch_.clear();
  tfrecord::AppendFramedRecord(record, &scratch_);
  return Write(k, scratch_, 1);
}

Status ShardedOutput::WriteInTurn(std::string_view framed, std::span<const size_t> ends) {
  if (files_.size() == 1) {
    next_in_turn_ += ends.size();
    return Write(0, framed, ends.size());
  }
  size_t begin = 0;
  for (size_t end : ends) {
    const uint64_t k = next_in_turn_++ % files_.size();
    if (owns(k)) TFQ_RETURN_IF_ERROR(Write(k, framed.substr(begin, end - begin), 1));
    begin = end;
  }
  return Status::OK();
}

Status ShardedOutput::Finish() {
  if (finished_) return Status::OK();
  for (uint64_t k = 0; k < files_.size(); ++k) {
    if (!streams_[k]) continue;
    TFQ_RETURN_IF_ERROR(streams_[k]->Close());
    files_[k].file_bytes = taps_[k]->bytes_written();
  }
  finished_ = true;
  return Status::OK();
}

Status ShardedOutput::Commit(std::vector<OutputStream*> also) {
  TFQ_RETURN_IF_ERROR(Finish());
  std::vector<OutputStream*> set;
  for (const auto& file : raw_) {
    if (file) set.push_back(file.get());
  }
  set.insert(set.end(), also.begin(), also.end());
  Status status = CloseTogether(set);
  streams_.clear();
  raw_.clear();  // destroys (and so removes) the temporaries of files not completed
  return status;
}

std::vector<std::string> ShardedOutput::paths() const {
  std::vector<std::string> paths;
  for (const OutputFile& f : files_) {
    if (!f.path.empty()) paths.push_back(f.path);
  }
  return paths;
}

uint64_t ShardedOutput::records() const {
  uint64_t n = 0;
  for (const OutputFile& f : files_) n += f.records;
  return n;
}

uint64_t ShardedOutput::bytes() const {
  uint64_t n = 0;
  for (const OutputFile& f : files_) n += f.bytes;
  return n;
}

}  // namespace tfq
