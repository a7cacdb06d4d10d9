#include "bench/dataset.h"

#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "bench/generate.h"
#include "io/cleanup.h"
#include "io/file_streams.h"
#include "tfrecord/format.h"
#include "tfrecord/open.h"
#include "tfrecord/record_reader.h"
#include "tfrecord/record_writer.h"

namespace tfq::bench {

struct Dataset::TemporaryFile {
  std::string path;
  int cleanup_slot = -1;
  ~TemporaryFile() {
    unlink(path.c_str());
    UnregisterTemporaryPath(cleanup_slot);
  }
};

Dataset::Dataset() : framed_(std::make_unique<std::string>()) {}
Dataset::Dataset(Dataset&&) noexcept = default;
Dataset& Dataset::operator=(Dataset&&) noexcept = default;
Dataset::~Dataset() = default;

Dataset Dataset::Generate(uint64_t bytes, uint64_t seed) {
  Dataset d;
  d.generated_ = true;
  d.seed_ = seed;
  d.framed_->reserve(bytes + (64 << 10));
  GenerateExampleRecords(bytes, seed, d.framed_.get());
  d.IndexRecords();
  return d;
}

Result<Dataset> Dataset::Load(const std::vector<std::string>& paths, Compression compression,
                              uint64_t max_bytes) {
  Dataset d;
  d.generated_ = false;
  d.sources_ = paths;
  d.compression_ = compression;
  for (const std::string& path : paths) {
    if (d.framed_->size() >= max_bytes) break;
    TFQ_ASSIGN_OR_RETURN(tfrecord::OpenedInput in, tfrecord::OpenRecordInput(path, compression));
    tfrecord::RecordReader reader(std::move(in.stream), {});
    std::string_view record;
    while (d.framed_->size() < max_bytes && reader.Read(&record)) {
      tfrecord::AppendFramedRecord(record, d.framed_.get());
    }
    TFQ_RETURN_IF_ERROR(reader.status());
  }
  if (d.framed_->empty()) return Status::InvalidData("no records in the files named");
  d.IndexRecords();
  return d;
}

void Dataset::IndexRecords() {
  records_.clear();
  const std::string& f = *framed_;
  for (size_t at = 0; at + tfrecord::kHeaderSize <= f.size();) {
    const uint64_t length = tfrecord::DecodeFixed64(f.data() + at);
    records_.emplace_back(f.data() + at + tfrecord::kHeaderSize, length);
    at += tfrecord::kFramingOverhead + length;
  }
}

Status GzipAsTensorFlow(std::string_view in, std::string* out) {
  z_stream z = {};
  if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::ResourceExhausted("deflateInit2 failed");
  }
  out->resize(deflateBound(&z, in.size()));
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out->data());
  z.avail_out = static_cast<uInt>(out->size());
  const int rc = deflate(&z, Z_FINISH);
  out->resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) return Status::Internal("zlib deflate failed: " + std::to_string(rc));
  return Status::OK();
}

Result<std::string_view> Dataset::Gzipped() {
  if (!gzipped_) {
    auto out = std::make_unique<std::string>();
    TFQ_RETURN_IF_ERROR(GzipAsTensorFlow(*framed_, out.get()));
    gzipped_ = std::move(out);
  }
  return std::string_view(*gzipped_);
}

Result<std::vector<std::string>> Dataset::Files(size_t shards) {
  if (!generated_) return sources_;
  shards = std::clamp<size_t>(shards, 1, records_.size());
  if (temporary_[shards].empty()) {
    std::vector<std::unique_ptr<TemporaryFile>> made;  // removed again if a later one fails
    const char* dir = std::getenv("TMPDIR");
    const std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/tfq-bench-XXXXXX.tfrecord";
    const char* begin = framed_->data();
    for (size_t k = 0; k < shards; ++k) {
      std::string path = pattern;
      // mkstemps reserves a unique name; CreateOutputFile then replaces it atomically.
      const int fd = mkstemps(path.data(), 9);
      if (fd < 0) return Status::FromErrno(path, errno);
      close(fd);
      auto file = std::make_unique<TemporaryFile>();
      file->path = path;
      file->cleanup_slot = RegisterTemporaryPath(path);
      made.push_back(std::move(file));
      // Records [first, last) framed: from the header before the first payload on.
      const size_t first = records_.size() * k / shards;
      const size_t last = records_.size() * (k + 1) / shards;
      const char* from = records_[first].data() - tfrecord::kHeaderSize;
      const char* to = last < records_.size() ? records_[last].data() - tfrecord::kHeaderSize
                                              : begin + framed_->size();
      TFQ_ASSIGN_OR_RETURN(std::unique_ptr<OutputStream> out, CreateOutputFile(path));
      TFQ_RETURN_IF_ERROR(out->Write(std::string_view(from, static_cast<size_t>(to - from))));
      TFQ_RETURN_IF_ERROR(out->Close());
    }
    temporary_[shards] = std::move(made);
  }
  std::vector<std::string> paths;
  for (const std::unique_ptr<TemporaryFile>& file : temporary_[shards]) paths.push_back(file->path);
  return paths;
}

}  // namespace tfq::bench
